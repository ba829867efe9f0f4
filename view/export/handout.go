package export

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/teach/quiz"
)

// Around a note, the handout shows this many events before it (its own
// included) and after it.
const (
	handoutBefore = 3
	handoutAfter  = 2
)

// A handout's limits: the program's table and the questions stay a page
// or two whatever the scenario holds.
const (
	handoutRows      = 40  // rows of the program's table
	handoutCell      = 300 // characters of a cell
	handoutQuestions = 5   // questions drawn from the run, for a scenario that asks none
)

// HandoutOptions say what a handout shows besides the run.
type HandoutOptions struct {
	// Timeline is where the run's timeline image is, relative to the
	// handout ("tour.svg"); "" says how to draw one instead.
	Timeline string
}

// Handout writes a run as a Markdown handout: the scenario's title and
// summary; its program as a table of goroutines and what each does; the
// run's timeline; its notes in the order the run meets them, each with the
// events around it in the describer's words; how the run ended; and
// questions about the run, the scenario's own or drawn from its
// decisions, with their answers last.
//
// Everything the scenario wrote (its title, summary, notes, names and
// file name) goes through safetext's Markdown helpers: a handout is
// rendered as a page, and a shared file must not put script, links or
// headings of its own into it.
type Handout struct {
	out     io.Writer
	body    *bytes.Buffer // the notes' sections, written after the head at End
	w       *bufio.Writer
	sc      *scenarios.Scenario
	o       HandoutOptions
	d       *gmp.Describer
	notes   *scenarios.NoteTracker
	n       int
	recent  []numbered // the last handoutBefore events
	pending []*section // notes still collecting the events after them
	written int
	// created are the goroutines each go statement (or submit, for a
	// pool's workers) made, by the statement's place in the file.
	created map[gmp.Pos]*gRange
	// The questions: the scenario's, settled by the run, or drawn.
	asks  *quiz.Resolver
	gen   *quiz.Generator
	drawn []quiz.Question
}

type gRange struct {
	first, last gmp.GID
	n           int
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

// NewHandout starts a handout of m's run of sc on w.
func NewHandout(w io.Writer, sc *scenarios.Scenario, m *gmp.Machine, o HandoutOptions) *Handout {
	body := &bytes.Buffer{}
	h := &Handout{out: w, body: body, w: bufio.NewWriter(body), sc: sc, o: o, d: gmp.NewDescriber(sc.Program()),
		notes: scenarios.NewNoteTracker(sc.Notes), created: map[gmp.Pos]*gRange{}}
	cfg := m.Config()
	if len(sc.Asks) > 0 {
		h.asks = quiz.NewResolver(sc.Program(), m.Procs(), cfg.Seed, sc.Asks)
	} else {
		h.gen = quiz.NewGenerator(sc.Program(), m.Procs(), cfg.Seed)
	}
	return h
}

// Event adds the run's next event.
func (h *Handout) Event(e gmp.Event) {
	ne := numbered{h.n, e}
	h.n++
	if e.Kind == gmp.KindGoCreate && e.Op != nil {
		r := h.created[e.Op.Pos]
		if r == nil {
			r = &gRange{first: e.G}
			h.created[e.Op.Pos] = r
		}
		r.first, r.last = min(r.first, e.G), max(r.last, e.G)
		r.n++
	}
	switch {
	case h.asks != nil && !h.asks.Done():
		h.asks.Observe(e)
	case h.gen != nil && len(h.drawn) < handoutQuestions:
		if q, ok := h.gen.Observe(e); ok {
			h.drawn = append(h.drawn, q)
		}
	}
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

// End writes the handout: its head, the program and the timeline, the
// notes' sections, those the run never reached, how the run ended, and
// the questions and their answers.
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
	h.questions()
	if err := h.w.Flush(); err != nil {
		return err
	}
	out := bufio.NewWriter(h.out)
	h.head(out)
	out.Write(h.body.Bytes())
	return out.Flush()
}

// head writes the title, the summary, the program and the timeline.
func (h *Handout) head(w *bufio.Writer) {
	sc := h.sc
	title := sc.Name
	if sc.Title != "" {
		title = sc.Title
	}
	fmt.Fprintf(w, "# %s\n\n", safetext.Markdown(title))
	if summary := safetext.Markdown(sc.Summary); summary != "" {
		fmt.Fprintf(w, "%s\n\n", summary)
	}
	fmt.Fprintf(w, "The scenario is %s, on %d P%s; step through it with %s.\n",
		safetext.CodeSpan(sc.File), sc.Procs, plural(sc.Procs), safetext.CodeSpan("schedlab tui "+h.opens()))
	h.program(w)
	w.WriteString("\n## The run\n\n")
	if h.o.Timeline != "" {
		fmt.Fprintf(w, "![The run as a timeline: a lane per P, a bar per goroutine run](%s)\n", timelineURL(h.o.Timeline))
	} else {
		fmt.Fprintf(w, "Draw its timeline with %s.\n", safetext.CodeSpan("schedlab export "+h.opens()+" --format svg -o "+sc.Name+".svg"))
	}
}

// opens is what the commands take to open the scenario again: a
// built-in's name, else its file.
func (h *Handout) opens() string {
	if strings.HasPrefix(h.sc.File, "builtin/") {
		return h.sc.Name
	}
	return h.sc.File
}

// timelineURL is path as a link's destination: the path is ours, but from
// a file name the user chose; escaped as a URL path, it is one link
// whatever it holds.
func timelineURL(path string) string { return (&url.URL{Path: path}).EscapedPath() }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// program writes what the scenario declares and a table of its
// goroutines: who starts them and what each does.
func (h *Handout) program(w *bufio.Writer) {
	sc := h.sc
	var decls []string
	for _, c := range sc.Chans {
		decls = append(decls, fmt.Sprintf("channel %s (buffer %d)", c.Name, c.Cap))
	}
	for _, p := range sc.Pools {
		size := "unlimited"
		if p.Size > 0 {
			size = "size " + strconv.Itoa(p.Size)
		}
		decls = append(decls, fmt.Sprintf("pool %s (%s)", p.Name, size))
	}
	for _, s := range sc.Sems {
		decls = append(decls, fmt.Sprintf("semaphore %s", s.Name))
	}
	w.WriteString("\n## The program\n\n")
	if len(decls) > 0 {
		fmt.Fprintf(w, "It declares %s.\n\n", safetext.Markdown(strings.Join(decls, ", ")))
	}
	w.WriteString("| goroutines | started by | what each does |\n|---|---|---|\n")
	rows := 0
	var walk func(who, by string, body []gmp.Op)
	walk = func(who, by string, body []gmp.Op) {
		if rows++; rows <= handoutRows {
			fmt.Fprintf(w, "| %s | %s | %s |\n", cell(who), cell(by), cell(h.actions(body)))
		}
		var visit func(ops []gmp.Op, parent string)
		visit = func(ops []gmp.Op, parent string) {
			for i := range ops {
				op := &ops[i]
				line := "line " + strconv.Itoa(op.Pos.Line)
				switch op.Kind {
				case gmp.OpGo:
					walk(h.gs(op), parent+", "+line, op.Body)
				case gmp.OpSubmit:
					walk(fmt.Sprintf("%d tasks of pool %s, run by its workers %s", op.Count, sc.Pools[op.Pool].Name, h.gs(op)), parent+", "+line, op.Body)
				case gmp.OpGroup:
					walk(fmt.Sprintf("%d tasks of an errgroup", op.Count), parent+", "+line, op.Body)
				case gmp.OpLoop:
					visit(op.Body, parent)
				}
			}
		}
		visit(body, who)
	}
	walk("G1 (main)", "the runtime", sc.Main)
	if rows > handoutRows {
		fmt.Fprintf(w, "\n(and %d more rows: the file has them all)\n", rows-handoutRows)
	}
	if strings.HasSuffix(sc.File, ".go") {
		// A Go program read as a scenario (core/gofront): the class reads
		// its source, which is short, beside the table.
		fmt.Fprintf(w, "\nThe program as written:\n\n%s", safetext.CodeBlock("go", strings.TrimRight(string(sc.Source), "\n")))
	}
}

// cell is text for a table's cell: escaped, and cut at handoutCell
// characters.
func cell(s string) string {
	if r := []rune(s); len(r) > handoutCell {
		s = string(r[:handoutCell]) + "…"
	}
	return safetext.Markdown(s)
}

// gs names the goroutines the run's go statement (or pool) op made.
func (h *Handout) gs(op *gmp.Op) string {
	r := h.created[op.Pos]
	switch {
	case r == nil:
		return "none in this run"
	case r.n == 1:
		return r.first.String()
	case int(r.last-r.first)+1 == r.n:
		return r.first.String() + "–" + r.last.String()
	}
	return fmt.Sprintf("%d goroutines, %v to %v", r.n, r.first, r.last)
}

// actions says what a body does, one action after another.
func (h *Handout) actions(body []gmp.Op) string {
	parts := make([]string, 0, len(body))
	for i := range body {
		parts = append(parts, h.action(&body[i]))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "; ")
}

func (h *Handout) action(op *gmp.Op) string {
	sc := h.sc
	times := func(n int) string {
		if n == 1 {
			return ""
		}
		return " ×" + strconv.Itoa(n)
	}
	switch op.Kind {
	case gmp.OpCPU, gmp.OpSleep, gmp.OpNet:
		return op.Kind.String() + " " + op.Dur.String()
	case gmp.OpSyscall:
		if op.Block {
			return "syscall " + op.Dur.String() + " (hands its P off)"
		}
		return "syscall " + op.Dur.String()
	case gmp.OpGo:
		return "go" + times(op.Count) + " (" + h.gs(op) + ")"
	case gmp.OpLoop:
		return "loop ×" + strconv.Itoa(op.Count) + " { " + h.actions(op.Body) + " }"
	case gmp.OpSend, gmp.OpRecv, gmp.OpClose:
		return op.Kind.String() + " " + sc.Chans[op.Chan].Name
	case gmp.OpWait:
		return "wait for its children"
	case gmp.OpExit:
		return "runtime.Goexit"
	case gmp.OpSubmit:
		return "submit" + times(op.Count) + " to pool " + sc.Pools[op.Pool].Name
	case gmp.OpAcquire, gmp.OpRelease:
		return op.Kind.String() + " " + strconv.Itoa(op.N) + " of " + sc.Sems[op.Sem].Name
	case gmp.OpGroup:
		limit := ""
		if op.Limit >= 0 {
			limit = ", limit " + strconv.Itoa(op.Limit)
		}
		return "errgroup" + times(op.Count) + limit + ", then Wait"
	case gmp.OpObj:
		// A verb of a kind gmp registers, and the object it names.
		return sc.Program().OpName(op) + " " + sc.Objects[op.Obj].Name
	}
	return op.Kind.String()
}

// questions writes the questions about the run, then their answers.
func (h *Handout) questions() {
	qs := h.drawn
	source := "drawn from the run's decisions"
	if h.asks != nil {
		qs, _ = h.asks.Questions() // the ones the run settles; check reports the rest
		source = "the scenario's"
	}
	if len(qs) == 0 {
		return
	}
	fmt.Fprintf(h.w, "\n## Questions\n\n%d question%s, %s; each is asked before the event that answers it (%s asks them as the run goes).\n\n",
		len(qs), plural(len(qs)), source, safetext.CodeSpan("schedlab tui "+h.opens()+" --quiz"))
	for i, q := range qs {
		fmt.Fprintf(h.w, "%d. Before event %d: %s\n", i+1, q.At+1, safetext.Markdown(q.Text))
		for k, c := range q.Choices {
			fmt.Fprintf(h.w, "   - %c) %s\n", 'a'+k, safetext.Markdown(c))
		}
	}
	h.w.WriteString("\n## Answers\n\n")
	for i, q := range qs {
		fmt.Fprintf(h.w, "%d. %c) %s. %s\n", i+1, 'a'+q.Answer, safetext.Markdown(q.Correct()), safetext.Markdown(strings.Join(q.Why, " ")))
	}
}
