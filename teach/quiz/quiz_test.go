package quiz_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/teach/quiz"
)

// settle parses src and settles its questions under its own config.
func settle(t *testing.T, src string) ([]quiz.Question, error) {
	t.Helper()
	sc, err := scenarios.Parse("q.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return quiz.Settle(sc.Config(), sc.Program(), sc.Asks)
}

// events runs src and returns its events.
func events(t *testing.T, src string) ([]gmp.Event, *scenarios.Scenario) {
	t.Helper()
	sc, err := scenarios.Parse("q.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var out []gmp.Event
	m.SetSink(func(e gmp.Event) { out = append(out, e) })
	m.Run()
	return out, sc
}

// Each fact is answered by what the runtime's rules make happen.
func TestFactsFollowTheRules(t *testing.T) {
	for _, c := range []struct {
		name, src, answer string
	}{
		{"runnext runs first", `
procs: 1
main:
  - go: {count: 3, do: [{cpu: 1ms}]}
  - sleep: 1ms
ask:
  - on: go-block
    answer: {next-on: P0}
`, "G4"},
		{"a new G goes into runnext", `
procs: 1
main:
  - go: {count: 3, do: [{cpu: 1ms}]}
  - sleep: 1ms
ask:
  - at: 0s
    answer: {where: G3}
`, "P0's runnext"},
		{"the G kicked out of runnext goes to the ring's tail", `
procs: 1
main:
  - go: {count: 3, do: [{cpu: 1ms}]}
  - sleep: 1ms
ask:
  - at: 0.001ms
    answer: {where: G2}
`, "P0's ring"},
		{"a yielding G goes to the global queue", `
procs: 1
main:
  - go: {count: 1, do: [gosched, {cpu: 1ms}]}
  - wait: children
ask:
  - on: go-stop
    question: Where does G2 go when it calls runtime.Gosched?
    answer: {where: G2}
    choices: [P0's runnext, P0's ring, the global queue]
`, "the global queue"},
		{"a thief takes half, rounded up", `
procs: 2
main:
  - go: {count: 64, do: [{cpu: 1ms}]}
  - cpu: 20ms
  - wait: children
ask:
  - on: steal
    answer: {steals: P1}
`, "half"},
		{"a long computation is preempted", `
procs: 1
main:
  - go: {count: 1, do: [{cpu: 30ms}]}
  - go: {count: 1, do: [{cpu: 1ms}]}
  - wait: children
ask:
  - at: 0s
    answer: {stops: G2}
`, "sysmon preempts it"},
		{"gosched yields", `
procs: 1
main:
  - go: {count: 1, do: [gosched, {cpu: 1ms}]}
  - wait: children
ask:
  - at: 0s
    answer: {stops: G2}
`, "it yields (runtime.Gosched)"},
		{"the pool reuses the most recently idle worker", `
procs: 2
pools: {w: {size: 4}}
main:
  - submit: {pool: w, count: 4, do: [{cpu: 1ms}]}
  - sleep: 5ms
  - submit: {pool: w, count: 1, do: [{cpu: 1ms}]}
  - wait: children
ask:
  - at: 4ms
    answer: {worker: w}
`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			qs, err := settle(t, c.src)
			if err != nil {
				t.Fatal(err)
			}
			if len(qs) != 1 {
				t.Fatalf("%d questions, want 1", len(qs))
			}
			q := qs[0]
			if err := q.Valid(); err != nil {
				t.Fatal(err)
			}
			want := c.answer
			if want == "half" {
				// Half of the victim's ring, rounded up.
				evs, _ := events(t, c.src)
				e := evs[q.Event]
				want = fmt.Sprint((e.Stolen() + e.Left() + 1) / 2)
			}
			if want == "" {
				// The LIFO stack: the worker that went idle last.
				evs, _ := events(t, c.src)
				last := -1
				for _, e := range evs[:q.Event] {
					if e.Rule == gmp.RulePoolIdle {
						last = e.N
					}
				}
				want = fmt.Sprintf("w%d", last)
			}
			if got := q.Correct(); got != want {
				t.Errorf("answer %q, want %q (why: %v)", got, want, q.Why)
			}
			if q.Event < q.At {
				t.Errorf("settled by event %d before it is asked at %d", q.Event, q.At)
			}
			if len(q.Why) == 0 || !strings.Contains(q.Why[0], fmt.Sprintf("event %d,", q.Event+1)) {
				t.Errorf("why %q does not name event %d", q.Why, q.Event+1)
			}
		})
	}
}

// The M that takes a P from a system call is the one the run shows.
func TestTakesFollowsTheRun(t *testing.T) {
	src := `
procs: 1
main:
  - go: {count: 4, do: [{cpu: 2ms}]}
  - syscall: 5ms
  - wait: children
ask:
  - on: proc-steal
    answer: {takes: P0}
`
	qs, err := settle(t, src)
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := events(t, src)
	i := slices.IndexFunc(evs, func(e gmp.Event) bool { return e.Kind == gmp.KindProcSteal })
	j := i + slices.IndexFunc(evs[i:], func(e gmp.Event) bool { return e.Kind == gmp.KindProcStart && e.P == 0 })
	if i < 0 || j < i {
		t.Fatal("the run has no retake followed by a proc-start")
	}
	if got, want := qs[0].Correct(), evs[j].M.String(); got != want || qs[0].Event != j {
		t.Errorf("answer %q at event %d, want %q at %d", got, qs[0].Event, want, j)
	}
}

// A question whose answer is not among its choices, or that the run never
// reaches or answers, is an error naming the ask's line.
func TestAskErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"answer not a choice", `
procs: 1
main:
  - go: {count: 3, do: [{cpu: 1ms}]}
  - sleep: 1ms
ask:
  - on: go-block
    answer: {next-on: P0}
    choices: [G2, G3]
`, `q.yaml:7:5: the run answers "G4", which is not among the choices (G2, G3)`},
		{"never reached", `
procs: 1
main:
  - cpu: 1ms
ask:
  - on: steal
    answer: {steals: P0}
`, "q.yaml:6:5: the run never reaches this question's moment (on: steal)"},
		{"never answered", `
procs: 1
main:
  - cpu: 1ms
ask:
  - at: 0s
    answer: {where: G7}
`, "q.yaml:6:5: nothing after at: 0s answers it (Where does G7 go?)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := settle(t, c.src)
			if err == nil || err.Error() != c.want {
				t.Errorf("error %v\nwant %s", err, c.want)
			}
		})
	}
}

// A malformed ask: is a parse error at its line and column.
func TestAskParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"procs: 1\nmain: [{cpu: 1ms}]\nask:\n  - on: steal\n    answer: {stealz: P0}\n", `q.yaml:5:14: unknown fact "stealz"`},
		{"procs: 1\nmain: [{cpu: 1ms}]\nask:\n  - on: steal\n    answer: {steals: G1}\n", "q.yaml:5:14: steals: wants a P such as P0"},
		{"procs: 1\nmain: [{cpu: 1ms}]\nask:\n  - on: steal\n    answer: {worker: nope}\n", `q.yaml:5:14: worker: pool "nope" is not declared`},
		{"procs: 1\nmain: [{cpu: 1ms}]\nask:\n  - answer: {where: G1}\n", "q.yaml:4:5: a question needs at: (a time) or on: (an event kind)"},
		{"procs: 1\nmain: [{cpu: 1ms}]\nask:\n  - on: steal\n", "q.yaml:4:5: a question has no answer:"},
		{"procs: 1\nmain: [{cpu: 1ms}]\nask:\n  - on: steal\n    answer: {where: G1}\n    choices: [a, a]\n", `q.yaml:6:18: choice "a" is given twice`},
	} {
		_, err := scenarios.Parse("q.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\nerror %v\nwant %s", c.src, err, c.want)
		}
	}
}

// Generated questions are valid, spaced, answered by the event they are
// asked before, and the same for the same run.
func TestGeneratorOnBuiltins(t *testing.T) {
	kinds := map[quiz.FactKind]bool{}
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		name := sc.Name
		gen := func() ([]quiz.Question, []gmp.Event) {
			t.Helper()
			m, err := gmp.New(sc.Config(), sc.Program())
			if err != nil {
				t.Fatal(err)
			}
			g := quiz.NewGenerator(sc.Program(), sc.Procs, sc.Seed)
			var qs []quiz.Question
			var evs []gmp.Event
			m.SetSink(func(e gmp.Event) {
				evs = append(evs, e)
				if q, ok := g.Observe(e); ok {
					qs = append(qs, q)
				}
			})
			m.Run()
			return qs, evs
		}
		qs, _ := gen()
		again, _ := gen()
		if fmt.Sprint(qs) != fmt.Sprint(again) {
			t.Errorf("%s: generated questions differ between two runs", name)
		}
		for k, q := range qs {
			if err := q.Valid(); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			if k > 0 && q.At-qs[k-1].At < quiz.DefaultGap {
				t.Errorf("%s: questions at events %d and %d, closer than %d", name, qs[k-1].At, q.At, quiz.DefaultGap)
			}
			if q.Event != q.At || !strings.Contains(q.Why[0], fmt.Sprintf("event %d,", q.At+1)) {
				t.Errorf("%s: question at %d settled by %d (%q)", name, q.At, q.Event, q.Why)
			}
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(q.Correct()) + `\b`).MatchString(q.Text) {
				t.Errorf("%s: question %q gives its answer %q away", name, q.Text, q.Correct())
			}
			kinds[q.Fact.Kind] = true
		}
	}
	if len(kinds) < 5 {
		t.Errorf("the built-ins give only %d kinds of generated question: %v", len(kinds), kinds)
	}
}

// A sheet keeps the first answer to each question.
func TestSheet(t *testing.T) {
	q1 := quiz.Question{Text: "a", Choices: []string{"x", "y"}, Answer: 1, At: 3}
	q2 := quiz.Question{Text: "b", Choices: []string{"x", "y"}, Answer: 0, At: 9}
	var s quiz.Sheet
	if s.Answer(&q1, 0) {
		t.Error("a wrong answer counted right")
	}
	if s.Answer(&q1, 1) {
		t.Error("a second answer replaced the first")
	}
	if !s.Answer(&q2, 0) {
		t.Error("a right answer counted wrong")
	}
	if c, ok := s.Answered(3); !ok || c != 0 {
		t.Errorf("Answered(3) = %d, %v", c, ok)
	}
	if right, n := s.Score(); right != 1 || n != 2 {
		t.Errorf("score %d/%d, want 1/2", right, n)
	}
}
