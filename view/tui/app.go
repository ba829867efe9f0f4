package tui

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
)

// Panels that can take focus.
const (
	focusProcs = iota
	focusLog
	numFocus
)

// App is the UI: a session, what the user is looking at, and the key
// table. Its methods run on tview's event goroutine only.
type App struct {
	sess    *Session
	theme   *Theme
	keys    []Binding
	root    *rootView
	tv      *tview.Application // nil in tests
	stopped bool
	focus   int
	// The full view's panels that keep state: what they show, how far
	// they scroll.
	panels
	// drawn is the full view's layout as last drawn, which scrolling
	// keeps within.
	drawn layout
	// keepTimeline keeps the timeline on a small screen where every P
	// would fit only without it (t).
	keepTimeline bool
	// screen is the screen last drawn on, read back to see what a click
	// landed on.
	screen tcell.Screen
	found  gmp.GID
	prompt *prompt // the status bar's line of input, when one is open
	next   *Switch // what the UI is to become, when it stops for that
	// searchText is what / looks for in the events, lower case ("" when
	// it looks for a goroutine, a.found).
	searchText string
	help       bool
	// deadlockShown is set once the run's deadlock has opened the list.
	deadlockShown bool
	playing       bool
	pace          pace   // how fast playback goes
	play          player // what playback owes
	message       string // one-line feedback in the status bar
	runs          runs   // the run shown, or the split view's two in lockstep
	opts          Options
	quiz          *quizView // the question open on screen, if any
	job           *job      // long work in progress, a slice a frame
	// causeTrail are the events c left, for C to go back to.
	causeTrail []int
	class      classState // class mode's (class.go)
	// blank is set while b blanks the screen (presenting).
	blank bool
	// pub publishes the presenter's position; fol follows one
	// (follow.go). At most one is set.
	pub *publisher
	fol *follower
	// ticks counts the player's ticks, for what polls less often.
	ticks int
	// watch reloads the scenario file when it changes (watch.go).
	watch *watcher
	// picker is the list o opens (picker.go), nil when closed.
	picker *picker
}

// Options configure a UI.
type Options struct {
	Mono bool // no colours, whatever the terminal says
	// Theme names the theme (Themes): "auto" (or ""), "default",
	// "light", "projector" or "mono".
	Theme string
	// Light says the terminal's background is light (Background): auto
	// and projector then take their light forms.
	Light bool
	// ASCII draws only ASCII characters (UTF8Locale says when a terminal
	// needs it).
	ASCII bool
	// NoMouse leaves the mouse to the terminal (for selecting text).
	NoMouse bool
	// Source is the name the scenario was opened by (a built-in or a
	// file), for v to open it again in the other view.
	Source string
	// Quiz asks questions as the run goes: the scenario's (ask:) and the
	// model's own at its decisions.
	Quiz bool
	// Class is the classroom server in class mode (schedlab class), nil
	// otherwise: the scenario's questions are posed to the class, and
	// with Quiz the model's too (class.go).
	Class ClassHook
	// StartAt opens the run at this simulated moment: its last event at
	// or before it (v keeps the time it switches at).
	StartAt sim.Time
	// Present is presenter mode (present.go): playback pauses at notes
	// and questions, the note of the moment shows large, no key hints.
	Present bool
	// Session publishes the presenter's position under this name, for
	// a second terminal's NotesFor (follow.go).
	Session string
	// NotesFor follows the presenter of this session: the screen is the
	// speaker notes, the note on screen and the next to come.
	NotesFor string
}

// New returns the UI for a run of sc with cfg. It fails before any screen
// is touched if the configuration cannot run.
func New(sc *scenarios.Scenario, cfg gmp.Config, o Options) (*App, error) {
	sess, err := NewSession(sc, cfg)
	if err != nil {
		return nil, err
	}
	a := &App{sess: sess, theme: NewTheme(o), keys: keysFor(o), pace: newPace(), opts: o}
	a.runs = solo{a}
	a.root = newRootView(a)
	if o.StartAt > 0 {
		sess.seekTime(o.StartAt)
	}
	if o.Session != "" {
		path, err := SessionPath(o.Session)
		if err != nil {
			return nil, err
		}
		a.pub = &publisher{path: path, last: position{Event: -2}}
		a.message = "presenting; speaker notes on a second terminal: schedlab tui " + a.source() + " --notes-for " + o.Session
	}
	if o.NotesFor != "" {
		path, err := SessionPath(o.NotesFor)
		if err != nil {
			return nil, err
		}
		a.fol = &follower{session: o.NotesFor, path: path, nextFrom: -1}
		a.follow()
	}
	a.message = firstRunHint(sc)
	if (o.Present || o.Class != nil) && !o.Quiz {
		// A class, or a presenter's audience, is asked the scenario's
		// own questions, not the model's at every decision.
		if err := sess.EnableQuiz(false); err != nil {
			a.message = "some of the scenario's questions cannot be asked: " + err.Error()
		}
		if o.Present && (a.message == "" || a.message == firstRunHint(sc)) {
			a.message = "presenting: space plays and pauses at each note, b blanks the screen, ' jumps to a mark"
		}
	}
	if o.Quiz {
		if err := sess.EnableQuiz(true); err != nil {
			a.message = "some of the scenario's questions cannot be asked: " + err.Error()
		}
	}
	return a, nil
}

// Panes returns the sessions of the split view, or nil in the full view.
func (a *App) Panes() []*Session { return a.runs.paneRuns() }

// Session returns the session the UI shows.
func (a *App) Session() *Session { return a.sess }

// Root is the primitive that draws the whole screen.
func (a *App) Root() tview.Primitive { return a.root }

// Bindings returns the key table.
func (a *App) Bindings() []Binding { return a.keys }

// Stopped reports whether the user asked to quit.
func (a *App) Stopped() bool { return a.stopped }

// HandleKey is the input handler: tview calls it for every key, and tests
// call it directly.
func (a *App) HandleKey(ev *tcell.EventKey) *tcell.EventKey {
	defer a.publish()
	if a.blankKey(ev) {
		return nil
	}
	if a.jobKey(ev) {
		return nil
	}
	if a.quizKey(ev) {
		return nil
	}
	if a.pickerKey(ev) {
		return nil
	}
	if a.prompt != nil {
		a.promptKey(ev)
		return nil
	}
	for i := range a.keys {
		if a.keys[i].match(ev) {
			a.message = ""
			a.keys[i].Do(a)
			return nil
		}
	}
	if ev.Key() == tcell.KeyRune {
		a.message = fmt.Sprintf("no key %q: press ? for the keys", ev.Rune())
	}
	return nil
}

// Run shows the UI on screen (the terminal when screen is nil) until the
// user quits. The terminal is restored however it ends.
func (a *App) Run(screen tcell.Screen) error {
	tick := time.NewTicker(tickEvery)
	defer tick.Stop()
	return a.run(screen, tick.C)
}

// tickEvery is how often playback moves on: a frame.
const tickEvery = time.Second / 30

// run is Run with the player's clock given: tests tick it themselves.
func (a *App) run(screen tcell.Screen, tick <-chan time.Time) (err error) {
	a.tv = tview.NewApplication()
	if screen != nil {
		a.tv.SetScreen(screen)
	}
	a.tv.SetRoot(a.root, true).SetInputCapture(a.HandleKey)
	// The mouse finds goroutines, scrolls and answers questions, unless
	// the terminal should keep it for selecting text (--no-mouse).
	a.tv.EnableMouse(!a.opts.NoMouse)
	done := make(chan struct{})
	crashed := make(chan string, 1)
	go a.player(done, crashed, tick)
	sigs := make(chan os.Signal, 1)
	stopSignals := notifyEnding(sigs)
	defer stopSignals()
	ended := make(chan os.Signal, 1)
	go func() {
		select {
		case sig := <-sigs:
			ended <- sig
			a.tv.Stop() // Run restores the terminal on its way out
		case <-done:
		}
	}()
	err = a.tv.Run()
	close(done)
	select {
	case msg := <-crashed:
		return fmt.Errorf("internal error in the player: %s", msg)
	default:
	}
	select {
	case sig := <-ended:
		if err == nil {
			err = endedBy(sig)
		}
	default:
	}
	return err
}

// endedBy is how the UI ended when a signal stopped it: the signal by
// its name, as kill -l writes it ("stopped by SIGTERM"), not its
// description ("terminated").
func endedBy(sig os.Signal) error {
	return fmt.Errorf("stopped by %s", signalName(sig))
}

// suspend gives the terminal back and stops the process (ctrl-z); the UI
// comes back as it was when the shell continues it.
func (a *App) suspend() {
	if a.tv == nil {
		return
	}
	a.playing = false
	a.tv.Suspend(suspendSelf)
}

// player advances playback on every tick while the UI runs. A tick while
// paused draws nothing: an idle screen writes nothing to the terminal.
func (a *App) player(done <-chan struct{}, crashed chan<- string, tick <-chan time.Time) {
	defer func() {
		// A panic here would kill the process with the terminal still in
		// raw mode: stop the application so that Run restores it, and let
		// Run report what happened.
		if p := recover(); p != nil {
			crashed <- fmt.Sprintf("%v\n%s", p, debug.Stack())
			a.tv.Stop()
		}
	}()
	for {
		select {
		case <-done:
			return
		case <-tick:
			// A job runs a slice per update, the player waiting for each:
			// between two, the event loop has nothing of the player's
			// queued, so a key pressed meanwhile (esc) is handled after
			// the slice under way, not after the frame's worth.
			busy, changed := false, false
			if !a.update(done, func() {
				changed = a.onTick()
				if a.job == nil && a.playing {
					a.Advance(tickEvery)
					changed = true
				}
				busy = a.job != nil
			}) {
				return
			}
			for start := time.Now(); busy && time.Since(start) < jobBudget; {
				if !a.update(done, func() { busy = a.stepJobOnce() }) {
					return
				}
				changed = true
			}
			if !a.update(done, func() {
				a.publish()
				// A student who joined or answered changes the class's
				// line, which a paused UI would not draw on its own.
				if changed || a.classTick() {
					a.tv.ForceDraw()
				}
			}) {
				return
			}
		}
	}
}

// update runs f on the event goroutine and waits for it; false when the
// UI stopped first (f may then never run).
func (a *App) update(done <-chan struct{}, f func()) bool {
	ran := make(chan struct{})
	a.tv.QueueUpdate(func() { f(); close(ran) })
	select {
	case <-ran:
		return true
	case <-done:
		return false
	}
}

// Polling periods, in the player's ticks: the presenter's file for the
// follower, four times a second; the scenario file for --watch, twice.
const (
	followEvery = 8
	watchEvery  = 15
)

// onTick does what the player's clock drives besides playback: following
// a presenter, watching the scenario file. It reports whether the screen
// changes.
func (a *App) onTick() bool {
	a.ticks++
	changed := false
	if a.fol != nil && a.ticks%followEvery == 0 {
		changed = a.follow() || changed
	}
	if a.watch != nil && a.ticks%watchEvery == 0 {
		changed = a.checkWatch() || changed
	}
	return changed
}

// Advance moves playback on by what dt of wall time makes due at the
// pace: so many events, or the events up to a simulated moment.
func (a *App) Advance(dt time.Duration) {
	if !a.playing {
		return
	}
	n := 0
	if a.pace.byTime {
		// Each frame steps at most a job's slice: a dense moment plays
		// over several frames rather than freezing one.
		until := a.play.until(a.pace, dt)
		for n < jobSlice {
			next, ok := a.runs.nextAt()
			if ok && next > until {
				break
			}
			if !ok {
				a.stopAtEnd()
				return
			}
			n++
			if !a.stepOne() {
				return // the end, or a question to answer
			}
		}
		a.log.back = 0
		return
	}
	n = a.play.events(a.pace, dt)
	if n > 0 && a.quizGate(n) {
		return
	}
	for range n {
		if !a.stepOne() {
			return
		}
	}
	a.log.back = 0
}

// stepOne takes one step of playback; at the end it stops and says so.
func (a *App) stepOne() bool {
	if a.pace.byTime && a.quizGate(1) {
		return false
	}
	if a.runs.forward(1) < 1 {
		a.stopAtEnd()
		return false
	}
	return !a.pauseAtNote()
}

// stopAtEnd stops playback at the end of the run, saying how it ended.
func (a *App) stopAtEnd() {
	a.playing = false
	a.message = a.runs.endMessage()
}

func (a *App) togglePlay() {
	if !a.playing && a.runs.atEnd() {
		a.message = "at the end of the run: press r to restart"
		return
	}
	a.closeRevealed()
	if a.quiz != nil {
		a.message = "answer the question first, or esc to skip it"
		return
	}
	a.playing = !a.playing
	a.play.start(a.runs.now())
}

// togglePace switches playback between events and simulated time a
// second.
func (a *App) togglePace() {
	a.pace.byTime = !a.pace.byTime
	a.play.start(a.runs.now())
	a.message = "playback pace " + a.pace.String()
}

// endMessage says how the run of s ended, with the quiz's score.
func endMessage(s *Session) string {
	msg := "end of the run: " + s.EndSummary()
	if score := scoreLine(s); score != "" {
		msg += " · " + score
	}
	if next := nextInPath(s.Scenario()); next != "" {
		msg += " · " + next
	}
	return msg
}

// leaveQuestion closes the open question without answering it, for moves
// that jump: it is asked again when a step reaches it.
func (a *App) leaveQuestion() { a.quiz = nil }

// stopAt stops the run where it is before a key moves the cursor: it
// pauses playback, leaves the open question (asked again when a step
// reaches it) and brings the log back to the cursor, so the screen
// follows the move.
func (a *App) stopAt() {
	a.leaveQuestion()
	a.playing = false
	a.log.back = 0
}

func (a *App) stepForward() {
	a.playing = false
	a.log.back = 0
	a.closeRevealed()
	if a.quizGate(1) {
		return
	}
	if msg := a.runs.step(); msg != "" {
		a.message = msg
	}
}

func (a *App) stepBack() {
	a.stopAt()
	if msg := a.runs.back(); msg != "" {
		a.message = msg
	}
}

func (a *App) last() {
	a.stopAt()
	a.startJob(a.toEnd())
}

func (a *App) nextNote() {
	a.stopAt()
	a.startJob(&job{what: "looking for the next note", step: func() bool {
		found, more := a.sess.nextNote(stepSlice)
		if !found && !more {
			a.message = "no later note"
		}
		return !more
	}})
}

func (a *App) prevNote() {
	a.stopAt()
	if !a.sess.PrevNote() {
		a.message = "no earlier note"
	}
}

func (a *App) faster() {
	a.pace.faster()
	a.message = "playback pace " + a.pace.String()
}

func (a *App) slower() {
	a.pace.slower()
	a.message = "playback pace " + a.pace.String()
}

func (a *App) restart() {
	a.stopAt()
	a.runs.restart()
	a.message = "restarted"
}

// reseed runs the scenario again with the next seed. The run so far is
// dropped; the new one starts at its first event. A scenario may draw
// nothing at random unless noise is on (tour, runnext: the model is
// deterministic, and one P's steal order or fixed durations leave the seed
// nothing to choose): when the new seed gives the very same run, so far
// as reseedCompare events show, noise is turned on, and the message says
// why, rather than promising a run that is not new.
func (a *App) reseed() {
	cfg := a.sess.Config()
	cfg.Seed++
	sess, err := NewSession(a.sess.Scenario(), cfg)
	if err != nil {
		a.message = err.Error()
		return
	}
	msg := "running again with seed " + strconv.FormatUint(cfg.Seed, 10)
	if !cfg.Noise && sameRun(a.sess, sess, reseedCompare, 1<<20) {
		cfg.Noise = true
		if noisy, err := NewSession(a.sess.Scenario(), cfg); err == nil {
			sess = noisy
			msg = fmt.Sprintf("no seed changes %s without noise, so noise is on now: thread wake-ups come late by amounts seed %d draws",
				a.sess.Scenario().Name, cfg.Seed)
		}
	}
	if a.sess.Quizzing() {
		// The answers stay with the old run: a new seed asks anew.
		_ = sess.EnableQuiz(a.opts.Quiz)
	}
	a.sess = sess
	a.stopAt()
	a.message = msg
}

// reseedCompare is how many events of the old run and the new are
// compared to tell whether a seed changed anything: a few milliseconds'
// work, and far enough for a seed's first draw to show.
const reseedCompare = 4096

func (a *App) nextFocus() { a.focus = (a.focus + 1) % numFocus }
func (a *App) prevFocus() { a.focus = (a.focus + numFocus - 1) % numFocus }

// scrolled is what the scroll keys and the wheel move: an open list, else
// the focused panel.
func (a *App) scrolled() scroller {
	switch {
	case a.gloss.open:
		return &a.gloss
	case a.glist.open:
		return &a.glist
	}
	return a.focusable()[a.focus]
}

func (a *App) scroll(n int) { a.scrolled().scroll(a.liveFrame(), n) }

func (a *App) scrollDown() { a.scroll(1) }
func (a *App) scrollUp()   { a.scroll(-1) }
func (a *App) pageDown()   { a.scroll(a.page()) }
func (a *App) pageUp()     { a.scroll(-a.page()) }

// page is how far pgdn and pgup scroll what they scroll.
func (a *App) page() int { return a.scrolled().page(a.liveFrame()) }

// toggleTimeline switches a small screen between every P and the
// timeline (with the Ps scrolling).
func (a *App) toggleTimeline() {
	a.keepTimeline = !a.keepTimeline
	a.procs.top = 0
}

// toCause goes to the event that caused the current one (what made a G
// runnable, who woke it, which request preempted it), remembering where
// it was so that C comes back.
func (a *App) toCause() {
	if a.sess.Cursor() < 0 {
		return
	}
	e := a.sess.Event(a.sess.Cursor())
	if e.Cause < 0 {
		a.message = "this event has no cause the model records"
		return
	}
	a.stopAt()
	a.causeTrail = append(a.causeTrail, a.sess.Cursor())
	a.sess.Seek(int(e.Cause))
	a.message = fmt.Sprintf("the cause of event %d; C goes back", a.causeTrail[len(a.causeTrail)-1]+1)
}

// fromCause goes back to where c came from.
func (a *App) fromCause() {
	n := len(a.causeTrail)
	if n == 0 {
		a.message = "no cause followed: c goes to the event's cause"
		return
	}
	a.stopAt()
	a.sess.Seek(a.causeTrail[n-1])
	a.causeTrail = a.causeTrail[:n-1]
}

func (a *App) startFind() {
	a.ask(&prompt{label: " find: ", hint: "a goroutine (5, G5) or words of the events · enter: find · esc: cancel", max: 64, enter: (*App).find})
}

func (a *App) find(text string) {
	raw := strings.TrimSpace(text)
	text = strings.TrimPrefix(strings.ToUpper(raw), "G")
	n, err := strconv.Atoi(text)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(text, "-") {
		a.message = fmt.Sprintf("no such goroutine: G%s is beyond any run's goroutines", text)
		return
	}
	if err != nil {
		if raw == "" {
			a.message = "type a goroutine, such as 5 or G5, or words of the events"
			return
		}
		a.found = gmp.NoG
		a.search(raw)
		return
	}
	if n <= 0 {
		a.message = fmt.Sprintf("%q is not a goroutine: they are numbered from G1", raw)
		return
	}
	a.searchText = ""
	if n > math.MaxInt32 {
		a.message = fmt.Sprintf("no such goroutine: G%d is beyond any run's goroutines", n)
		return
	}
	a.found = gmp.GID(n)
	a.message = ""
	if made, known := a.sess.madeGs(); known && n >= made {
		a.message = noSuchG(gmp.GID(n), made)
	} else if n >= a.sess.State().NumG() {
		a.message = fmt.Sprintf("G%d does not exist yet: n runs on to its creation", n)
	}
}

// noSuchG says that g is not one of the made goroutines of a finished run
// (NumG, one more than the highest id).
func noSuchG(g gmp.GID, made int) string {
	if made <= 2 {
		return fmt.Sprintf("no such goroutine: %v; the run makes only G1", g)
	}
	return fmt.Sprintf("no such goroutine: %v; the run makes G1–G%d", g, made-1)
}

func (a *App) nextOfFound() {
	if a.searchText != "" {
		a.stopAt()
		a.startJob(a.toNextMatch())
		return
	}
	if a.found == gmp.NoG {
		a.message = "find a goroutine or words first with /"
		return
	}
	a.stopAt()
	a.startJob(a.toNextOf(a.found))
}

func (a *App) prevOfFound() {
	if a.searchText != "" {
		a.stopAt()
		a.prevMatch()
		return
	}
	if a.found == gmp.NoG {
		a.message = "find a goroutine or words first with /"
		return
	}
	a.stopAt()
	if !a.sess.PrevEventOf(a.found) {
		a.message = fmt.Sprintf("no earlier event of %v", a.found)
	}
}

func (a *App) escape() {
	switch {
	case a.class.showJoin:
		a.class.showJoin = false
	case a.help:
		a.help = false
	case a.runs.dismiss():
	case a.gloss.open:
		a.gloss.open = false
	case a.listing.open:
		a.listing.open = false
	case a.glist.open:
		a.glist.open = false
	case a.found != gmp.NoG || a.searchText != "":
		a.found, a.searchText = gmp.NoG, ""
	}
}

func (a *App) toggleHelp() { a.help = !a.help }

func (a *App) toggleGoroutines() { a.glist.toggle() }

func (a *App) toggleSource() { a.listing.toggle() }

func (a *App) quit() {
	a.stopped = true
	if a.tv != nil {
		a.tv.Stop()
	}
}
