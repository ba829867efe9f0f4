package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/recorded"
)

// fuzzMaxEvents bounds each fuzzed run, as the export's fuzzer does: a
// name or a note reaches the screen with the first events.
const fuzzMaxEvents = 2000

// fuzzMaxKeys bounds the keys one input presses.
const fuzzMaxKeys = 48

// hostileUI is a scenario whose title, summary, note, question and
// printed text hold what a terminal would act on: escape sequences, C1
// controls, bidi overrides, line separators. (Its names cannot: the
// parser refuses them.)
const hostileUI = "title: \"T\\e]0;owned\\a\\u202e\\u2028x\"\n" +
	"summary: \"S\\e[2J\\u009b31m\\x7f\"\n" +
	"procs: 2\n" +
	"chans: {\"c\": 1}\n" +
	"pools: {\"p\": {size: 1}}\n" +
	"main:\n" +
	"  - submit: {pool: \"p\", count: 2, do: [{cpu: 1ms}, {print: \"out\\e[31m\\u0085\"}]}\n" +
	"  - send: \"c\"\n" +
	"  - recv: \"c\"\n" +
	"  - wait: children\n" +
	"notes:\n" +
	"  - at: 0s\n" +
	"    text: \"N\\e]52;c;aGk=\\a\\u202e\\0\"\n" +
	"ask:\n" +
	"  - at: 0s\n" +
	"    question: \"Q\\e[H\\u2029?\"\n" +
	"    answer: {where: G2}\n"

// fuzzKeys are the named keys the UI binds that a byte of the fuzzer's
// key string presses; any other byte presses itself as a rune.
var fuzzKeys = map[byte]tcell.Key{
	0x01: tcell.KeyEnd, 0x02: tcell.KeyHome, '\t': tcell.KeyTab, 0x04: tcell.KeyBacktab,
	'\n': tcell.KeyEnter, '\r': tcell.KeyEnter, 0x1b: tcell.KeyEscape,
	0x05: tcell.KeyRight, 0x06: tcell.KeyLeft, 0x07: tcell.KeyPgDn, 0x08: tcell.KeyPgUp,
	0x0b: tcell.KeyDown, 0x0c: tcell.KeyUp,
}

// fuzzKey is the key a byte of the fuzzer's key string presses. q,
// ctrl-c and ctrl-z would leave the UI; a test has no terminal to leave.
func fuzzKey(b byte) (tcell.Key, rune, bool) {
	if b == 'q' || b == 0x03 || b == 0x1a {
		return 0, 0, false
	}
	if k, ok := fuzzKeys[b]; ok {
		return k, 0, true
	}
	return tcell.KeyRune, rune(b), true
}

// shownRaw reports a character a terminal would act on rather than show:
// a C0 or C1 control, DEL, a line or paragraph separator, or a bidi
// embedding, override or isolate.
func shownRaw(r rune) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// FuzzTUI opens the UI on any scenario that parses, presses any keys but
// those that leave it, and draws it at 80×24 as it goes: it must not
// panic, and no cell of the screen may hold a character a terminal would
// act on (docs/security.md, "A scenario or a trace writes nothing raw to
// the terminal"). TestControlCharactersAreShown holds the canvas to that
// for one string; this holds every panel, prompt and overlay the keys
// reach, for whatever the fuzzer finds.
func FuzzTUI(f *testing.F) {
	builtins, err := scenarios.Builtins()
	if err != nil || len(builtins) == 0 {
		f.Fatalf("no built-in scenarios: %v", err)
	}
	presses := []string{"", "]]]>>", "?", "L", "g>>>", "/G\n", "\x01", "t\t\t", "S", "v", ":5ms\n", "o", "\x01<<<c", "b", "1"}
	for i, sc := range builtins {
		f.Add(sc.Source, presses[i%len(presses)])
	}
	for _, p := range presses {
		f.Add([]byte(hostileUI), p)
	}

	f.Fuzz(func(t *testing.T, data []byte, press string) {
		sc, err := scenarios.Parse("f\x1b[2J.yaml", data)
		if err != nil {
			return
		}
		cfg := sc.Config()
		cfg.MaxEvents = fuzzMaxEvents
		a, err := New(sc, cfg, Options{})
		if err != nil {
			return
		}
		pressAndCheck(t, a, press)
	})
}

// keyed is a view the fuzzers press keys in: an App or a TraceApp.
type keyed interface {
	rooted
	HandleKey(*tcell.EventKey) *tcell.EventKey
}

// pressAndCheck presses the keys press says in a (fuzzKey), up to
// fuzzMaxKeys of them, drawing 80×24 before, every 8 keys and after, and
// fails the test on a character a terminal would act on in any cell.
func pressAndCheck(t *testing.T, a keyed, press string) {
	t.Helper()
	check := func(after string) {
		for i, r := range draw(t, a, 80, 24).text {
			if r != '\n' && shownRaw(r) {
				t.Fatalf("after the keys %q, the screen holds %U at rune %d", after, r, i)
			}
		}
	}
	check("")
	for i := 0; i < len(press) && i < fuzzMaxKeys; i++ {
		k, r, ok := fuzzKey(press[i])
		if !ok {
			continue
		}
		a.HandleKey(tcell.NewEventKey(k, r, tcell.ModNone))
		if i%8 == 7 {
			check(press[:i+1])
		}
	}
	check(press)
}

// FuzzTraceTUI is FuzzTUI for the trace view: it opens any bytes that
// read as a runtime trace (schedlab trace FILE, a file anyone may send),
// in both numberings, presses any keys, and holds the screen to the same.
// Its seeds are a real trace and that trace with two of its strings (a
// block reason, a function's name) replaced, each by one as long, with
// what a terminal would act on.
func FuzzTraceTUI(f *testing.F) {
	small, err := os.ReadFile(filepath.Join("..", "export", "testdata", "small.trace"))
	if err != nil {
		f.Fatal(err)
	}
	hostile := bytes.Clone(small)
	for _, r := range []struct{ from, to string }{
		{"system goroutine wait", "\x1b]52;c;aGk=\a\u202e\x7f\r\x1b[2J"},
		{"runtime.forcegchelper", "\x1b]0;owned\a\u2028\u009bxyz123"},
	} {
		if len(r.from) != len(r.to) || !bytes.Contains(hostile, []byte(r.from)) {
			f.Fatalf("cannot put %q in place of %q", r.to, r.from)
		}
		hostile = bytes.ReplaceAll(hostile, []byte(r.from), []byte(r.to))
	}
	for _, p := range []string{"", "lllll", strings.Repeat("l", 22), "\x01", "?", "\x01hhh", "\t\t"} {
		f.Add(small, p, false)
		f.Add(hostile, p, true)
	}

	f.Fuzz(func(t *testing.T, data []byte, press string, scenario bool) {
		run, _, err := recorded.FromTrace(bytes.NewReader(data), scenario, int64(len(data)))
		if err != nil {
			return
		}
		run.Label = "real: x\x1b]0;t\a.trace"
		a := NewTraceView("schedlab trace x\x1b]0;t\a.trace", Options{}, run)
		pressAndCheck(t, a, press)
	})
}
