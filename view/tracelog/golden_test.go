package tracelog

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/golden"
)

// checkGolden compares got with testdata/name, or rewrites it under
// -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// Traces longer than goldenLines are kept as their head and tail, which a
// person can read, and a digest of the whole, which catches any change in
// between: a 10,000-task burst is 8 MB of trace, too much to review or to
// keep in the repository.
const (
	goldenLines = 3000
	goldenHead  = 1500
	goldenTail  = 300
)

// abridge shortens a long trace for its golden file.
func abridge(trace []byte) []byte {
	lines := strings.SplitAfter(string(trace), "\n")
	if len(lines) <= goldenLines {
		return trace
	}
	var b bytes.Buffer
	b.WriteString(strings.Join(lines[:goldenHead], ""))
	fmt.Fprintf(&b, "# … %d lines left out; the whole trace has %d lines and SHA-256 %x\n",
		len(lines)-goldenHead-goldenTail, len(lines), sha256.Sum256(trace))
	b.WriteString(strings.Join(lines[len(lines)-goldenTail:], ""))
	return b.Bytes()
}

// Every built-in scenario has a golden trace: a change of behaviour shows
// up as a diff a person reads.
func TestGoldenTraces(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		t.Run(sc.Name, func(t *testing.T) {
			var buf bytes.Buffer
			end, _, err := Run(sc, Options{Check: true}, &buf)
			if err != nil {
				t.Fatal(err)
			}
			if !sc.AsExpected(end) {
				t.Fatalf("%s ended with %v: %v", sc.Name, end.Reason, end.Err)
			}
			if bytes.Contains(buf.Bytes(), []byte("was not reached")) {
				t.Errorf("a note of %s is never shown:\n%s", sc.Name, buf.Bytes())
			}
			checkGolden(t, sc.Name+".txt", abridge(buf.Bytes()))
		})
	}
}

func TestGoldenJSONL(t *testing.T) {
	sc, err := scenarios.Load("steal")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, _, err := Run(sc, Options{Format: JSONL, Check: true}, &buf); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "steal.jsonl", buf.Bytes())
}

func TestGoldenSchedTrace(t *testing.T) {
	sc, err := scenarios.Load("preempt")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, _, err := Run(sc, Options{SchedTrace: 10 * time.Millisecond, NoEvents: true}, &buf); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "preempt.schedtrace", buf.Bytes())
}

// The same scenario and seed give a byte-identical trace.
func TestTraceIsByteIdentical(t *testing.T) {
	sc, err := scenarios.Load("netpoll")
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		if _, _, err := Run(sc, Options{Format: JSONL}, buf); err != nil {
			t.Fatal(err)
		}
	}
	if a.Len() == 0 || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two runs of the same scenario and seed gave different bytes")
	}
}

// Options override the scenario's values; the seed reaches the model.
func TestOptionsOverrideTheScenario(t *testing.T) {
	sc := &scenarios.Scenario{Name: "x", Procs: 2, Seed: 5, Until: time.Second}
	seed := uint64(9)
	cfg := Options{Overrides: scenarios.Overrides{Seed: &seed, Procs: 3, Until: time.Millisecond}, Check: true}.Config(sc)
	if cfg.Seed != 9 || cfg.Procs != 3 || cfg.Until != time.Millisecond || !cfg.Check {
		t.Fatalf("config %+v", cfg)
	}
	if cfg := (Options{}).Config(sc); cfg.Seed != 5 || cfg.Procs != 2 || cfg.Until != time.Second {
		t.Fatalf("defaults not taken from the scenario: %+v", cfg)
	}
	if cfg.Costs != (gmp.Costs{}) {
		t.Fatal("costs are set: the zero Costs leaves them to the model's defaults")
	}
}

// Notes appear where they belong, and unreached ones are reported.
func TestNotesPlacement(t *testing.T) {
	data := []byte(`procs: 1
main:
  - go: {do: [{cpu: 1ms}]}
  - wait: children
notes:
  - at: 0s
    text: first
  - on: go-exit
    text: after the exit
  - on: steal
    text: never
`)
	sc, err := scenarios.Parse("n.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, _, err := Run(sc, Options{}, &buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "note: first") {
		t.Errorf("first line %q, want the at: 0s note", lines[0])
	}
	exit := strings.Index(out, "go-exit")
	note := strings.Index(out, "note: after the exit")
	if exit < 0 || note < exit {
		t.Errorf("the on: go-exit note is not right after the first go-exit:\n%s", out)
	}
	if !strings.Contains(out, "# note on steal (n.yaml:10:5) was not reached") {
		t.Errorf("the unreached note is not reported:\n%s", out)
	}
}
