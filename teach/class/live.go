package class

import (
	"slices"
	"unicode/utf8"
)

// Live is what the students see: the teacher's UI at one moment. It is a
// value; Publish copies what it keeps, so the caller may reuse its
// slices afterwards.
type Live struct {
	Title string // the scenario: name and title
	Event string // the current event's sentence
	Note  string // the scenario's note on it, if any
	Procs []ProcRow
	// Queues is the global queue and the rest of the run's state the UI
	// shows beside the Ps, one item a line.
	Queues string
	// Timeline is an SVG image of what ran where (view/export's), or nil.
	Timeline []byte
	// Question is the question open on the teacher's screen, or nil.
	Question *Question
	// Reveal is its answer, once the teacher reveals it; nil while the
	// students may still answer.
	Reveal *Reveal
}

// ProcRow is one P as the UI shows it.
type ProcRow struct {
	P     string `json:"p"`
	State string `json:"state"` // idle, run, sys, sched…
	M     string `json:"m"`     // the thread holding it, or "-"
	G     string `json:"g"`     // the goroutine it runs, or "-"
	Next  string `json:"next"`  // runnext, or "-"
	Ring  string `json:"ring"`  // the local run queue
}

// Question is an open question. Number identifies it for answers (the
// form's q); the students answer with a choice's place, from 1.
type Question struct {
	Number  int
	Text    string
	Choices []string
}

// Reveal is a question's answer.
type Reveal struct {
	Answer int      // the right choice's index into Choices, from 0
	Why    []string // the worked answer, a paragraph each
}

// Bounds on what one Live carries to every student: the scenario's text
// is not the server's to trust, and each student gets a copy of it on
// every change.
const (
	maxText     = 4000    // bytes of one string
	maxProcs    = 64      // rows of Ps
	maxChoices  = 9       // the UI answers with a digit
	maxWhy      = 12      // paragraphs of a worked answer
	maxTimeline = 1 << 20 // bytes of SVG
)

// clip cuts s to at most maxText bytes, on a character boundary.
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	s = s[:maxText]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// wireQuestion is a question as the page and the event stream carry it.
type wireQuestion struct {
	Number  int      `json:"n"`
	Text    string   `json:"text"`
	Choices []string `json:"choices"`
	// Answer is the right choice from 1, 0 until it is revealed.
	Answer int      `json:"answer"`
	Why    []string `json:"why,omitempty"`
}

// wireState is the shared part of what a student is sent: the page's
// template and the event stream's JSON render the same value.
type wireState struct {
	Version uint64    `json:"v"`
	Title   string    `json:"title"`
	Event   string    `json:"event"`
	Note    string    `json:"note"`
	Procs   []ProcRow `json:"procs"`
	More    int       `json:"more"` // Ps past the rows sent
	Queues  string    `json:"queues"`
	// Timeline is the version of /timeline.svg, 0 when there is none.
	Timeline uint64 `json:"timeline"`
	// Question is the open question, or the one just revealed.
	Question *wireQuestion `json:"question"`
	// Last is the last question revealed, while none is open: a student
	// who looked away still sees its answer.
	Last *wireQuestion `json:"last"`
}

// record is a question as the server remembers it for the summary.
type record struct {
	q      wireQuestion
	answer int // from 0; -1 until revealed
}

// bounded returns l's strings and slices cut to the bounds, copied.
func bounded(l Live) (ws wireState, q *Question, rev *Reveal) {
	ws = wireState{Title: clip(l.Title), Event: clip(l.Event), Note: clip(l.Note), Queues: clip(l.Queues)}
	n := min(len(l.Procs), maxProcs)
	ws.Procs = make([]ProcRow, n)
	for i, p := range l.Procs[:n] {
		ws.Procs[i] = ProcRow{P: clip(p.P), State: clip(p.State), M: clip(p.M), G: clip(p.G), Next: clip(p.Next), Ring: clip(p.Ring)}
	}
	ws.More = len(l.Procs) - n
	if l.Question != nil && l.Question.Number > 0 && len(l.Question.Choices) >= 2 {
		q = &Question{Number: l.Question.Number, Text: clip(l.Question.Text)}
		for _, c := range l.Question.Choices[:min(len(l.Question.Choices), maxChoices)] {
			q.Choices = append(q.Choices, clip(c))
		}
		if l.Reveal != nil && l.Reveal.Answer >= 0 && l.Reveal.Answer < len(q.Choices) {
			rev = &Reveal{Answer: l.Reveal.Answer}
			for _, w := range l.Reveal.Why[:min(len(l.Reveal.Why), maxWhy)] {
				rev.Why = append(rev.Why, clip(w))
			}
		}
	}
	return ws, q, rev
}

// wire is q as students see it, with its answer when revealed.
func wire(q *Question, rev *Reveal) *wireQuestion {
	w := &wireQuestion{Number: q.Number, Text: q.Text, Choices: slices.Clone(q.Choices)}
	if rev != nil {
		w.Answer = rev.Answer + 1
		w.Why = slices.Clone(rev.Why)
	}
	return w
}
