package quiz_test

import (
	"os"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/teach/quiz"
)

// ran-before counts the other goroutines that start between a goroutine
// stopping and its next start: main yields on one P, and the three it
// started (runnext's, then the ring's) all run before the global queue
// gives main back.
func TestRanBefore(t *testing.T) {
	qs, err := settle(t, `
procs: 1
main:
  - go: {count: 3, do: [{cpu: 1ms}]}
  - gosched
  - cpu: 1ms
ask:
  - on: {kind: go-stop, g: G1}
    answer: {ran-before: G1}
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 1 || qs[0].Correct() != "3" {
		t.Fatalf("questions %+v, want one answered 3", qs)
	}
	if !strings.Contains(qs[0].Why[0], "G1") {
		t.Errorf("worked answer %q is not G1's start", qs[0].Why)
	}
}

// late answers with the duration the describer's sentence prints: a
// sleeping main whose P is held by a busy goroutine wakes late.
func TestLate(t *testing.T) {
	qs, err := settle(t, `
procs: 1
main:
  - go: {do: [{cpu: 30ms}]}
  - sleep: 1ms
ask:
  - at: 0s
    answer: {late: G1}
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 1 {
		t.Fatalf("%d questions", len(qs))
	}
	a := qs[0].Correct()
	if a == "0s" || !strings.Contains(qs[0].Why[0], "fires "+a+" late") {
		t.Errorf("answer %q, worked answer %q: want the lateness the sentence prints, not 0s", a, qs[0].Why)
	}
}

// running is the pool's Running() at the moment asked, idle workers
// included: three tasks of 1ms start three workers, all idle by 10ms.
func TestRunning(t *testing.T) {
	qs, err := settle(t, `
procs: 1
pools: {w: {size: 8}}
main:
  - submit: {pool: w, count: 3, do: [{cpu: 1ms}]}
  - sleep: 10ms
ask:
  - at: 10ms
    answer: {running: w}
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 1 || qs[0].Correct() != "3" {
		t.Fatalf("questions %+v, want one answered 3", qs)
	}
}

// docs/scenarios.md names every fact an ask: can use.
func TestDocListsFacts(t *testing.T) {
	doc, err := os.ReadFile("../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range quiz.FactNames() {
		name, _, _ := strings.Cut(f, ":")
		if !strings.Contains(string(doc), " "+name+": ") {
			t.Errorf("docs/scenarios.md does not list the fact %s", name)
		}
	}
}

// A question whose answer is forced is allowed with a warning naming its
// line: one the run gives no other choice (one goroutine waits to run),
// and one the run decides before it is asked (the first line printed
// before the question's moment).
func TestForcedAsksWarn(t *testing.T) {
	for _, c := range []struct{ name, src, answer, warn string }{
		{"one choice", `
procs: 1
main:
  - go: {do: [{cpu: 1ms}]}
  - sleep: 1ms
ask:
  - on: go-block
    answer: {next-on: P0}
`, "G2", `q.yaml:7:5: warning: the answer is forced: the run offers no choice but "G2"`},
		{"decided before", `
procs: 1
main:
  - print: a
  - print: b
  - sleep: 1ms
ask:
  - on: go-block
    answer: {printed: 1}
`, "a", "q.yaml:8:5: warning: the answer is decided before the question is asked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc, err := scenarios.Parse("q.yaml", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			qs, warns, err := quiz.SettleWarn(sc.Config(), sc.Program(), sc.Asks)
			if err != nil {
				t.Fatal(err)
			}
			if len(qs) != 1 || qs[0].Correct() != c.answer {
				t.Fatalf("questions %+v, want one answered %q", qs, c.answer)
			}
			if len(warns) != 1 || !strings.HasPrefix(warns[0], c.warn) {
				t.Errorf("warnings %q, want %s", warns, c.warn)
			}
		})
	}
}
