package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// Around a note, the handout shows this many events before it (its own
// included) and after it.
const (
	handoutBefore = 3
	handoutAfter  = 2
)

// Handout writes a run as a Markdown handout: the scenario's title,
// summary and file, then its notes in the order the run meets them, each
// with the events around it in the describer's words, and how the run
// ended.
type Handout struct {
	w       *bufio.Writer
	sc      *scenarios.Scenario
	d       *gmp.Describer
	notes   *scenarios.NoteTracker
	n       int
	recent  []numbered // the last handoutBefore events
	pending []*section // notes still collecting the events after them
	written int
}

type numbered struct {
	i int
	e gmp.Event
}

type section struct {
	notes  []int
	events []numbered
	after  int
}

// NewHandout starts a handout of a run of sc on w.
func NewHandout(w io.Writer, sc *scenarios.Scenario) *Handout {
	h := &Handout{w: bufio.NewWriter(w), sc: sc, d: gmp.NewDescriber(sc.Program()), notes: scenarios.NewNoteTracker(sc.Notes)}
	title := sc.Name
	if sc.Title != "" {
		title = sc.Title
	}
	fmt.Fprintf(h.w, "# %s\n\n", title)
	if sc.Summary != "" {
		fmt.Fprintf(h.w, "%s\n\n", sc.Summary)
	}
	fmt.Fprintf(h.w, "The scenario (`%s`; step through it with `schedlab tui %s`):\n\n```yaml\n%s\n```\n",
		sc.File, sc.Name, strings.TrimRight(string(sc.Source), "\n"))
	return h
}

// Event adds the run's next event.
func (h *Handout) Event(e gmp.Event) {
	ne := numbered{h.n, e}
	h.n++
	for _, s := range h.pending {
		s.events = append(s.events, ne)
		s.after++
	}
	h.recent = append(h.recent, ne)
	if len(h.recent) > handoutBefore {
		h.recent = h.recent[1:]
	}
	if placed := h.notes.Observe(ne.i, &e); len(placed) > 0 {
		s := &section{notes: placed, events: append([]numbered(nil), h.recent...)}
		h.pending = append(h.pending, s)
	}
	for len(h.pending) > 0 && h.pending[0].after >= handoutAfter {
		h.section(h.pending[0])
		h.pending = h.pending[1:]
	}
}

func (h *Handout) section(s *section) {
	for _, n := range s.notes {
		h.written++
		fmt.Fprintf(h.w, "\n## %d. At %v\n\n%s\n", h.written, s.events[len(s.events)-1-s.after].e.T, reflow(h.sc.Notes[n].Text))
	}
	h.w.WriteString("\n")
	for _, ne := range s.events {
		fmt.Fprintf(h.w, "- event %d, %v, %s: %s\n", ne.i+1, ne.e.T, ne.e.Kind, h.d.Describe(ne.e))
	}
}

// End writes the notes still collecting events, those the run never
// reached, and how the run ended.
func (h *Handout) End(m *gmp.Machine) error {
	for _, s := range h.pending {
		h.section(s)
	}
	if un := h.notes.Unreached(); len(un) > 0 {
		h.w.WriteString("\n## Not reached\n\n")
		for _, n := range un {
			fmt.Fprintf(h.w, "- %s (%v): the run ended at %v first.\n", reflow(h.sc.Notes[n].Text), h.sc.Notes[n].Moment, m.Now())
		}
	}
	end := m.End()
	fmt.Fprintf(h.w, "\n## The end\n\n%s at %v after %d events; %d goroutines created, %d threads.\n",
		end.Reason, m.Now(), m.Emitted(), m.NumG()-1, m.NumM())
	if end.Err != nil {
		fmt.Fprintf(h.w, "\n```\n%v\n```\n", end.Err)
	}
	return h.w.Flush()
}

// reflow joins the lines of a note written with line breaks for its file.
func reflow(s string) string { return strings.Join(strings.Fields(s), " ") }
