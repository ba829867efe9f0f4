package quiz

import (
	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// DefaultGap is how many events a generated quiz lets pass between two
// questions: enough that a class watches the run between them.
const DefaultGap = 25

// Generator poses questions at the model's decisions as a run goes: where
// a new or woken goroutine goes, which runs next, how many a thief takes,
// how a goroutine stops, which M takes a P back from a system call, which
// idle worker a pool reuses, how many its purge stops. It asks at most
// one question every Gap events and turns to the kind of fact it asked
// least, so a run of creations does not ask the same thing ten times.
type Generator struct {
	// Gap is the least number of events between two questions.
	Gap  int
	prog *gmp.Program
	d    *gmp.Describer
	rand sim.Rand
	view *view
	n    int
	last int
	// asked counts the questions asked per fact kind.
	asked map[FactKind]int
}

// NewGenerator prepares to pose questions about a run of prog on procs
// Ps; seed draws the choices.
func NewGenerator(prog *gmp.Program, procs int, seed uint64) *Generator {
	return &Generator{Gap: DefaultGap, prog: prog, d: gmp.NewDescriber(prog), rand: sim.NewRand(seed),
		view: newView(procs, prog), last: -1 << 30, asked: map[FactKind]int{}}
}

// Observe feeds the next event of the run and returns the question to ask
// before showing it, if it is a decision worth asking about now.
func (g *Generator) Observe(e gmp.Event) (Question, bool) {
	i := g.n
	g.n++
	defer g.view.observe(&e)
	if i-g.last < g.Gap {
		return Question{}, false
	}
	var best *factInfo
	var fact Fact
	var scene string
	for k := range facts {
		info := &facts[k]
		f, s, ok := info.decision(&e, g.view, g.prog)
		if !ok || best != nil && g.asked[info.kind] >= g.asked[best.kind] {
			continue
		}
		best, fact, scene = info, f, s
	}
	if best == nil {
		return Question{}, false
	}
	choices, answer := Choose(&g.rand, best.answer(fact, &e, g.view, g.d), best.wrong(fact, &e, g.view, g.d))
	q := Question{Fact: fact, Text: scene + " " + best.text(fact), Choices: choices, Answer: answer, At: i, Event: i,
		Why: []string{why(g.d, i, e)}}
	if q.Valid() != nil {
		return Question{}, false
	}
	g.last = i
	g.asked[best.kind]++
	return q, true
}
