package scenarios

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/teach/quiz"
)

// A scenario can parse, run and answer its questions, and still not show
// what its notes say: a first scenario about runnext passed check with
// "ok" though its point (the waiter, created last, ran first) never
// happened. Landings runs it and warns where a note or a question may not
// land on what it names. The warnings are check's; they fail nothing.

// Warning is a doubt about a scenario file, at a position.
type Warning struct {
	Pos gmp.Pos
	Msg string
}

func (w Warning) String() string { return safetext.Term(w.Pos.String()) + ": warning: " + w.Msg }

// noteWindow is how many events a note is on screen after the one it is
// on (the UI's noteAge): what it names should happen then.
const noteWindow = 40

// named finds the goroutines (G3) and Ps (P1) a text names.
var named = regexp.MustCompile(`\b([GP])([0-9]{1,6})\b`)

// mainWord finds "main", which names G1.
var mainWord = regexp.MustCompile(`\bmain\b`)

// names are the goroutines and Ps a text names.
type names struct{ gs, ps []int }

// withMain counts "main" as naming G1 (a question's text; a note's
// "main waits" is more often of the state than of an event).
func namesIn(text string, withMain bool) names {
	var n names
	if withMain && mainWord.MatchString(text) {
		n.gs = append(n.gs, 1)
	}
	for _, m := range named.FindAllStringSubmatch(text, -1) {
		v, _ := strconv.Atoi(m[2])
		if m[1] == "G" && !slices.Contains(n.gs, v) {
			n.gs = append(n.gs, v)
		} else if m[1] == "P" && !slices.Contains(n.ps, v) {
			n.ps = append(n.ps, v)
		}
	}
	return n
}

// concerns reports whether e is about one of n's goroutines or Ps.
func (n names) concerns(e *gmp.Event) bool {
	for _, g := range n.gs {
		if e.Involves(gmp.GID(g)) {
			return true
		}
	}
	for _, p := range n.ps {
		if e.P == gmp.PID(p) || e.P2 == gmp.PID(p) {
			return true
		}
	}
	return false
}

func (n names) String() string {
	var parts []string
	for _, g := range n.gs {
		parts = append(parts, "G"+strconv.Itoa(g))
	}
	for _, p := range n.ps {
		parts = append(parts, "P"+strconv.Itoa(p))
	}
	return joinAnd(parts)
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	s := ""
	for i, p := range parts {
		switch {
		case i == 0:
		case i == len(parts)-1:
			s += " or "
		default:
			s += ", "
		}
		s += p
	}
	return s
}

// Landings runs sc with cfg and warns of each note and mark the run never
// reaches,
// each note that names goroutines or Ps none of which an event
// is about while it is the latest note (and at least noteWindow events),
// and each question whose text names goroutines (main is G1) or Ps but
// not the one its answer is about.
func Landings(sc *Scenario, cfg gmp.Config) []Warning {
	var out []Warning
	for _, a := range sc.Asks {
		n := namesIn(a.Text, true)
		if len(n.gs)+len(n.ps) == 0 {
			continue
		}
		switch f := a.Fact; f.Kind {
		case quiz.FactWhere, quiz.FactStops:
			if len(n.gs) > 0 && !slices.Contains(n.gs, int(f.G)) {
				out = append(out, Warning{a.Pos, fmt.Sprintf("the question names %s, but its answer is about %v", n, f.G)})
			}
		case quiz.FactNextOn, quiz.FactSteals, quiz.FactTakes:
			if len(n.ps) > 0 && !slices.Contains(n.ps, int(f.P)) {
				out = append(out, Warning{a.Pos, fmt.Sprintf("the question names %s, but its answer is about %v", n, f.P)})
			}
		}
	}
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		return out
	}
	tr := NewNoteTracker(sc.Notes)
	want := make([]names, len(sc.Notes))
	for i, note := range sc.Notes {
		want[i] = namesIn(note.Text, false)
	}
	// shown[i] says whether note i's names came up while it was the
	// latest note, or within noteWindow events of its own.
	shown := make([]bool, len(sc.Notes))
	latest := -1 // the event of the latest note placed
	marks := NewMarkTracker(sc.Marks)
	marked := map[string]bool{}
	i := 0
	m.SetSink(func(e gmp.Event) {
		if placed := tr.Observe(i, &e); len(placed) > 0 {
			latest = i
		}
		for _, k := range marks.Observe(i, &e) {
			marked[sc.Marks[k].Name] = true
		}
		for n := range sc.Notes {
			if at := tr.At(n); at >= 0 && !shown[n] && (at == latest || i-at <= noteWindow) && want[n].concerns(&e) {
				shown[n] = true
			}
		}
		i++
	})
	m.Run()
	for n, note := range sc.Notes {
		switch {
		case tr.At(n) < 0:
			out = append(out, Warning{note.Pos, fmt.Sprintf("the note %s is never reached: the run ended at %v without it", strings.Replace(note.Moment.String(), ": ", " ", 1), m.Now())})
		case len(want[n].gs)+len(want[n].ps) > 0 && !shown[n]:
			out = append(out, Warning{note.Pos, fmt.Sprintf("the note names %s, but no event from its own (event %d) to the next note's is about any of them: does the run do what it says?",
				want[n], tr.At(n)+1)})
		}
	}
	for _, mk := range sc.Marks {
		if !marked[mk.Name] {
			out = append(out, Warning{mk.Pos, fmt.Sprintf("the mark %s (%s) is never reached: the run ended at %v without it", mk.Name, strings.Replace(mk.Moment.String(), ": ", " ", 1), m.Now())})
		}
	}
	slices.SortStableFunc(out, func(a, b Warning) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return out
}
