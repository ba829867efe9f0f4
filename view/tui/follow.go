package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
)

// The presenter's position, for a second terminal (schedlab tui NAME
// --notes-for SESSION): the presenter writes it to a small file named by
// the session under the temporary directory on each move; the follower
// polls it on the UI's ticker, moves its own run of the same scenario to
// the same event, and shows the note on screen and the next one to come.
// The file is another process's, in a directory others can write to: the
// follower reads it as untrusted input, a regular file of at most
// maxPosition bytes in a strict form, checked before it is used.

// position is where the presenter is.
type position struct {
	Scenario string `json:"scenario"`
	Event    int    `json:"event"` // the cursor, from 0
	Note     int    `json:"note"`  // the note shown (its index in the file), -1 for none
}

// maxPosition bounds the file: a position is a few dozen bytes.
const maxPosition = 4096

// sessionName is what a session may be called: it names a file.
var sessionName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)

// SessionPath is the file of session name, or an error saying what a
// name may be.
func SessionPath(name string) (string, error) {
	if !sessionName.MatchString(name) {
		return "", fmt.Errorf("session %q: use 1 to 32 letters, digits, - and _, starting with a letter or digit", name)
	}
	return filepath.Join(os.TempDir(), "schedlab-present-"+name+".json"), nil
}

// publisher writes the presenter's position when it changes.
type publisher struct {
	path string
	last position
	err  error
}

// publish writes where the presenter is, if it moved: to a new file put
// in place by rename, so that a follower never reads half of one and a
// file or link already at the path is replaced, not written through.
func (a *App) publish() {
	p := a.pub
	if p == nil {
		return
	}
	pos := position{Scenario: a.sess.Scenario().Name, Event: a.sess.Cursor(), Note: -1}
	if ns := a.sess.CurrentNotes(); len(ns) > 0 && !ns[0].Held {
		pos.Note = ns[0].Index
	}
	if pos == p.last && p.err == nil {
		return
	}
	p.last = pos
	data, _ := json.Marshal(pos)
	p.err = writeAtomic(p.path, data)
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schedlab-present-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// follower is the second terminal's side.
type follower struct {
	session, path string
	pos           position
	got           bool   // a position was read
	err           string // why the last read failed, "" when it did not
	next          *Note  // the note after the one on screen, when known
	nextMore      bool   // the next note is still being looked for
	nextFrom      int    // the event next was looked for from
}

// readPosition reads and checks the presenter's file.
func readPosition(path string) (position, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return position{}, errors.New("no presenter yet: start schedlab tui NAME --present --session SESSION")
	case err != nil:
		return position{}, err
	case !fi.Mode().IsRegular():
		return position{}, fmt.Errorf("%s is not a regular file", path)
	case fi.Size() > maxPosition:
		return position{}, fmt.Errorf("%s is %d bytes, more than a position takes", path, fi.Size())
	case !ownedByMe(fi):
		return position{}, fmt.Errorf("%s belongs to another user", path)
	}
	f, err := openNoFollow(path)
	if err != nil {
		return position{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPosition+1))
	if err != nil {
		return position{}, err
	}
	if len(data) > maxPosition {
		return position{}, fmt.Errorf("%s holds more than a position", path)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var pos position
	if err := dec.Decode(&pos); err != nil {
		return position{}, fmt.Errorf("%s does not hold a position: %v", path, err)
	}
	if dec.More() {
		return position{}, fmt.Errorf("%s holds more than a position", path)
	}
	if pos.Event < 0 || pos.Event > gmp.DefaultMaxEvents*100 || pos.Note < -1 {
		return position{}, fmt.Errorf("%s holds a position out of range", path)
	}
	return pos, nil
}

// follow reads the presenter's position and, when it moved, moves there.
// It reports whether the screen changes.
func (a *App) follow() bool {
	fl := a.fol
	if fl == nil || a.job != nil {
		return false
	}
	pos, err := readPosition(fl.path)
	if err != nil {
		changed := fl.err != err.Error()
		fl.err = err.Error()
		return changed
	}
	sc := a.sess.Scenario()
	if pos.Scenario != sc.Name {
		msg := fmt.Sprintf("the presenter shows %q, this terminal %q: open the same scenario", pos.Scenario, sc.Name)
		changed := fl.err != msg
		fl.err = msg
		return changed
	}
	if pos.Note >= len(sc.Notes) {
		pos.Note = -1
	}
	if fl.got && pos == fl.pos && fl.err == "" && !fl.nextMore {
		return false
	}
	fl.err, fl.got = "", true
	moved := pos != fl.pos
	fl.pos = pos
	if a.sess.Cursor() != pos.Event {
		target := pos.Event
		a.startJob(&job{what: "following the presenter", step: func() bool {
			a.sess.ForwardSteps(min(jobSlice, max(target-a.sess.Cursor(), 0)), stepSlice)
			if a.sess.Cursor() > target {
				a.sess.Seek(target)
			}
			return a.sess.Cursor() == target || a.sess.AtEnd()
		}})
	}
	if pos.Note >= 0 {
		a.sess.noteFocus = pos.Note
	}
	if moved || fl.nextFrom != a.sess.Cursor() {
		fl.next, fl.nextMore, fl.nextFrom = nil, true, a.sess.Cursor()
	}
	if fl.nextMore && a.job == nil {
		n, found, more := a.sess.peekNextNote(stepSlice * 4)
		fl.nextMore = more
		if found {
			fl.next = &n
		}
	}
	return true
}

// peekNextNote finds the note after the one shown, running the model on
// at most steps steps, without moving the cursor.
func (s *Session) peekNextNote(steps int) (n Note, found, more bool) {
	b := s.budget(steps)
	from := s.shownKey()
	for {
		next, best := -1, noteKey{}
		pending := false
		for k := range s.sc.Notes {
			at := s.noteEvent(k)
			if at < 0 {
				pending = true
				continue
			}
			key := noteKey{at, s.notes.Number(k)}
			if from.before(key) && (next < 0 || key.before(best)) {
				next, best = k, key
			}
		}
		if next >= 0 {
			m := s.sc.Notes[next]
			return Note{Index: next, Number: s.notes.Number(next), Event: best.event, Text: m.Text, HasAt: m.Moment.HasAt}, true, false
		}
		if !pending || s.hist.Done() {
			return Note{}, false, false
		}
		if s.hist.ExtendSteps(s.log.n+4096, b.left()); b.left() <= 1 {
			return Note{}, false, true
		}
	}
}

// followFrame is the follower's state as the speaker notes read it.
type followFrame struct {
	session  string
	got      bool
	err      string
	next     *Note
	nextMore bool
}

// speakerNotes fills the follower's screen: where the presenter is, the
// note on screen, the next one to come, and the event's sentence.
type speakerNotes struct{}

func (speakerNotes) shows(f frame) bool { return f.follow != nil }

func (speakerNotes) draw(c canvas, f frame) {
	t := f.theme
	fl := f.follow
	c.clear(t.Base)
	head := fmt.Sprintf(" speaker notes · session %s · %s", fl.session, f.sc.Name)
	if fl.got {
		head += fmt.Sprintf(" · the presenter is at event %d, t=%v", f.cursor+1, f.state.Now())
	}
	c.fill(0, c.w, 0, ' ', t.Focus)
	c.text(0, 0, truncate(head, c.w), t.Focus)
	row := 2
	write := func(title string, body string, bs tcell.Style) {
		if row >= c.h-1 {
			return
		}
		c.text(1, row, truncate(title, c.w-2), t.Title)
		row++
		for _, l := range wrap(body, c.w-4) {
			if row >= c.h-1 {
				return
			}
			c.text(3, row, l, bs)
			row++
		}
		row++
	}
	if fl.err != "" {
		write("waiting for the presenter", fl.err, t.Warn)
	}
	notes := f.sc.Notes
	switch {
	case len(f.notes) > 0 && f.notes[0].Event == f.cursor:
		n := f.notes[0]
		write(fmt.Sprintf("on screen now: note %d/%d", n.Number, len(notes)), reflow(n.Text), t.Slide)
	case len(f.notes) > 0:
		n := f.notes[0]
		write(fmt.Sprintf("last note: %d/%d, at event %d", n.Number, len(notes), n.Event+1), reflow(n.Text), t.Base)
	default:
		write("on screen now", "no note yet", t.Dim)
	}
	switch {
	case fl.next != nil:
		n := fl.next
		write(fmt.Sprintf("next: note %d/%d, at event %d (%d events on)", n.Number, len(notes), n.Event+1, n.Event-f.cursor), reflow(n.Text), t.Note)
	case fl.nextMore:
		write("next", "looking ahead for the next note…", t.Dim)
	default:
		write("next", "no later note", t.Dim)
	}
	if f.cursor >= 0 {
		write("the event", f.desc.Describe(f.events.Event(f.cursor)), t.Base)
	}
	c.text(1, c.h-1, truncate("this terminal follows the presenter · q quits", c.w-2), t.Dim)
}
