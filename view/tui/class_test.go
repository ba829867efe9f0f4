package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/teach/class"
)

// fakeClass is the classroom server as the UI sees it, with the room
// made up by the test.
type fakeClass struct {
	live    []class.Live
	numbers map[string]int
	tally   map[int][]int
	joined  int
}

func (f *fakeClass) Publish(l class.Live) { f.live = append(f.live, l) }
func (f *fakeClass) Number(id string) int {
	if f.numbers == nil {
		f.numbers = map[string]int{}
	}
	if _, ok := f.numbers[id]; !ok {
		f.numbers[id] = len(f.numbers) + 1
	}
	return f.numbers[id]
}
func (f *fakeClass) Tally(q int) []int { return f.tally[q] }
func (f *fakeClass) Joined() int       { return f.joined }
func (f *fakeClass) JoinURL() string   { return "http://192.168.1.20:7010/?code=K7M2PQ9X" }
func (f *fakeClass) last() class.Live  { return f.live[len(f.live)-1] }

func newClassApp(t *testing.T, name string, quiz bool) (*App, *fakeClass) {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeClass{tally: map[int][]int{}}
	a, err := New(sc, sc.Config(), Options{Class: f, Quiz: quiz, Source: name})
	if err != nil {
		t.Fatal(err)
	}
	return a, f
}

// Each frame that shows something new is published: the event's
// sentence, every P, the queues, a timeline; a question with its number
// and no answer until the reveal. A frame that shows nothing new is not.
func TestClassPublishesTheFrame(t *testing.T) {
	a, f := newClassApp(t, "tour", false)
	draw(t, a, 100, 30)
	l := f.last()
	if !strings.HasPrefix(l.Title, "tour — ") || !strings.HasPrefix(l.Event, "Event 1, at ") || len(l.Procs) != a.sess.Config().Procs ||
		!strings.Contains(l.Queues, "global queue: ") || !strings.HasPrefix(string(l.Timeline), "<svg") || l.Question != nil || l.Note == "" {
		t.Fatalf("the first frame published %+v", l)
	}
	n := len(f.live)
	draw(t, a, 100, 30)
	if len(f.live) != n {
		t.Errorf("the same frame was published again")
	}
	keys(a, "l")
	draw(t, a, 100, 30)
	l = f.last()
	if l.Question == nil || l.Question.Number != 1 || l.Question.Text != "Where does G2 go?" || l.Reveal != nil {
		t.Fatalf("the question is published as %+v, reveal %+v", l.Question, l.Reveal)
	}
	key(a, tcell.KeyEnter, 0)
	draw(t, a, 100, 30)
	l = f.last()
	q := a.sess.question(a.quiz.at)
	if l.Reveal == nil || l.Reveal.Answer != q.Answer || len(l.Reveal.Why) == 0 {
		t.Fatalf("the reveal is published as %+v", l.Reveal)
	}
}

// While a question is open the teacher sees how many answered, not how
// (the screen is projected); enter reveals a bar per choice before the
// explanation, and the question is not asked again on the way back.
func TestClassRevealShowsTheSpread(t *testing.T) {
	a, f := newClassApp(t, "tour", false)
	f.joined = 5
	keys(a, "l")
	q := a.sess.question(a.quiz.at)
	tally := make([]int, len(q.Choices))
	tally[q.Answer] = 3
	tally[(q.Answer+1)%len(q.Choices)] = 1
	f.tally[1] = tally
	screen := draw(t, a, 100, 30).text
	if !strings.Contains(screen, "class: 4 of 5 answered · enter reveals the answer") || strings.Contains(screen, "█") {
		t.Fatalf("the open question:\n%s", screen)
	}
	if !strings.Contains(screen, "class: 5 joined") {
		t.Errorf("the header does not say how many joined:\n%s", screen)
	}
	key(a, tcell.KeyEnter, 0)
	screen = draw(t, a, 100, 30).text
	bars, result, why := strings.Index(screen, "████"), strings.Index(screen, "class: 4 answered, 3 right (75%)"), strings.Index(screen, "into P0's runnext")
	if bars < 0 || result < 0 || why < 0 || !(bars < result && result < why) {
		t.Fatalf("the reveal shows no bars, result or explanation in that order:\n%s", screen)
	}
	if !strings.Contains(screen, " 3  75%") || !strings.Contains(screen, " 1  25%") {
		t.Errorf("the bars do not count the answers:\n%s", screen)
	}
	if right, answered := a.sess.Score(); right != 0 || answered != 0 {
		t.Errorf("the class's reveal scored the teacher %d/%d", right, answered)
	}
	keys(a, "lhl")
	if a.quiz != nil && !a.quiz.revealed {
		t.Errorf("the revealed question was asked again")
	}
}

// u shows the address and its QR code in class mode only; esc closes it
// without skipping the question under it.
func TestClassJoinKey(t *testing.T) {
	plain := newApp(t, "tour", false)
	keys(plain, "u")
	if !strings.Contains(plain.message, `no key 'u'`) || strings.Contains(KeyTableFor(plain), "| `u` |") {
		t.Errorf("u outside class mode: %q", plain.message)
	}
	a, _ := newClassApp(t, "tour", false)
	keys(a, "lu")
	screen := draw(t, a, 100, 40).text
	if !strings.Contains(screen, "http://192.168.1.20:7010/?code=K7M2PQ9X") || !strings.Contains(screen, "▀") || !strings.Contains(screen, "▄") {
		t.Fatalf("u does not show the address and a QR code:\n%s", screen)
	}
	checkQR(t, screen, "http://192.168.1.20:7010/?code=K7M2PQ9X")
	if small := draw(t, a, 80, 24).text; !strings.Contains(small, "?code=K7M2PQ9X") {
		t.Errorf("a small terminal loses the address:\n%s", small)
	}
	key(a, tcell.KeyEscape, 0)
	if a.class.showJoin || a.quiz == nil {
		t.Errorf("esc: overlay %v, question %v; want the overlay closed and the question open", a.class.showJoin, a.quiz != nil)
	}
	fresh, _ := newClassApp(t, "tour", false)
	if !strings.Contains(draw(t, fresh, 160, 30).text, "u join") || strings.Contains(draw(t, plain, 160, 30).text, "u join") {
		t.Errorf("the status bar offers u outside class mode or not in it")
	}
}

// KeyTableFor is the help's list of a's keys, for the test above.
func KeyTableFor(a *App) string {
	var b strings.Builder
	for _, k := range a.keys {
		b.WriteString("| `" + k.Label + "` |")
	}
	return b.String()
}

// A student joining or answering while the UI is paused makes the next
// tick draw; nothing else does.
func TestClassRoomChangesRedraw(t *testing.T) {
	a, f := newClassApp(t, "tour", false)
	draw(t, a, 100, 30)
	if a.classTick() {
		t.Fatal("a tick with nothing new would draw")
	}
	f.joined++
	if !a.classTick() {
		t.Fatal("a student joined and the paused UI would not show it")
	}
	draw(t, a, 100, 30)
	keys(a, "l")
	draw(t, a, 100, 30)
	f.tally[1] = []int{1}
	if !a.classTick() {
		t.Error("an answer came and the paused UI would not show it")
	}
	if newApp(t, "tour", false).classTick() {
		t.Error("a UI out of class mode ticks for the class")
	}
}

// The scenario's questions (ask:) are posed to the class without --quiz;
// with it, the model's own too.
func TestClassAsksWithAndWithoutQuiz(t *testing.T) {
	a, _ := newClassApp(t, "tour", false)
	if !a.sess.Quizzing() || a.sess.quiz.gen != nil {
		t.Errorf("class mode without --quiz: quizzing %v, generating %v", a.sess.Quizzing(), a.sess.quiz != nil && a.sess.quiz.gen != nil)
	}
	b, _ := newClassApp(t, "tour", true)
	if b.sess.quiz.gen == nil {
		t.Errorf("class mode with --quiz does not pose the model's questions")
	}
}

// checkQR reads the QR code drawn in half blocks back into modules and
// compares them with the code of url: light is the block's foreground.
func checkQR(t *testing.T, screen, url string) {
	t.Helper()
	want, err := class.QR(url)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(screen, "\n") {
		// The code's rows are the ones of blocks between the box's sides.
		if i := strings.Index(line, "│    █"); i >= 0 {
			inner := line[i+len("│    "):]
			inner, _, _ = strings.Cut(inner, "    │")
			rows = append(rows, inner)
		}
	}
	var got [][]bool // dark modules, quiet zone included
	for _, r := range rows {
		var top, bottom []bool
		for _, c := range r {
			top = append(top, c == ' ' || c == '▄')
			bottom = append(bottom, c == ' ' || c == '▀')
		}
		got = append(got, top, bottom)
	}
	const quiet = 2
	n := len(want)
	if len(got) < n+2*quiet {
		t.Fatalf("%d rows of modules drawn, want %d", len(got), n+2*quiet)
	}
	for y := range n + 2*quiet {
		for x := range n + 2*quiet {
			dark := y >= quiet && x >= quiet && y < n+quiet && x < n+quiet && want[y-quiet][x-quiet]
			if len(got[y]) != n+2*quiet || got[y][x] != dark {
				t.Fatalf("module (%d,%d) of the drawn code is wrong:\n%s", x, y, strings.Join(rows, "\n"))
			}
		}
	}
}

// A new seed (s) in class mode poses the scenario's questions only, as
// the first run did, unless --quiz asked for the model's too.
func TestClassReseedKeepsTheQuestions(t *testing.T) {
	a, _ := newClassApp(t, "tour", false)
	keys(a, "s")
	if !a.sess.Quizzing() || a.sess.quiz.gen != nil {
		t.Errorf("after s: quizzing %v, generating %v", a.sess.Quizzing(), a.sess.quiz != nil && a.sess.quiz.gen != nil)
	}
}
