package quiz

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// Ask is a question a scenario file carries: asked at a moment of the run,
// answered by a fact of it.
type Ask struct {
	// Moment is the event the question is asked before.
	Moment gmp.Moment
	Fact   Fact
	// Text is the question; empty means the fact's own.
	Text string
	// Choices, if given, must hold the run's answer exactly once; else
	// they are drawn from what the run has shown.
	Choices []string
	Pos     gmp.Pos
}

// Resolver settles a scenario's questions against its run, fed the run's
// events in order. Each question is asked at its moment and settled by the
// first event at or after it that answers its fact.
type Resolver struct {
	d    *gmp.Describer
	rand sim.Rand
	asks []Ask
	// at is the event index each ask is asked before, -1 until reached.
	at    []int
	match []*gmp.MomentMatcher
	done  []bool
	qs    []Question
	errs  []error
	// warns are the asks allowed with a warning: their answer is forced.
	warns []string
	view  *view
	n     int
	left  int
}

// NewResolver prepares to settle asks over a run of prog on procs Ps.
// seed draws the choices of asks that give none.
func NewResolver(prog *gmp.Program, procs int, seed uint64, asks []Ask) *Resolver {
	r := &Resolver{d: gmp.NewDescriber(prog), rand: sim.NewRand(seed), asks: asks,
		at: make([]int, len(asks)), done: make([]bool, len(asks)), qs: make([]Question, len(asks)),
		view: newView(procs, prog), left: len(asks), match: make([]*gmp.MomentMatcher, len(asks))}
	for i := range r.at {
		r.at[i] = -1
		r.match[i] = gmp.NewMomentMatcher(asks[i].Moment)
	}
	return r
}

// Observe feeds the next event of the run.
func (r *Resolver) Observe(e gmp.Event) {
	i := r.n
	r.n++
	for k := range r.asks {
		if r.done[k] {
			continue
		}
		a := &r.asks[k]
		if r.at[k] < 0 && r.match[k].Match(&e) {
			r.at[k] = i
			if before := a.Fact.Kind.info().before; before != nil && before(a.Fact, r.view) {
				// Settled by what the run did before it was asked: the
				// key holds, but the question teaches nothing.
				r.warns = append(r.warns, fmt.Sprintf("%v: warning: the answer is decided before the question is asked (%s)", a.Pos, a.Fact.Text()))
				r.settle(k, i, &e)
				continue
			}
		}
		if r.at[k] >= 0 && a.Fact.Kind.info().settles(a.Fact, &e) {
			r.settle(k, i, &e)
		}
	}
	r.view.observe(&e)
}

// Done reports whether every question is settled: the rest of the run
// need not be fed.
func (r *Resolver) Done() bool { return r.left == 0 }

func (r *Resolver) settle(k, i int, e *gmp.Event) {
	a := &r.asks[k]
	info := a.Fact.Kind.info()
	r.done[k] = true
	r.left--
	correct := info.answer(a.Fact, e, r.view, r.d)
	q := Question{Fact: a.Fact, Text: a.Text, At: r.at[k], Event: i, Pos: a.Pos, Why: []string{why(r.d, i, *e)}}
	if q.Text == "" {
		q.Text = a.Fact.Text()
	}
	if len(a.Choices) > 0 {
		q.Choices = slices.Clone(a.Choices)
		q.Answer = slices.Index(q.Choices, correct)
		if q.Answer < 0 {
			r.errs = append(r.errs, fmt.Errorf("%v: the run answers %q, which is not among the choices (%s)",
				a.Pos, correct, strings.Join(a.Choices, ", ")))
			return
		}
	} else {
		q.Choices, q.Answer = Choose(&r.rand, correct, info.wrong(a.Fact, e, r.view, r.d))
		if len(q.Choices) == 1 {
			// The run offers no other answer: a question with one
			// choice, kept, and said so.
			q.Forced = true
			r.warns = append(r.warns, fmt.Sprintf("%v: warning: the answer is forced: the run offers no choice but %q", a.Pos, correct))
		}
	}
	if err := q.Valid(); err != nil {
		r.errs = append(r.errs, fmt.Errorf("%v: %w", a.Pos, err))
		return
	}
	r.qs[k] = q
}

// Questions returns the settled questions in the order they are asked,
// and an error naming every ask that the run left unanswered, or whose
// answer is not among its choices.
func (r *Resolver) Questions() ([]Question, error) {
	errs := slices.Clone(r.errs)
	var out []Question
	for k, a := range r.asks {
		switch {
		case r.at[k] < 0:
			errs = append(errs, fmt.Errorf("%v: the run never reaches this question's moment (%v)", a.Pos, a.Moment))
		case !r.done[k]:
			errs = append(errs, fmt.Errorf("%v: nothing after %v answers it (%s)", a.Pos, a.Moment, a.Fact.Text()))
		case r.qs[k].Choices != nil:
			out = append(out, r.qs[k])
		}
	}
	slices.SortStableFunc(out, func(a, b Question) int { return a.At - b.At })
	return out, errors.Join(errs...)
}

// Warnings names each ask whose answer is forced, by its position
// (file:line:col): one the run leaves no other choice for, or one decided
// before it is asked. They are allowed, so they are not errors.
func (r *Resolver) Warnings() []string { return slices.Clone(r.warns) }

// Settle runs prog under cfg and settles asks against the run, stopping
// as soon as every question is settled.
func Settle(cfg gmp.Config, prog *gmp.Program, asks []Ask) ([]Question, error) {
	qs, _, err := SettleWarn(cfg, prog, asks)
	return qs, err
}

// SettleWarn is Settle that also returns the warnings of Warnings.
func SettleWarn(cfg gmp.Config, prog *gmp.Program, asks []Ask) ([]Question, []string, error) {
	if len(asks) == 0 {
		return nil, nil, nil
	}
	m, err := gmp.New(cfg, prog)
	if err != nil {
		return nil, nil, err
	}
	r := NewResolver(prog, cfg.Procs, cfg.Seed, asks)
	m.SetSink(r.Observe)
	for !r.Done() && m.Step() {
	}
	qs, err := r.Questions()
	return qs, r.Warnings(), err
}
