package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	rtrace "runtime/trace"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// cli runs a command line in the process and returns its exit status and
// output.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = execute(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// writeScenario writes a scenario file into a temporary directory and
// returns its path.
func writeScenario(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func lines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// textEvent is an event line of the text format: time, P, M, kind, sentence.
type textEvent struct{ t, p, m, kind string }

// textEvents returns the event lines of a text trace, leaving out notes
// and the end line.
func textEvents(t *testing.T, out string) []textEvent {
	t.Helper()
	var evs []textEvent
	for _, l := range lines(out) {
		if strings.HasPrefix(l, "   note: ") || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		if len(f) < 5 || !strings.HasSuffix(f[0], "ms") {
			t.Fatalf("malformed event line %q", l)
		}
		evs = append(evs, textEvent{f[0], f[1], f[2], f[3]})
	}
	return evs
}

func TestRunText(t *testing.T) {
	code, out, errOut := cli(t, "run", "steal")
	if code != 0 || errOut != "" {
		t.Fatalf("run steal: exit %d, stderr %q", code, errOut)
	}
	evs := textEvents(t, out)
	if len(evs) < 2 || evs[0] != (textEvent{"0.000000ms", "P0", "M0", "go-start"}) ||
		evs[1] != (textEvent{"0.000150ms", "P0", "M0", "go-create"}) {
		t.Fatalf("first events %+v, want main starting on P0/M0 at 0ms, then its first go-create once execute's 150ns have passed", evs[:min(2, len(evs))])
	}
	count := map[string]int{}
	for _, e := range evs {
		count[e.kind]++
	}
	// steal.yaml: one go statement with count: 64 on two Ps.
	if count["go-create"] != 64 {
		t.Errorf("%d go-create events, want 64", count["go-create"])
	}
	for _, k := range []string{"steal", "go-start", "go-exit", "m-start"} {
		if count[k] == 0 {
			t.Errorf("no %s event in:\n%s", k, out)
		}
	}
	if !strings.Contains(out, "   note: Each go statement puts the new G in runnext") {
		t.Errorf("the scenario's first note is missing")
	}
	ls := lines(out)
	if last := ls[len(ls)-1]; !strings.HasPrefix(last, "# end: main returned at ") {
		t.Errorf("last line %q, want the end line", last)
	}
}

func TestRunFlagsChangeTheRun(t *testing.T) {
	code, out, errOut := cli(t, "run", "steal", "--procs", "1")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, e := range textEvents(t, out) {
		if e.kind == "steal" || e.p == "P1" {
			t.Fatalf("with --procs 1: %+v", e)
		}
	}
	if !strings.Contains(out, "# note on steal (builtin/steal.yaml:") || !strings.Contains(out, "was not reached") {
		t.Errorf("with --procs 1, the note on steal should be reported as not reached:\n%s", out)
	}

	code, out, _ = cli(t, "run", "steal", "--until", "1ms")
	ls := lines(out)
	if code != 0 || !strings.HasPrefix(ls[len(ls)-1], "# end: until reached at 1.000000ms") {
		t.Errorf("--until 1ms: exit %d, last line %q", code, ls[len(ls)-1])
	}
}

// --policy and --max-events reach the model, and so do the file's policy:
// and max_events:, which the flags override.
func TestPolicyAndEventLimit(t *testing.T) {
	steals := func(out string) int {
		n := 0
		for _, e := range textEvents(t, out) {
			if e.kind == "steal" {
				n++
			}
		}
		return n
	}
	_, out, _ := cli(t, "run", "steal")
	if steals(out) == 0 {
		t.Fatal("steal has no steal events under the default policy")
	}
	code, out, errOut := cli(t, "run", "steal", "--policy", "no-steal")
	if code != 0 || steals(out) != 0 {
		t.Errorf("--policy no-steal: exit %d (%s), %d steals", code, errOut, steals(out))
	}
	file := writeScenario(t, "p.yaml", "procs: 2\npolicy: no-steal\nmax_events: 40\nmain:\n  - go: {count: 64, do: [{cpu: 1ms}]}\n  - cpu: 20ms\n  - wait: children\n")
	code, out, errOut = cli(t, "run", file)
	if code != 1 || steals(out) != 0 || !strings.Contains(errOut, "stopped after 40 events") {
		t.Errorf("policy: no-steal and max_events: 40 in the file: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut = cli(t, "run", file, "--policy", "default", "--max-events", "150")
	if code != 1 || steals(out) == 0 || !strings.Contains(errOut+out, "stopped after 150 events") ||
		!strings.Contains(errOut+out, "--max-events") {
		t.Errorf("flags over the file: exit %d, %d steals\n%s%s", code, steals(out), out, errOut)
	}
}

// --cpus and --load reach the model, and so do the file's cpus: and
// load:, which the flags override: a thread that could run loses its CPU
// (cpu-off) and gets it back (cpu-on). Without them nothing is said of
// CPUs.
func TestCPUsAndLoad(t *testing.T) {
	cpuEvents := func(out string) int {
		n := 0
		for _, e := range textEvents(t, out) {
			if e.kind == "cpu-off" || e.kind == "cpu-on" {
				n++
			}
		}
		return n
	}
	if _, out, _ := cli(t, "run", "steal"); cpuEvents(out) != 0 {
		t.Fatal("steal says something of CPUs without --cpus or --load")
	}
	code, out, errOut := cli(t, "run", "steal", "--cpus", "1", "--load", "1")
	if code != 0 || cpuEvents(out) == 0 {
		t.Errorf("--cpus 1 --load 1: exit %d (%s), %d cpu events", code, errOut, cpuEvents(out))
	}
	file := writeScenario(t, "c.yaml", "procs: 2\ncpus: 1\nload: 1\nmain:\n  - go: {count: 64, do: [{cpu: 1ms}]}\n  - cpu: 20ms\n  - wait: children\n")
	if code, out, errOut = cli(t, "run", file); code != 0 || cpuEvents(out) == 0 {
		t.Errorf("cpus: 1 and load: 1 in the file: exit %d (%s), %d cpu events", code, errOut, cpuEvents(out))
	}
	// A CPU for each of the run's three threads (main's, sysmon, the
	// second P's) and no load: the flags override the file's one busy
	// CPU, and no thread waits for a CPU.
	if code, out, errOut = cli(t, "run", file, "--cpus", "3", "--load", "0"); code != 0 || cpuEvents(out) != 0 {
		t.Errorf("--cpus 3 --load 0 over the file, on 2 Ps: exit %d (%s), %d cpu events, want none", code, errOut, cpuEvents(out))
	}
}

// compare --policies runs any scenario under what-if schedulers, a column
// each, and list --policies and --facts say what there is.
func TestComparePoliciesCommand(t *testing.T) {
	code, out, errOut := cli(t, "compare", "steal", "--policies", "default,no-steal")
	if code != 0 || !strings.Contains(out, "what-if policies") {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	var header, steals, idle []string
	for _, l := range lines(out) {
		f := strings.Fields(l)
		switch {
		case len(f) == 2 && f[0] == "default":
			header = f
		case strings.HasPrefix(strings.TrimSpace(l), "steals (Gs stolen)"):
			steals = f
		case strings.HasPrefix(strings.TrimSpace(l), "P idle while Gs wait"):
			idle = f
		}
	}
	if header == nil || len(steals) != 7 || steals[5] != "0" || len(idle) != 7 || idle[5] != "0ns" || idle[6] == "0ns" {
		t.Errorf("columns %q, steals %q, idle %q\n%s", header, steals, idle, out)
	}
	if code, _, errOut := cli(t, "compare", "steal", "--policies", "default"); code != 2 || !strings.Contains(errOut, "name two or more") {
		t.Errorf("one policy: exit %d, %q", code, errOut)
	}
	if code, _, errOut := cli(t, "compare", "burst", "--policies", "default,no-steal", "--modes", "raw,pool"); code != 2 || !strings.Contains(errOut, "leave out --modes") {
		t.Errorf("--policies with --modes: exit %d, %q", code, errOut)
	}
	_, out, _ = cli(t, "list", "--policies")
	for _, name := range gmp.PolicyNames() {
		if !strings.Contains(out, "\n"+name+"\n") && !strings.HasPrefix(out, name+"\n") {
			t.Errorf("list --policies leaves out %s", name)
		}
	}
	if _, out, _ = cli(t, "list", "--facts"); !strings.Contains(out, "next-on: P") {
		t.Errorf("list --facts:\n%s", out)
	}
}

// A scenario named "-" is read from standard input and named <stdin> in
// messages; --version says what built the binary; unknown flags point at
// the right help; completion refuses a shell it has no script for; a file
// too large to be a scenario is refused before it is parsed.
func TestCLIEdges(t *testing.T) {
	old := stdin
	t.Cleanup(func() { stdin = old })
	stdin = strings.NewReader("procs: 1\nmain: [{cpu: 1ms}, {slep: 1ms}]\n")
	if code, _, errOut := cli(t, "check", "-"); code != 2 || !strings.Contains(errOut, `<stdin>:2:21: unknown action "slep"`) {
		t.Errorf("check -: exit %d, %q", code, errOut)
	}
	stdin = strings.NewReader("procs: 1\nmain: [{cpu: 1ms}]\n")
	if code, out, _ := cli(t, "run", "-"); code != 0 || !strings.Contains(out, "# end: main returned at 1.000150ms") {
		t.Errorf("run -: exit %d\n%s", code, out)
	}
	if code, out, _ := cli(t, "--version"); code != 0 || !strings.HasPrefix(out, "schedlab ") || !strings.Contains(out, "go1.") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	if _, _, errOut := cli(t, "--bogus"); !strings.Contains(errOut, "see: schedlab --help") {
		t.Errorf("unknown root flag: %q", errOut)
	}
	if _, _, errOut := cli(t, "compare", "burst", "--bogus"); !strings.Contains(errOut, "see: schedlab compare --help") {
		t.Errorf("unknown compare flag: %q", errOut)
	}
	if code, out, errOut := cli(t, "completion", "tcsh"); code != 2 || out != "" || !strings.Contains(errOut, `no completion for "tcsh": want one of bash, fish, powershell, zsh`) {
		t.Errorf("completion tcsh: exit %d, %q, %q", code, out, errOut)
	}
	if code, out, _ := cli(t, "completion", "bash"); code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d", code)
	}
	big := writeScenario(t, "big.yaml", "procs: 1\nmain: [{cpu: 1ms}]\n"+strings.Repeat("# padding\n", 120_000))
	if code, _, errOut := cli(t, "check", big); code != 2 || !strings.Contains(errOut, "larger than 1 MiB") {
		t.Errorf("a 5 MB file: exit %d, %q", code, errOut)
	}
	if code, out, _ := cli(t, "--help"); code != 0 || !strings.Contains(out, "Exit status: 0") {
		t.Errorf("--help does not document the exit status:\n%s", out)
	}
}

// export writes a trace that is JSON and a handout that is Markdown.
func TestExport(t *testing.T) {
	code, out, errOut := cli(t, "export", "steal", "--format", "perfetto", "--seed", "3")
	var recs []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &recs) != nil || len(recs) < 100 {
		t.Fatalf("export perfetto: exit %d, %s, %d records", code, errOut, len(recs))
	}
	code, out, _ = cli(t, "export", "tour", "--format", "md")
	if code != 0 || !strings.HasPrefix(out, "# A tour of the scheduler\n") || !strings.Contains(out, "## The end") {
		t.Errorf("export md: exit %d\n%s", code, out)
	}
	if code, _, errOut := cli(t, "export", "tour", "--format", "png"); code != 2 || !strings.Contains(errOut, `--format "png": use perfetto, md, svg, gotrace, cast or gif`) {
		t.Errorf("export png: exit %d, %q", code, errOut)
	}
	if code, _, errOut := cli(t, "export", "tour", "--format", "svg", "--from", "5ms", "--to", "2ms"); code != 2 || !strings.Contains(errOut, "want 0 <= from < to") {
		t.Errorf("export svg from after to: exit %d, %q", code, errOut)
	}
	if code, out, _ := cli(t, "export", "steal", "--format", "svg", "--to", "1ms", "--width", "800"); code != 0 || !strings.Contains(out, `width="800"`) {
		t.Errorf("export svg --width 800: exit %d", code)
	}
}

// export --trace exports a runtime trace in the three formats (a trace
// was read as a scenario and failed "not UTF-8 text"), and says so when a
// trace is given as a scenario; --vs FILE sets the model beside a real
// run of the same scenario.
func TestExportTrace(t *testing.T) {
	const trace, yaml = "../../view/export/testdata/small.trace", "../../view/export/testdata/small.yaml"
	dir := t.TempDir()
	for _, c := range []struct{ format, want string }{
		{"perfetto", `"name":"process_name","args":{"name":"real: small.trace"}`},
		{"svg", `<g class="lane" id="P1">`},
		{"md", "# Runtime trace small.trace\n"},
	} {
		out := filepath.Join(dir, "small."+c.format)
		code, _, errOut := cli(t, "export", "--trace", trace, "--scenario", "--format", c.format, "-o", out)
		data, err := os.ReadFile(out)
		if code != 0 || err != nil || !strings.Contains(string(data), c.want) {
			t.Errorf("--trace --format %s: exit %d, %s, %v; the file lacks %q", c.format, code, errOut, err, c.want)
		}
	}
	if md, _ := os.ReadFile(filepath.Join(dir, "small.md")); !strings.Contains(string(md), "](small.svg)") {
		t.Errorf("the trace's handout does not show its timeline:\n%s", md)
	}
	code, _, errOut := cli(t, "export", trace)
	if code != 2 || !strings.Contains(errOut, "is a runtime trace, not a scenario: export it with schedlab export --trace") {
		t.Errorf("a trace as a scenario: exit %d, %q", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "tour", "--trace", trace}, "exports a trace: leave out the scenario"},
		{[]string{"export", "--trace", trace, "--seed", "2"}, "--seed applies to the model only"},
		{[]string{"export", "--trace", trace, "--vs", "real"}, "leave out --trace"},
		{[]string{"export", "tour", "--scenario"}, "--scenario numbers a trace's goroutines"},
		{[]string{"export", yaml, "--vs", trace, "--format", "md"}, "--vs makes a Perfetto file or a timeline"},
		{[]string{"export", yaml, "--vs", "nosuch.trace"}, "--vs: open nosuch.trace"},
		{[]string{"export", "--trace", "nosuch.trace"}, "cannot read the trace"},
	} {
		if code, _, errOut := cli(t, c.args...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want %q", c.args, code, errOut, c.want)
		}
	}
	code, out, errOut := cli(t, "export", yaml, "--vs", trace, "--format", "svg")
	if code != 0 || !strings.Contains(out, `<text class="group"`) || strings.Count(out, `class="lane"`) != 4 {
		t.Errorf("--vs FILE --format svg: exit %d, %s", code, errOut)
	}
	code, out, errOut = cli(t, "export", yaml, "--vs", trace)
	if code != 0 || !strings.Contains(out, `"name":"schedlab model: small"`) || !strings.Contains(out, `"name":"real: small.trace"`) {
		t.Errorf("--vs FILE --format perfetto: exit %d, %s", code, errOut)
	}
}

// export --format gotrace writes a Go execution trace of the model's run,
// which schedlab trace reads back as a real program's.
func TestExportGoTrace(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tour.trace")
	if code, _, errOut := cli(t, "export", "tour", "--format", "gotrace", "-o", file); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := cli(t, "trace", file, "--format", "text")
	if code != 0 || !strings.Contains(out, "G1 creates G2") || !strings.Contains(out, "scheduler events over 30.172500ms; 8 goroutines created; 2 Ps, 5 threads") {
		t.Errorf("schedlab trace of the model's trace: exit %d, %s\n%s", code, errOut, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--trace", file, "--format", "gotrace"}, "is a runtime trace already"},
		{[]string{"export", "tour", "--vs", file, "--format", "gotrace"}, "--vs makes a Perfetto file or a timeline"},
	} {
		if code, _, errOut := cli(t, c.args...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q", c.args, code, errOut)
		}
	}
}

// export --format md -o NAME.md writes the timeline beside the handout,
// as NAME.svg, and shows it; on stdout the handout says how to draw it.
func TestExportHandoutWithTimeline(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "tour.md")
	if code, _, errOut := cli(t, "export", "tour", "--format", "md", "-o", md); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	page, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(page), "\n![The run as a timeline: a lane per P, a bar per goroutine run](tour.svg)\n") ||
		!strings.Contains(string(page), "| G2–G7 | G1 (main), line 7 | cpu 3ms; send results |") {
		t.Errorf("the handout does not show its timeline or its table (%v):\n%s", err, page)
	}
	if svg, err := os.ReadFile(filepath.Join(dir, "tour.svg")); err != nil || !strings.HasPrefix(string(svg), "<svg ") || !strings.HasSuffix(string(svg), "</svg>\n") {
		t.Errorf("no timeline beside the handout: %v", err)
	}
	_, out, _ := cli(t, "export", "tour", "--format", "md")
	if !strings.Contains(out, "Draw its timeline with `schedlab export tour --format svg -o tour.svg`.") {
		t.Errorf("the handout on stdout does not say how to draw its timeline")
	}
}

// export --format svg --ps and --fit choose the Ps and the image's shape;
// a mistake in either is a usage error that leaves no file behind.
func TestExportSVGForSlides(t *testing.T) {
	code, out, errOut := cli(t, "export", "steal", "--format", "svg", "--ps", "1", "--fit", "16:9")
	if code != 0 || !strings.Contains(out, `width="1280" height="720"`) || strings.Count(out, `class="lane"`) != 1 || !strings.Contains(out, `id="P1"`) {
		t.Errorf("--ps 1 --fit 16:9: exit %d, %s", code, errOut)
	}
	dir := t.TempDir()
	for _, c := range []struct{ flag, value, want string }{
		{"--ps", "2", `--ps "2": the run has Ps 0 to 1`},
		{"--ps", "0,0", `--ps "0,0": P0 twice`},
		{"--ps", "1-0", `want Ps such as 0-7`},
		{"--ps", "x", `want Ps such as 0-7`},
		{"--fit", "16x9", `--fit "16x9": want a shape such as 16:9`},
		{"--fit", "0:9", `want a shape`},
	} {
		file := filepath.Join(dir, "out.svg")
		code, _, errOut := cli(t, "export", "steal", "--format", "svg", c.flag, c.value, "-o", file)
		if _, err := os.Stat(file); code != 2 || !strings.Contains(errOut, c.want) || err == nil {
			t.Errorf("%s %s: exit %d, %q, file made: %v", c.flag, c.value, code, errOut, err == nil)
		}
	}
	if code, _, errOut := cli(t, "export", "steal", "--format", "svg", "-o", filepath.Join(dir, "no", "such", "dir.svg")); code != 2 || !strings.Contains(errOut, "-o: open") {
		t.Errorf("-o into a missing folder: exit %d, %q", code, errOut)
	}
}

// trace reads a real runtime trace, in text and as JSON lines, and says
// so when a file is not one.
func TestTraceCommand(t *testing.T) {
	var buf bytes.Buffer
	if err := rtrace.Start(&buf); err != nil {
		t.Skipf("cannot trace here: %v", err)
	}
	done := make(chan bool)
	go func() { done <- true }()
	<-done
	rtrace.Stop()
	file := filepath.Join(t.TempDir(), "x.trace")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "trace", file)
	if code != 0 || !strings.Contains(out, "go-create") || !strings.Contains(out, "scheduler events over") {
		t.Fatalf("trace: exit %d, %s\n%s", code, errOut, out)
	}
	_, out, _ = cli(t, "trace", file, "--format", "jsonl")
	for _, l := range lines(out) {
		if !json.Valid([]byte(l)) {
			t.Fatalf("not JSON: %q", l)
		}
	}
	notATrace := writeScenario(t, "s.yaml", "procs: 1\nmain: [{cpu: 1ms}]\n")
	if code, _, errOut := cli(t, "trace", notATrace); code != 2 || !strings.Contains(errOut, "not a Go runtime trace") {
		t.Errorf("a scenario read as a trace: exit %d, %q", code, errOut)
	}
}

// --format none prints only how the run ended.
func TestFormatNone(t *testing.T) {
	code, out, _ := cli(t, "run", "steal", "--format", "none")
	if code != 0 || out != "# end: main returned at 42.919950ms after 203 events; 65 goroutines created, 3 threads; Ps idle 0s while goroutines waited\n" {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// check settles a scenario's questions and fails on one the run cannot
// answer.
func TestCheckQuestions(t *testing.T) {
	code, out, _ := cli(t, "check", "tour")
	if code != 0 || !strings.Contains(out, "3 questions answered by the run") {
		t.Errorf("check tour: exit %d\n%s", code, out)
	}
	file := writeScenario(t, "q.yaml", "procs: 1\nmain:\n  - go: {count: 3, do: [{cpu: 1ms}]}\n  - sleep: 1ms\nask:\n  - on: go-block\n    answer: {next-on: P0}\n    choices: [G2, G3]\n")
	code, _, errOut := cli(t, "check", file)
	if code != 1 || !strings.Contains(errOut, file+`:6:5: the run answers "G4", which is not among the choices (G2, G3)`) {
		t.Errorf("check with a wrong set of choices: exit %d, stderr %q", code, errOut)
	}
}

// check allows a question whose answer is forced, with a warning on
// stderr naming its file:line:col, and exits 0.
func TestCheckForcedQuestionWarns(t *testing.T) {
	file := writeScenario(t, "q.yaml", "procs: 1\nmain:\n  - go: {do: [{cpu: 1ms}]}\n  - sleep: 1ms\nask:\n  - on: go-block\n    answer: {next-on: P0}\n")
	code, out, errOut := cli(t, "check", file)
	if code != 0 || !strings.Contains(out, "1 question answered") ||
		!strings.Contains(errOut, file+`:6:5: warning: the answer is forced: the run offers no choice but "G2"`) {
		t.Errorf("check with a forced answer: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestRunJSONL(t *testing.T) {
	code, out, errOut := cli(t, "run", "steal", "--format", "jsonl")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	type event struct {
		kind    string
		g, p, m bool
		fields  map[string]any
	}
	var evs []event
	lastT := -1.0
	seen := map[string]bool{}
	for i, l := range lines(out) {
		var obj map[string]any
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			t.Fatalf("line %d is not a JSON object: %q: %v", i+1, l, err)
		}
		tm, ok := obj["t"].(float64)
		if !ok || tm != float64(int64(tm)) || tm < lastT {
			t.Errorf("line %d: t = %v (after %v), want a non-decreasing whole number", i+1, obj["t"], lastT)
		}
		lastT = tm
		kind, _ := obj["kind"].(string)
		if kind == "end" {
			// The last record: how the run ended.
			if i != len(lines(out))-1 || obj["reason"] != "main returned" || obj["as_expected"] != true || obj["events"] != float64(203) {
				t.Errorf("line %d: end record %q", i+1, l)
			}
			seen[kind] = true
			continue
		}
		why, _ := obj["why"].(string)
		if kind == "" || why == "" {
			t.Errorf("line %d lacks kind or why: %q", i+1, l)
		}
		_, g := obj["g"]
		_, p := obj["p"]
		_, m := obj["m"]
		seen[kind] = true
		switch kind {
		case "note":
			if g || p || m {
				t.Errorf("line %d: a note has g, p or m: %q", i+1, l)
			}
			continue
		case "go-start":
			if !g || !p || !m {
				t.Errorf("line %d: go-start without g, p and m: %q", i+1, l)
			}
		case "m-park":
			if !m || p || g {
				t.Errorf("line %d: m-park must have m and neither p nor g: %q", i+1, l)
			}
		case "go-create":
			if src, _ := obj["src"].(string); src != "builtin/steal.yaml:7:5" {
				t.Errorf("line %d: go-create src = %q, want the go action's position builtin/steal.yaml:7:5", i+1, src)
			}
		}
		if _, ok := gmp.ParseKind(kind); !ok {
			t.Errorf("line %d: unknown kind %q", i+1, kind)
		}
		evs = append(evs, event{kind, g, p, m, obj})
	}
	for _, k := range []string{"go-start", "m-park", "steal", "go-create", "note", "end"} {
		if !seen[k] {
			t.Errorf("no %s line", k)
		}
	}

	// The text trace shows the same events; its P and M columns are "-"
	// exactly when the JSON leaves p and m out.
	_, text, _ := cli(t, "run", "steal")
	tevs := textEvents(t, text)
	if len(tevs) != len(evs) {
		t.Fatalf("%d events in text, %d in jsonl", len(tevs), len(evs))
	}
	for i, te := range tevs {
		je := evs[i]
		if te.kind != je.kind {
			t.Fatalf("event %d: text kind %s, jsonl kind %s", i, te.kind, je.kind)
		}
		wantP, wantM := "-", "-"
		if je.p {
			wantP = "P" + strconv.Itoa(int(je.fields["p"].(float64)))
		}
		if je.m {
			wantM = "M" + strconv.Itoa(int(je.fields["m"].(float64)))
		}
		if te.p != wantP || te.m != wantM {
			t.Errorf("event %d (%s): text columns %s %s, jsonl says %s %s", i, te.kind, te.p, te.m, wantP, wantM)
		}
	}
}

const randomScenario = `procs: 2
main:
  - go:
      count: 8
      do:
        - cpu: {uniform: [1ms, 3ms]}
        - sleep: {exp: 1ms}
        - cpu: {uniform: [100us, 2ms]}
  - wait: children
`

func TestRunDeterministic(t *testing.T) {
	path := writeScenario(t, "random.yaml", randomScenario)
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := cli(t, append([]string{"run", path, "--format", "jsonl"}, args...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("run %v: exit %d, stderr %q", args, code, errOut)
		}
		return out
	}
	a, b := run(), run()
	if a != b {
		t.Errorf("two runs with the same seed differ")
	}
	if run("--seed", "1") != a {
		t.Errorf("--seed 1 differs from the scenario's default seed 1")
	}
	s2 := run("--seed", "2")
	if s2 == a {
		t.Errorf("--seed 2 gives the same trace as seed 1")
	}
	if run("--seed", "2") != s2 {
		t.Errorf("two runs with --seed 2 differ")
	}

	// The same holds for a built-in in text form.
	_, x, _ := cli(t, "run", "preempt")
	_, y, _ := cli(t, "run", "preempt")
	if x != y || x == "" {
		t.Errorf("run preempt is not deterministic")
	}
}

var schedLine = regexp.MustCompile(`^SCHED (\d+)ms: gomaxprocs=1 idleprocs=\d+ threads=\d+ spinningthreads=\d+ needspinning=\d idlethreads=\d+ runqueue=\d+ \[ \d+ \] schedticks=\[ \d+ \]$`)

func TestSchedtrace(t *testing.T) {
	code, out, errOut := cli(t, "run", "overflow", "--schedtrace", "1ms", "--quiet")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	n := 0
	for _, l := range lines(out) {
		if strings.HasPrefix(l, "   note: ") {
			continue // see TestSchedtraceQuietPrintsOnlySchedtrace
		}
		m := schedLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("line %q is not in the schedtrace format", l)
			continue
		}
		if m[1] != strconv.Itoa(n) {
			t.Errorf("schedtrace line %d is at %sms, want %dms (one per 1ms period)", n, m[1], n)
		}
		n++
	}
	if n < 2 {
		t.Errorf("%d schedtrace lines, want at least 2:\n%s", n, out)
	}
}

func TestSchedtraceQuietPrintsOnlySchedtrace(t *testing.T) {
	_, out, _ := cli(t, "run", "overflow", "--schedtrace", "1ms", "--quiet")
	for _, l := range lines(out) {
		if !schedLine.MatchString(l) {
			t.Errorf("line %q is not a schedtrace line", l)
		}
	}
}

func TestList(t *testing.T) {
	code, out, errOut := cli(t, "list")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	ls := lines(out)
	if len(ls) != len(scenarios.Order)+1 {
		t.Fatalf("%d lines, want a header and %d scenarios:\n%s", len(ls), len(scenarios.Order), out)
	}
	if f := strings.Fields(ls[0]); strings.Join(f, " ") != "NAME PROCS SUMMARY" {
		t.Errorf("header %q", ls[0])
	}
	for i, name := range scenarios.Order {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(ls[i+1])
		if len(f) < 3 || f[0] != name || f[1] != strconv.Itoa(sc.Procs) || !strings.HasSuffix(ls[i+1], sc.Summary) {
			t.Errorf("line %d = %q, want %s, %d and its summary", i+1, ls[i+1], name, sc.Procs)
		}
	}
}

const (
	okScenario = "procs: 1\nmain:\n  - cpu: 1ms\n"
	// main receives on an unbuffered channel nobody sends to (line 5).
	deadScenario = "procs: 1\nchans: {c: 0}\nmain:\n  - cpu: 1ms\n  - recv: c\n"
	// main closes c twice; the second close (line 6) panics.
	panicScenario = "procs: 1\nchans: {c: 0}\nmain:\n  - close: c\n  - cpu: 1ms\n  - close: c\n"
	// a YAML syntax error at line 3, column 10.
	yamlMistake = "procs: 1\nmain:\n  - cpu: [1ms\n"
)

func TestCheck(t *testing.T) {
	okPath := writeScenario(t, "ok.yaml", okScenario)
	deadPath := writeScenario(t, "dead.yaml", deadScenario)
	badPath := writeScenario(t, "bad.yaml", yamlMistake)

	t.Run("valid", func(t *testing.T) {
		code, out, errOut := cli(t, "check", okPath)
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if want := okPath + ": ok (main returned at 1.000150ms"; !strings.HasPrefix(out, want) {
			t.Errorf("stdout %q, want it to start with %q", out, want)
		}
	})
	t.Run("built-in name", func(t *testing.T) {
		code, out, _ := cli(t, "check", "steal")
		if code != 0 || !strings.HasPrefix(out, "builtin/steal.yaml: ok (") {
			t.Errorf("exit %d, stdout %q", code, out)
		}
	})
	t.Run("deadlock", func(t *testing.T) {
		code, out, errOut := cli(t, "check", deadPath)
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		if !strings.Contains(errOut, deadPath+":5:5: ") || !strings.Contains(errOut, "deadlock") {
			t.Errorf("stderr %q, want %s:5:5: and deadlock", errOut, deadPath)
		}
		if out != "" {
			t.Errorf("stdout %q, want nothing", out)
		}
	})
	t.Run("yaml mistake", func(t *testing.T) {
		code, out, errOut := cli(t, "check", badPath)
		if code != 2 {
			t.Errorf("exit %d, want 2", code)
		}
		if !strings.Contains(errOut, badPath+":3:10: YAML syntax") {
			t.Errorf("stderr %q, want %s:3:10: YAML syntax", errOut, badPath)
		}
		if out != "" {
			t.Errorf("stdout %q, want nothing", out)
		}
	})
	t.Run("ok and deadlock", func(t *testing.T) {
		code, out, errOut := cli(t, "check", okPath, deadPath)
		if code != 1 || !strings.HasPrefix(out, okPath+": ok") || strings.Contains(out, deadPath) ||
			!strings.Contains(errOut, deadPath+":5:5: ") {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
	t.Run("every file is reported", func(t *testing.T) {
		code, _, errOut := cli(t, "check", deadPath, badPath)
		if code != 2 || !strings.Contains(errOut, deadPath+":5:5: ") || !strings.Contains(errOut, badPath+":3:10: ") {
			t.Errorf("exit %d, stderr %q; want 2 and both files' errors", code, errOut)
		}
	})
}

func TestRunFailures(t *testing.T) {
	t.Run("panic", func(t *testing.T) {
		path := writeScenario(t, "panic.yaml", panicScenario)
		for _, cmd := range []string{"run", "check"} {
			code, out, errOut := cli(t, cmd, path)
			if code != 1 {
				t.Errorf("%s: exit %d, want 1", cmd, code)
			}
			if !strings.Contains(errOut, path+":6:5: ") || !strings.Contains(errOut, "close of closed channel") {
				t.Errorf("%s: stderr %q, want %s:6:5: and close of closed channel", cmd, errOut, path)
			}
			if cmd == "run" && !strings.Contains(out, "# end: panic at ") {
				t.Errorf("run: the trace does not end with the panic:\n%s", out)
			}
		}
	})
	t.Run("deadlock", func(t *testing.T) {
		path := writeScenario(t, "dead.yaml", deadScenario)
		code, out, errOut := cli(t, "run", path)
		if code != 1 || !strings.Contains(errOut, path+":5:5: ") || !strings.Contains(out, "# end: deadlock at ") {
			t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
		}
	})
}

func TestUsageErrors(t *testing.T) {
	bad := writeScenario(t, "bad.yaml", yamlMistake)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "steal", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"run", "steal", "--format", "xml"}, `unknown format "xml": use text, jsonl or none`},
		{[]string{"run", "steal", "--procs", "-1"}, "--procs -1: want 1 to 1024"},
		{[]string{"run", "steal", "--procs", "2000"}, "--procs 2000: want 1 to 1024"},
		{[]string{"run", "steal", "--procs", "two"}, `invalid argument "two"`},
		{[]string{"run", "steal", "--seed", "x"}, `--seed "x"`},
		{[]string{"run", "steal", "--seed", "-1"}, `--seed "-1"`},
		{[]string{"run", "steal", "--until", "-1ms"}, "--until -1ms: want a positive duration"},
		{[]string{"run", "steal", "--until", "0s"}, "--until 0s: want a positive duration"},
		{[]string{"run", "steal", "--schedtrace", "-1ms"}, "--schedtrace -1ms: want a positive period"},
		{[]string{"run", "steal", "--max-events", "0"}, "--max-events 0: want 1 to 1000000000"},
		{[]string{"run", "steal", "--cpus", "0"}, "--cpus 0: want 1 to 1024"},
		{[]string{"run", "steal", "--load", "-1"}, "--load -1: want 0 to 1024 busy threads"},
		{[]string{"real", "steal", "--cpus", "1"}, "--cpus applies to the model only"},
		{[]string{"run", "steal", "--policy", "no-stael"}, `--policy: unknown policy "no-stael": want one of default, no-runnext, no-steal`},
		{[]string{"compare", "burst", "--policy", "fast"}, `unknown policy "fast"`},
		{[]string{"check", "steal", "--procs", "0"}, "--procs 0: want 1 to 1024"},
		{[]string{"bench", "--tasks", "1000000", "--shape", "sleep", "--task-time", "2s", "--concurrency", "1000"}, "this bench would take at least 5h0m6s"},
		{[]string{"tui", "steal", "--split", "default,nope"}, "want two modes (raw, pool, semaphore, errgroup) or two policies"},
		{[]string{"tui", "steal", "--quiz", "--split", "default,no-steal"}, "--quiz asks about one run"},
		{[]string{"tui", "steal", "--split", "default,no-steal", "--policy", "no-preempt"}, "leave out --policy"},
		{[]string{"run", "steal", "--quiet"}, "needs --schedtrace"},
		{[]string{"run", "steal", "--scheddetail"}, "needs --schedtrace"},
		{[]string{"run"}, "run needs a scenario name or file"},
		{[]string{"run", "steal", "overflow"}, "run takes one argument"},
		{[]string{"run", "nosuch"}, `no built-in scenario or file named "nosuch"`},
		{[]string{"run", "missing.yaml"}, "cannot read scenario file"},
		{[]string{"run", bad}, bad + ":3:10: YAML syntax"},
		{[]string{"check"}, "check needs at least one scenario file"},
		{[]string{"check", "nosuch.yaml"}, "nosuch.yaml"},
		{[]string{"nosuchcommand"}, "unknown command"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.HasPrefix(errOut, "schedlab: ") || !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q, want a message containing %q", errOut, tc.want)
			}
		})
	}
}

// Completion offers what the command then accepts: compare's scenarios
// are those that submit tasks (any, with --policies), and --split offers
// every pair of modes and the policies against the runtime's rules.
func TestCompletion(t *testing.T) {
	complete := func(args ...string) []string {
		_, out, _ := cli(t, append([]string{"__complete"}, args...)...)
		var got []string
		for _, l := range lines(out) {
			if !strings.HasPrefix(l, ":") && l != "" {
				got = append(got, l)
			}
		}
		return got
	}
	got := complete("compare", "")
	if strings.Join(got, " ") != "burst burst-queue purge purge-coarse nested-submit nested-nonblocking" {
		t.Errorf("compare completes %q", got)
	}
	for _, name := range got {
		if code, _, errOut := cli(t, "compare", name, "--modes", "raw,pool"); code == 2 {
			t.Errorf("compare completes %s but refuses it: %s", name, errOut)
		}
	}
	if got := complete("compare", "--policies", "default,no-steal", ""); len(got) != len(scenarios.BuiltinNames()) {
		t.Errorf("compare --policies completes %d scenarios", len(got))
	}
	split := strings.Join(complete("tui", "steal", "--split", ""), " ")
	for _, want := range []string{"raw,pool", "raw,semaphore", "semaphore,errgroup", "pool,errgroup", "default,no-steal", "default,global-fifo"} {
		if !strings.Contains(split, want) {
			t.Errorf("--split completion lacks %s: %s", want, split)
		}
	}
}

// --max-events N ends a run with N events, the last the one that says it
// stops, and stdout's end line, stderr's message and the JSON end record
// all give that one number.
func TestMaxEventsOneNumber(t *testing.T) {
	for _, n := range []string{"5", "40"} {
		code, out, errOut := cli(t, "run", "steal", "--max-events", n)
		events := len(textEvents(t, out))
		if code != 1 || strconv.Itoa(events) != n {
			t.Errorf("--max-events %s: exit %d, %d events printed", n, code, events)
		}
		if want := "after " + n + " events"; !strings.Contains(out, "# end: event limit at") || !strings.Contains(out, want) {
			t.Errorf("--max-events %s: stdout's end line does not say %q:\n%s", n, want, out)
		}
		if want := "stopped after " + n + " events"; !strings.Contains(errOut, want) {
			t.Errorf("--max-events %s: stderr does not say %q: %s", n, want, errOut)
		}
		_, out, _ = cli(t, "run", "steal", "--max-events", n, "--format", "jsonl")
		if want := `"events":` + n + `,`; !strings.Contains(out, want) || !strings.Contains(out, "stopped after "+n+" events") {
			t.Errorf("--max-events %s: the JSON end record lacks %s:\n%s", n, want, out[max(len(out)-400, 0):])
		}
	}
}

// --version names the module's version and the commit the build recorded,
// and says "devel" and that no commit was recorded when there is none.
func TestVersionFromBuildInfo(t *testing.T) {
	platform := ", " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	for _, c := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{nil, "schedlab devel (no commit recorded: go run and go test record none)" + platform},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "schedlab devel (no commit recorded: go run and go test record none)" + platform},
		{&debug.BuildInfo{GoVersion: runtime.Version(), Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "183c99d1e0a4c2b9f00d"}, {Key: "vcs.time", Value: "2026-11-20T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"schedlab devel (commit 183c99d1e0a4, 2026-11-20T10:00:00Z, modified)" + platform},
		{&debug.BuildInfo{GoVersion: runtime.Version(), Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "183c99d1e0a4c2b9f00d"}}},
			"schedlab v1.2.0 (commit 183c99d1e0a4)" + platform},
	} {
		if got := versionFrom(c.bi, c.bi != nil); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
	if code, out, _ := cli(t, "--version"); code != 0 || out != version()+"\n" {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// Without a Go toolchain, export --vs real says that it needs one, as
// real and verify do; everything else export does needs none.
func TestExportVsRealWithoutGoSaysSo(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, _, errOut := cli(t, "export", "steal", "--vs", "real")
	if code != exitRun || !strings.Contains(errOut, "the go command is not on PATH") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := cli(t, "verify", "steal"); code != exitRun || !strings.Contains(errOut, "the go command is not on PATH") {
		t.Errorf("verify: exit %d, stderr %q", code, errOut)
	}
	if code, out, errOut := cli(t, "export", "steal", "--format", "svg"); code != 0 || !strings.HasPrefix(out, "<svg ") {
		t.Errorf("export svg without Go: exit %d, %s", code, errOut)
	}
}

// check says where a note or a question may not land on what it names,
// and still passes the file (issue 26: a student's scenario whose point
// never happened passed with a bare "ok").
func TestCheckWarnsOfNotesThatMissTheirPoint(t *testing.T) {
	file := writeScenario(t, "student.yaml", "procs: 1\nmain:\n  - go: {do: [{cpu: 1ms}]}\n  - wait: children\nnotes:\n  - on: go-start\n    text: G3, made last, runs first.\n")
	code, out, errOut := cli(t, "check", file)
	if code != 0 || errOut != "" {
		t.Fatalf("check: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, ": ok (") || !strings.Contains(out, "1 warning") || !strings.Contains(out, "student.yaml:6:5: warning: the note names G3") {
		t.Errorf("check says:\n%s", out)
	}
	if code, out, _ := cli(t, "check", "tour", "steal"); code != 0 || strings.Contains(out, "warning") {
		t.Errorf("check on built-ins warns: %d\n%s", code, out)
	}
}

// export --format cast and gif write a recording: an asciicast v2 header
// line, and a GIF; a size the UI cannot draw is refused.
func TestExportRecordings(t *testing.T) {
	code, out, errOut := cli(t, "export", "runnext", "--format", "cast", "--size", "80x24")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, `{"env":{"TERM":"xterm-256color"},"height":24,`) || !strings.Contains(out, `"version":2`) {
		t.Fatalf("cast: exit %d, stderr %q, %.120q", code, errOut, out)
	}
	file := filepath.Join(t.TempDir(), "r.gif")
	if code, _, errOut := cli(t, "export", "runnext", "--format", "gif", "--theme", "light", "-o", file); code != 0 {
		t.Fatalf("gif: exit %d, %s", code, errOut)
	}
	if data, err := os.ReadFile(file); err != nil || !bytes.HasPrefix(data, []byte("GIF89a")) {
		t.Fatalf("gif file: %v, %.8q", err, data)
	}
	for _, args := range [][]string{{"--format", "cast", "--size", "10x5"}, {"--format", "gif", "--size", "big"}, {"--format", "cast", "--theme", "neon"}} {
		if code, _, _ := cli(t, append([]string{"export", "runnext"}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// trace --scenario's summary says how long before its scenario a real
// program's main made runtime/trace.Start's first go statement (a traced
// run of steal's program, kept for rtrace's tests); without --scenario
// there is no scenario to say it of.
func TestTraceSaysWhenTheTracerWokeAThread(t *testing.T) {
	file := filepath.Join("..", "..", "real", "rtrace", "testdata", "cputime-steal.trace")
	const want = "# main began the scenario 0.027136ms after runtime/trace.Start's first go statement"
	code, out, errOut := cli(t, "trace", file, "--scenario", "--format", "none")
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("trace --scenario: exit %d, %s; want %q in\n%s", code, errOut, want, out)
	}
	if code, out, _ = cli(t, "trace", file, "--format", "none"); code != 0 || strings.Contains(out, "began the scenario") {
		t.Errorf("trace without --scenario: exit %d, and\n%s", code, out)
	}
}
