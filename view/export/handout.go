package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/safetext"
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
//
// Everything the scenario wrote (its title, summary, notes, names, file
// name, and the file itself) goes through safetext's Markdown helpers: a
// handout is rendered as a page, and a shared file must not put script,
// links or headings of its own into it.
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
	fmt.Fprintf(h.w, "# %s\n\n", safetext.Markdown(title))
	if summary := safetext.Markdown(sc.Summary); summary != "" {
		fmt.Fprintf(h.w, "%s\n\n", summary)
	}
	lang, open := "yaml", sc.Name
	if strings.HasSuffix(sc.File, ".go") {
		// A Go program read as a scenario (core/gofront): its source
		// is Go, and it is opened by its file.
		lang, open = "go", sc.File
	}
	fmt.Fprintf(h.w, "The scenario (%s; step through it with %s):\n\n%s",
		safetext.CodeSpan(sc.File), safetext.CodeSpan("schedlab tui "+open), safetext.CodeBlock(lang, strings.TrimRight(string(sc.Source), "\n")))
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
		fmt.Fprintf(h.w, "\n## %d. At %v\n\n%s\n", h.written, s.events[len(s.events)-1-s.after].e.T, safetext.Markdown(h.sc.Notes[n].Text))
	}
	h.w.WriteString("\n")
	for _, ne := range s.events {
		fmt.Fprintf(h.w, "- event %d, %v, %s: %s\n", ne.i+1, ne.e.T, ne.e.Kind, safetext.Markdown(h.d.Describe(ne.e)))
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
			fmt.Fprintf(h.w, "- %s (%s): the run ended at %v first.\n", safetext.Markdown(h.sc.Notes[n].Text), safetext.Markdown(h.sc.Notes[n].Moment.String()), m.Now())
		}
	}
	end := m.End()
	fmt.Fprintf(h.w, "\n## The end\n\n%s at %v after %d events; %d goroutines created, %d threads.\n",
		end.Reason, m.Now(), m.Emitted(), m.NumG()-1, m.NumM())
	if end.Err != nil {
		fmt.Fprintf(h.w, "\n%s", safetext.CodeBlock("", end.Err.Error()))
	}
	return h.w.Flush()
}
