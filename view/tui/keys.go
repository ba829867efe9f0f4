package tui

import (
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Key is one key that can trigger a binding: a special key, or a rune
// (Code tcell.KeyRune).
type Key struct {
	Code tcell.Key
	Rune rune
}

// Binding is one entry of the key table. The same table dispatches keys,
// writes the status bar and lists the help overlay, so none of them can
// fall out of step with the others.
type Binding struct {
	Keys  []Key
	Label string // the keys as the help shows them
	Help  string // what the binding does
	Bar   string // its short form in the status bar; "" keeps it off the bar
	Do    func(a *App)
	// Class keeps the binding to class mode (schedlab class).
	Class bool
}

func r(c rune) Key      { return Key{Code: tcell.KeyRune, Rune: c} }
func k(c tcell.Key) Key { return Key{Code: c} }

// bindings is the key table, in the order the help lists it.
func bindings() []Binding {
	return []Binding{
		{Keys: []Key{r(' ')}, Label: "space", Help: "play or pause", Bar: "play", Do: (*App).togglePlay},
		{Keys: []Key{k(tcell.KeyRight), r('l')}, Label: "→ l", Help: "one event forward", Bar: "step", Do: (*App).stepForward},
		{Keys: []Key{k(tcell.KeyLeft), r('h')}, Label: "← h", Help: "one event back", Bar: "back", Do: (*App).stepBack},
		{Keys: []Key{r(']')}, Label: "]", Help: "next note", Bar: "note", Do: (*App).nextNote},
		{Keys: []Key{r('[')}, Label: "[", Help: "previous note", Do: (*App).prevNote},
		{Keys: []Key{r('\'')}, Label: "'", Help: "jump to a mark (marks:)", Do: (*App).startMark},
		{Keys: []Key{r('b')}, Label: "b", Help: "blank the screen", Do: (*App).toggleBlank},
		{Keys: []Key{r('+'), r('=')}, Label: "+", Help: "play faster", Bar: "speed", Do: (*App).faster},
		{Keys: []Key{r('-')}, Label: "-", Help: "play slower", Do: (*App).slower},
		{Keys: []Key{r('p')}, Label: "p", Help: "pace: events or sim time", Do: (*App).togglePace},
		{Keys: []Key{r('r'), k(tcell.KeyHome)}, Label: "r home", Help: "restart: the first event", Bar: "restart", Do: (*App).restart},
		{Keys: []Key{k(tcell.KeyEnd)}, Label: "end", Help: "last event (runs it all)", Do: (*App).last},
		{Keys: []Key{r('s')}, Label: "s", Help: "run again with a new seed", Bar: "seed", Do: (*App).reseed},
		{Keys: []Key{r('o')}, Label: "o", Help: "open another scenario", Do: (*App).startOpen},
		{Keys: []Key{r('v')}, Label: "v", Help: "split view: raw vs pool", Do: (*App).toggleView},
		{Keys: []Key{k(tcell.KeyTab)}, Label: "tab", Help: "focus the next panel", Bar: "focus", Do: (*App).nextFocus},
		{Keys: []Key{k(tcell.KeyBacktab)}, Label: "shift-tab", Help: "focus the previous panel", Do: (*App).prevFocus},
		{Keys: []Key{k(tcell.KeyDown), r('j')}, Label: "↓ j", Help: "scroll the focused panel", Do: (*App).scrollDown},
		{Keys: []Key{k(tcell.KeyUp), r('k')}, Label: "↑ k", Help: "scroll it back", Do: (*App).scrollUp},
		{Keys: []Key{k(tcell.KeyPgDn)}, Label: "pgdn", Help: "scroll a page", Do: (*App).pageDown},
		{Keys: []Key{k(tcell.KeyPgUp)}, Label: "pgup", Help: "scroll a page back", Do: (*App).pageUp},
		{Keys: []Key{r('t')}, Label: "t", Help: "every P, or the timeline", Do: (*App).toggleTimeline},
		{Keys: []Key{r('g')}, Label: "g", Help: "every goroutine: state, why", Do: (*App).toggleGoroutines},
		{Keys: []Key{r('c')}, Label: "c", Help: "go to the event's cause", Do: (*App).toCause},
		{Keys: []Key{r('C')}, Label: "C", Help: "back from the cause", Do: (*App).fromCause},
		{Keys: []Key{k(tcell.KeyEnter)}, Label: "enter", Help: "go to the selected event", Do: (*App).jumpToSelected},
		{Keys: []Key{r(':')}, Label: ":", Help: "go to an event or a time", Do: (*App).startGoto},
		{Keys: []Key{r('/')}, Label: "/", Help: "find a goroutine or words", Bar: "find", Do: (*App).startFind},
		{Keys: []Key{r('n')}, Label: "n", Help: "next event found", Do: (*App).nextOfFound},
		{Keys: []Key{r('N')}, Label: "N", Help: "its previous event", Do: (*App).prevOfFound},
		{Keys: []Key{k(tcell.KeyEscape)}, Label: "esc", Help: "close help, clear the find", Do: (*App).escape},
		{Keys: []Key{r('L')}, Label: "L", Help: "what every word means", Do: (*App).toggleGlossary},
		{Keys: []Key{r('S')}, Label: "S", Help: "the event's source line", Do: (*App).toggleSource},
		{Keys: []Key{r('u')}, Label: "u", Help: "class: the URL and QR code to join", Bar: "join", Do: (*App).toggleJoin, Class: true},
		{Keys: []Key{r('?')}, Label: "?", Help: "show or hide this help", Bar: "help", Do: (*App).toggleHelp},
		{Keys: []Key{k(tcell.KeyCtrlZ)}, Label: "ctrl-z", Help: "suspend; fg brings it back", Do: (*App).suspend},
		{Keys: []Key{r('q'), k(tcell.KeyCtrlC)}, Label: "q ctrl-c", Help: "quit", Bar: "quit", Do: (*App).quit},
	}
}

// keysFor is the key table of a UI with options o: the class's keys only
// in class mode.
func keysFor(o Options) []Binding {
	return slices.DeleteFunc(bindings(), func(b Binding) bool { return b.Class && o.Class == nil })
}

// match reports whether ev is one of b's keys.
func (b *Binding) match(ev *tcell.EventKey) bool {
	for _, key := range b.Keys {
		if key.Code == tcell.KeyRune {
			if ev.Key() == tcell.KeyRune && ev.Rune() == key.Rune {
				return true
			}
		} else if ev.Key() == key.Code {
			return true
		}
	}
	return false
}

// barText is what the status bar says a binding does now: the play key
// pauses while playing.
func (b *Binding) barText(playing bool) string {
	if b.Bar == "play" && playing {
		return "pause"
	}
	return b.Bar
}

// barLabel is the first key of a binding as the status bar shows it.
func (b *Binding) barLabel() string {
	first, _, _ := strings.Cut(b.Label, " ")
	if first == "space" {
		return "spc"
	}
	return first
}

// KeyTable is the key table as Markdown, for the README. A test keeps the
// README's copy in step with the bindings.
func KeyTable() string {
	var b strings.Builder
	b.WriteString("| key | what it does |\n|---|---|\n")
	for _, k := range bindings() {
		keys := strings.Fields(k.Label)
		for i, s := range keys {
			keys[i] = "`" + s + "`"
		}
		b.WriteString("| " + strings.Join(keys, " ") + " | " + k.Help + " |\n")
	}
	return b.String()
}
