package quiz

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// Question asks about one fact of a run.
type Question struct {
	// Fact is what the question asks about.
	Fact    Fact
	Text    string
	Choices []string
	Answer  int // index into Choices
	// At is the index of the event the question is asked before: a
	// viewer has seen events [0, At) and not yet the one that answers.
	At int
	// Event is the index of the event that settles the answer (At or
	// later). The UI numbers events from 1, so it shows it as Event+1.
	Event int
	// Why is the worked answer: the describer's sentences for the events
	// that settle it, in order.
	Why []string
	// Pos is the ask: in the scenario file, for a question a file carries.
	Pos gmp.Pos
	// Forced marks a question the run leaves one choice: allowed with a
	// warning, it is the only kind with fewer than two choices.
	Forced bool
}

// Valid checks that the question has one correct choice among distinct ones.
func (q *Question) Valid() error {
	if len(q.Choices) < 2 && !(q.Forced && len(q.Choices) == 1) {
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

// Correct returns the correct choice.
func (q *Question) Correct() string { return q.Choices[q.Answer] }

// maxDistractors is how many wrong choices a drawn question offers: four
// choices in all read at a glance on a projector.
const maxDistractors = 3

// Choose builds the choices of a question from its correct answer and
// candidate wrong ones: at most three distinct distractors drawn from the
// candidates, and the correct answer at a drawn position.
func Choose(r *sim.Rand, correct string, candidates []string) ([]string, int) {
	var wrong []string
	for _, c := range candidates {
		if c != correct && !slices.Contains(wrong, c) {
			wrong = append(wrong, c)
		}
	}
	for len(wrong) > maxDistractors {
		i := int(r.Int63n(int64(len(wrong))))
		wrong = slices.Delete(wrong, i, i+1)
	}
	at := int(r.Int63n(int64(len(wrong) + 1)))
	return slices.Insert(wrong, at, correct), at
}

// why formats events as the worked answer shows them: number, time and
// the describer's sentence.
func why(d *gmp.Describer, i int, e gmp.Event) string {
	return fmt.Sprintf("event %d, %v: %s", i+1, e.T, d.Describe(e))
}
