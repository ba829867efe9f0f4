package scenarios

import (
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/schedlab/schedlab/core/gmp"
)

// NoteTracker places a scenario's notes on the events of its run as the
// run goes, each on the event its moment names. The trace and the UI both
// read it, so they place every note alike, and number the notes in the
// order a viewer meets them.
type NoteTracker struct {
	notes  []Note
	match  []*gmp.MomentMatcher
	at     []int // the event each note is on, -1 until placed
	number []int // 1-based, in the order placed; 0 until placed
	placed int
}

// NewNoteTracker prepares to place notes.
func NewNoteTracker(notes []Note) *NoteTracker {
	t := &NoteTracker{notes: notes, match: make([]*gmp.MomentMatcher, len(notes)),
		at: make([]int, len(notes)), number: make([]int, len(notes))}
	for i, n := range notes {
		t.match[i] = gmp.NewMomentMatcher(n.Moment)
		t.at[i] = -1
	}
	return t
}

// Observe feeds event i of the run and returns the notes placed on it,
// in file order.
func (t *NoteTracker) Observe(i int, e *gmp.Event) []int {
	var out []int
	for n, m := range t.match {
		if t.at[n] < 0 && m.Match(e) {
			t.at[n] = i
			t.placed++
			t.number[n] = t.placed
			out = append(out, n)
		}
	}
	return out
}

// At is the event note n is on, or -1 while the run has not reached it.
func (t *NoteTracker) At(n int) int { return t.at[n] }

// Number is note n's place in the order a viewer meets the notes,
// counting from 1; a note not reached yet comes after those reached, in
// file order.
func (t *NoteTracker) Number(n int) int {
	if t.number[n] > 0 {
		return t.number[n]
	}
	k := t.placed
	for i := 0; i <= n; i++ {
		if t.at[i] < 0 {
			k++
		}
	}
	return k
}

// Len is how many notes there are.
func (t *NoteTracker) Len() int { return len(t.notes) }

// Unreached lists the notes the run did not reach, in file order.
func (t *NoteTracker) Unreached() []int {
	var out []int
	for n := range t.notes {
		if t.at[n] < 0 {
			out = append(out, n)
		}
	}
	return out
}

func (p *reader) notes(n ast.Node) []Note {
	seq, ok := p.resolve(n).(*ast.SequenceNode)
	if !ok {
		p.errorf(n, "write a list of {at: 1ms, text: …} or {on: steal, text: …}", "notes must be a list")
		return nil
	}
	var out []Note
	for _, item := range seq.Values {
		m, ok := p.resolve(item).(*ast.MappingNode)
		if !ok {
			p.errorf(item, "write {at: 1ms, text: …} or {on: steal, text: …}", "a note must be a mapping")
			continue
		}
		f := p.mapping(m, []string{"at", "on", "text"}, "note")
		note := Note{Pos: p.pos(item), Moment: p.moment(m, f, "a note")}
		if t, ok := f["text"]; ok {
			note.Text = strings.TrimSpace(p.str(t, "text"))
			if note.Text == "" {
				p.errorf(t, "write the caption to show", "a note's text is empty")
			}
		} else {
			p.errorf(m, "write the caption to show", "a note has no text:")
		}
		out = append(out, note)
	}
	return out
}

func kindNames() []string {
	var out []string
	for _, k := range gmp.Kinds() {
		out = append(out, k.String())
	}
	return out
}
