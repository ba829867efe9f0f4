package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	rtrace "runtime/trace"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schedlab/schedlab/real/verify"
)

// hostile is what a shared scenario or trace can carry to a terminal: OSC
// 0 (sets the window title), OSC 52 (writes the clipboard), CSI sequences
// (clear the screen, colour), a raw BEL, a C1 CSI (U+009B, a CSI on its
// own for terminals that read C1 controls), DEL and a carriage return.
// Written as YAML double-quoted escapes.
const hostile = `\e]0;pwned\a\e]52;c;aGVsbG8=\a\e[2J\e[31m\a\x9b31m\x7f\r`

// terminalUnsafe says what of out would act on a terminal rather than show:
// a byte below 0x20 other than a newline or a tab, DEL, a C1 control
// (U+0080–U+009F), or a byte that is not UTF-8 (0x9b alone is a CSI to a
// terminal that reads 8-bit controls).
func terminalUnsafe(out string) string {
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return out[max(i-20, 0):min(i+20, len(out))]
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
			return out[max(i-20, 0):min(i+20, len(out))]
		}
		i += size
	}
	return ""
}

// Every text output and every error writes a scenario's text (title,
// summary, notes, questions, choices, names, its file's name) and a
// trace's strings with their control characters made visible, never raw.
func TestUserTextReachesNoTerminalRaw(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// The text of a scenario, with names kept plain (a control character
	// in a name is a scenario error of its own).
	text := write("text\x1b]0;file\a.yaml", `title: "T`+hostile+`"
summary: "S`+hostile+`"
procs: 2
pools: {workers: {size: 2}}
main:
  - submit: {pool: workers, count: 3, do: [{cpu: 1ms}]}
  - wait: children
notes:
  - at: 0s
    text: "N`+hostile+`\nsecond line`+hostile+`"
  - at: 1h
    text: "never reached`+hostile+`"
ask:
  - on: pool-dispatch
    question: "Q`+hostile+`?"
    answer: {worker: workers}
    choices: ["w1", "w9`+hostile+`"]
`)
	// A question whose choices the run does not answer: an error that
	// quotes them.
	badAsk := write("badask.yaml", `procs: 1
pools: {workers: {size: 2}}
main:
  - submit: {pool: workers, count: 3, do: [{cpu: 1ms}]}
  - wait: children
ask:
  - on: pool-dispatch
    question: "Q`+hostile+`?"
    answer: {worker: workers}
    choices: ["w9`+hostile+`", "w8"]
`)
	// The same in the names, which the model's sentences repeat.
	names := write("names.yaml", `title: names
procs: 2
pools: {"w`+hostile+`": {size: 2}}
chans: {"c`+hostile+`": 1}
main:
  - submit: {pool: "w`+hostile+`", count: 3, do: [{cpu: 1ms}]}
  - go: {do: [{send: "c`+hostile+`"}]}
  - recv: "c`+hostile+`"
  - wait: children
`)
	// A run that ends with an error naming a channel.
	deadlock := write("deadlock.yaml", `title: "D`+hostile+`"
procs: 1
chans: {"c`+hostile+`": 0}
main:
  - recv: "c`+hostile+`"
`)
	expected := write("expected.yaml", `title: "E`+hostile+`"
procs: 1
expect: deadlock
chans: {"c`+hostile+`": 0}
main:
  - recv: "c`+hostile+`"
`)
	broken := write("broken.yaml", "title: \"B"+hostile+"\"\nprocs: 1\nmain:\n  - \"x"+hostile+"\": 1\n")

	// A real runtime trace whose strings (block reasons here) a hostile
	// writer replaced, each with one of the same length, so the file
	// still reads.
	var buf bytes.Buffer
	if err := rtrace.Start(&buf); err != nil {
		t.Fatalf("cannot trace: %v", err)
	}
	done := make(chan bool)
	go func() { done <- true }()
	<-done
	rtrace.Stop()
	tr := buf.Bytes()
	for _, r := range []struct{ from, to string }{
		{"chan receive", "\x1b]0;pw\a\u009b2J!"},
		{"system goroutine wait", "\x1b]52;c;aGVsbG8=\a\x7f\r\x1b[!"},
	} {
		if len(r.from) != len(r.to) {
			t.Fatalf("%q and %q differ in length", r.from, r.to)
		}
		tr = bytes.ReplaceAll(tr, []byte(r.from), []byte(r.to))
	}
	if !bytes.Contains(tr, []byte("\x1b]0;pw")) {
		t.Fatal("the trace has no block reason to replace")
	}
	traceFile := write("x\x1b]0;t\a.trace", string(tr))

	for _, args := range [][]string{
		{"run", text},
		{"run", text, "--schedtrace", "1ms", "--scheddetail"},
		{"run", names},
		{"run", names, "--check"},
		{"run", deadlock},
		{"run", expected},
		{"run", broken},
		{"check", text},
		{"check", badAsk},
		{"check", text, names, deadlock, expected, broken, badAsk},
		{"compare", text},
		{"compare", names},
		{"compare", text, "--policies", "default,no-steal"},
		{"compare", deadlock, "--policies", "default,no-steal"},
		{"trace", traceFile, "--format", "text"},
		{"trace", traceFile, "--format", "none"},
		{"exercise", "x" + "\x1b]0;t\a\u009b"},
		{"bench", "--modes", "x\x1b]0;t\a"},
		{"export", "\x1b]0;t\a.yaml"},
		// A handout is often read on the terminal it was written to.
		{"export", text, "--format", "md"},
		{"export", deadlock, "--format", "md"},
	} {
		code, out, errOut := cli(t, args...)
		if bad := terminalUnsafe(out); bad != "" {
			t.Errorf("%q: exit %d; stdout has a control character raw in %q", args, code, bad)
		}
		if bad := terminalUnsafe(errOut); bad != "" {
			t.Errorf("%q: exit %d; stderr has a control character raw in %q", args, code, bad)
		}
		if out == "" && errOut == "" {
			t.Errorf("%q: exit %d and no output", args, code)
		}
	}

	// Made visible, not dropped: the reader sees what the file holds.
	_, out, _ := cli(t, "run", text)
	if !strings.Contains(out, `   note: N\x1b]0;pwned\x07\x1b]52;c;aGVsbG8=\x07\x1b[2J\x1b[31m\x07\u009b31m\x7f\r`+"\n   note: second line") {
		t.Errorf("the note is not shown with its control characters visible, a line for each of its lines:\n%s", out)
	}
	_, out, _ = cli(t, "trace", traceFile, "--format", "text")
	if !strings.Contains(out, `blocks (\x1b]0;pw\x07\u009b2J!)`) {
		t.Errorf("the trace's block reason is not shown visibly:\n%s", out)
	}
}

// A recording is anyone's file too: its toolchain, loads and printed lines
// reach the report with their control characters made visible, and an
// ending that is not one of Go's is refused, its text made visible in the
// error.
func TestARecordingReachesNoTerminalRaw(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	raw := "\x1b]0;pwned\a\x1b]52;c;aGVsbG8=\a\x1b[2J\x1b[31m\a\u009b31m\x7f"
	dir := t.TempDir()
	var runs []verify.Observables
	for range 3 {
		runs = append(runs, verify.Observables{Makespan: 40000, Goroutines: 2, PeakLive: 3, Utilisation: 0.2, FirstStarted: 3,
			Output: []string{"3" + raw, "2", "1"}})
	}
	rec := &verify.Recording{Scenario: "print-order-2p", Procs: 2, CPUs: runtime.NumCPU(), Go: "go1.26" + raw, LoadBefore: raw, LoadAfter: "1", Runs: runs}
	if err := verify.WriteRecording(dir, rec); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "verify", "print-order-2p", "--seeds", "2", "--real-from", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"3\x1b]0;pwned\a`) {
		t.Errorf("the report does not show the printed line made visible:\n%s", out)
	}
	if bad := terminalUnsafe(out + errOut); bad != "" {
		t.Errorf("a recording's text reached the terminal raw: %q", bad)
	}
	untraced := &verify.Recording{Scenario: "nested-submit", Procs: 2, CPUs: runtime.NumCPU(), Go: "go1.26.8", LoadBefore: "1", LoadAfter: "1",
		Runs: []verify.Observables{{Untraced: true, Ended: "deadlock" + raw}}}
	if err := verify.WriteRecording(dir, untraced); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = cli(t, "verify", "nested-submit", "--seeds", "1", "--real-from", dir)
	if code != exitUsage || !strings.Contains(errOut, `run 1: ended "deadlock\x1b]0;pwned\a`) {
		t.Errorf("an ending that is not Go's: exit %d, stderr %q", code, errOut)
	}
	if bad := terminalUnsafe(out + errOut); bad != "" {
		t.Errorf("a recording's ending reached the terminal raw: %q", bad)
	}
}
