package exercise

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/gmp"
	"github.com/schedlab/schedlab/scenarios"
	"github.com/schedlab/schedlab/sim"
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

// Question asks about one fact of the run.
type Question struct {
	Text    string
	Choices []string
	Answer  int // index into Choices
	// Event is the index of the event that settles the answer in the run's
	// event stream (the UI's event number is Event+1).
	Event int
	// Why is the worked answer: the describer's sentence for the events
	// that settle it, in order.
	Why []string
}

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
			if err := qs[i].valid(); err != nil {
				return nil, fmt.Errorf("exercise %s, seed %d, question %d: %w", t.Name, seed, i+1, err)
			}
		}
		return &Exercise{Topic: t, Seed: seed, YAML: src, Scenario: x.sc, Questions: qs}, nil
	}
	return nil, fmt.Errorf("exercise %s, seed %d: no scenario with an unambiguous question in %d draws", t.Name, seed, maxDraws)
}

// valid checks that the question has one correct choice among distinct ones.
func (q *Question) valid() error {
	if len(q.Choices) < 2 {
		return fmt.Errorf("%q has %d choices", q.Text, len(q.Choices))
	}
	if q.Answer < 0 || q.Answer >= len(q.Choices) {
		return fmt.Errorf("%q: answer %d out of range", q.Text, q.Answer)
	}
	seen := map[string]bool{}
	for _, c := range q.Choices {
		if seen[c] {
			return fmt.Errorf("%q: choice %q appears twice", q.Text, c)
		}
		seen[c] = true
	}
	return nil
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

// choose builds the choices of a question from its correct answer and
// candidate wrong ones: at most three distinct distractors, drawn from the
// candidates, and the correct answer at a drawn position.
func choose(r *sim.Rand, correct string, candidates []string) ([]string, int) {
	var wrong []string
	for _, c := range candidates {
		if c != correct && !slices.Contains(wrong, c) {
			wrong = append(wrong, c)
		}
	}
	for len(wrong) > 3 {
		i := int(r.Int63n(int64(len(wrong))))
		wrong = slices.Delete(wrong, i, i+1)
	}
	at := int(r.Int63n(int64(len(wrong) + 1)))
	return slices.Insert(wrong, at, correct), at
}

// question builds a question whose answer is settled by the events idx
// (the first is the one the UI can jump to).
func (x *run) question(r *sim.Rand, text, correct string, candidates []string, idx ...int) Question {
	choices, answer := choose(r, correct, candidates)
	return Question{Text: text, Choices: choices, Answer: answer, Event: idx[0], Why: x.why(idx...)}
}
