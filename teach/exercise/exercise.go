package exercise

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/teach/quiz"
)

// Exercise is one generated problem: a scenario and questions about its run.
type Exercise struct {
	Topic *Topic
	Seed  uint64
	// YAML is the scenario as a file a student can open in the UI
	// (schedlab tui FILE) to check the answers step by step.
	YAML      string
	Scenario  *scenarios.Scenario
	Questions []Question
}

// Question asks about one fact of the run; quiz asks the same kind in
// scenarios and in the UI.
type Question = quiz.Question

// maxDraws bounds how many scenarios a generator may draw before it gives
// up: each draw that yields no unambiguous question is discarded.
const maxDraws = 32

// Generate makes the exercise on topic for seed.
func Generate(topic string, seed uint64) (*Exercise, error) {
	t := Lookup(topic)
	if t == nil {
		return nil, fmt.Errorf("unknown topic %q: want one of %s", topic, strings.Join(TopicNames(), ", "))
	}
	r := sim.NewRand(seed)
	for range maxDraws {
		src := t.scenario(&r)
		x, err := newRun(t.Name, src)
		if err != nil {
			// A generator's scenario must always parse and run: this is a
			// defect of the generator, not of the user's input.
			return nil, fmt.Errorf("exercise %s, seed %d: %w\n%s", t.Name, seed, err, src)
		}
		qs := t.ask(x, &r)
		if len(qs) == 0 {
			continue
		}
		for i := range qs {
			if err := qs[i].Valid(); err != nil {
				return nil, fmt.Errorf("exercise %s, seed %d, question %d: %w", t.Name, seed, i+1, err)
			}
		}
		return &Exercise{Topic: t, Seed: seed, YAML: src, Scenario: x.sc, Questions: qs}, nil
	}
	return nil, fmt.Errorf("exercise %s, seed %d: no scenario with an unambiguous question in %d draws", t.Name, seed, maxDraws)
}

// run is the model's run of a generated scenario, kept whole: exercises are
// small.
type run struct {
	sc     *scenarios.Scenario
	events []gmp.Event
	d      *gmp.Describer
	end    gmp.End
}

func newRun(name, src string) (*run, error) {
	sc, err := scenarios.Parse(name+".yaml", []byte(src))
	if err != nil {
		return nil, err
	}
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		return nil, err
	}
	x := &run{sc: sc, d: gmp.NewDescriber(sc.Program())}
	m.SetSink(func(e gmp.Event) { x.events = append(x.events, e) })
	x.end = m.Run()
	if !sc.AsExpected(x.end) {
		return nil, fmt.Errorf("the run ended with %s", x.end.Reason)
	}
	return x, nil
}

// find returns the index of the first event at or after from that match
// accepts, or -1.
func (x *run) find(from int, accept func(e *gmp.Event) bool) int {
	for i := max(from, 0); i < len(x.events); i++ {
		if accept(&x.events[i]) {
			return i
		}
	}
	return -1
}

// all returns the indices of the events that match accept.
func (x *run) all(accept func(e *gmp.Event) bool) []int {
	var out []int
	for i := range x.events {
		if accept(&x.events[i]) {
			out = append(out, i)
		}
	}
	return out
}

// count returns how many events match accept.
func (x *run) count(accept func(e *gmp.Event) bool) (n int) {
	for i := range x.events {
		if accept(&x.events[i]) {
			n++
		}
	}
	return n
}

// why returns the describer's sentences for the given events, with their
// times and numbers as the UI shows them.
func (x *run) why(idx ...int) []string {
	out := make([]string, 0, len(idx))
	for _, i := range idx {
		e := x.events[i]
		out = append(out, fmt.Sprintf("event %d, %v: %s", i+1, e.T, x.d.Describe(e)))
	}
	return out
}

// question builds a question whose answer is settled by the events idx
// (the first is the one the UI can jump to).
func (x *run) question(r *sim.Rand, text, correct string, candidates []string, idx ...int) Question {
	choices, answer := quiz.Choose(r, correct, candidates)
	return Question{Text: text, Choices: choices, Answer: answer, At: idx[0], Event: idx[0], Why: x.why(idx...)}
}
