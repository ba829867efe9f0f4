package scenarios

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/safetext"
)

// Each hostile input is refused with its line and column, quickly and in
// little memory, and its message quotes no more than a short, valid
// excerpt of the input.
func TestHostileInputs(t *testing.T) {
	want := map[string]string{
		"deep flow":        "input.yaml:2:71: [ and { nested more than 64 deep",
		"deep block":       "a line indented more than 256 columns",
		"many lines":       "input.yaml:10001:1: the file has more than 10000 lines",
		"binary":           "input.yaml:3:1: the file is not UTF-8 text: byte 0xff at offset 28",
		"nul":              "input.yaml:1:9: the file is not UTF-8 text: byte 0x00 at offset 8",
		"overflow uniform": "input.yaml:3:25: uniform high 2562047h47m16.854775807s is longer than 8760h0m0s",
		"long sleep":       "input.yaml:3:35: sleep 1000000h0m0s is longer than 8760h0m0s",
		"long name":        `is not declared`,
		"many flow items":  "a [ ] or { } list of more than 10000 items",
	}
	for name, src := range hostileInputs {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("input.yaml", []byte(src))
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if !strings.Contains(msg, want[name]) {
				t.Errorf("error %q\nwant %q", clip(msg), want[name])
			}
			if len(msg) > 600 {
				t.Errorf("the message is %d bytes long", len(msg))
			}
		})
	}
}

// A UTF-8 byte order mark is not part of the YAML.
func TestByteOrderMark(t *testing.T) {
	sc, err := Parse("bom.yaml", []byte("\xef\xbb\xbfprocs: 2\nmain: [{cpu: 1ms}]\n"))
	if err != nil || sc.Procs != 2 {
		t.Fatalf("%v", err)
	}
}

// A did-you-mean only compares short names, and a long name is quoted
// short.
func TestClip(t *testing.T) {
	if closest(strings.Repeat("a", 1000), []string{strings.Repeat("a", 999)}) != "" {
		t.Error("a 1000-byte name got a suggestion")
	}
	if got := clip(strings.Repeat("é", 200)); len([]rune(got)) != maxQuoted || !strings.HasSuffix(got, "…") {
		t.Errorf("clip gave %d runes: %q", len([]rune(got)), got)
	}
	if clip("short") != "short" {
		t.Error("clip changed a short text")
	}
}

// The YAML parser quotes an invalid header option whole: the message
// quotes 80 runes of it (safetext.Brief, TestBrief), found by FuzzParse
// on a header line of 3,000 bytes.
func TestYAMLErrorsQuoteShort(t *testing.T) {
	long := strings.Repeat(")", 3000)
	_, err := Parse("h.yaml", []byte("|00000000000 00"+long+"\n"))
	if err == nil || len(err.Error()) > 2*safetext.BriefMax || !strings.Contains(err.Error(), "h.yaml:1:1: YAML syntax: invalid header option") {
		t.Errorf("a 3,000-byte header option: %v", err)
	}
}

// A note or a question can name the nth event of a kind, of a goroutine,
// on a P; the tracker places it there, and mistakes name their line.
func TestEventMoments(t *testing.T) {
	sc, err := Parse("m.yaml", []byte(`procs: 2
main:
  - go: {count: 64, do: [{cpu: 1ms}]}
  - cpu: 20ms
  - wait: children
notes:
  - on: {kind: go-start, n: 3, p: P1}
    text: the third start on P1
  - on: {kind: go-create, g: G7}
    text: G7 is made
  - on: steal
    text: first steal
`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	tr := NewNoteTracker(sc.Notes)
	var evs []gmp.Event
	m.SetSink(func(e gmp.Event) { tr.Observe(len(evs), &e); evs = append(evs, e) })
	m.Run()
	starts := 0
	for i, e := range evs {
		if e.Kind == gmp.KindGoStart && e.P == 1 {
			if starts++; starts == 3 && tr.At(0) != i {
				t.Errorf("the third start on P1 is event %d; the note is on %d", i, tr.At(0))
			}
		}
		if e.Kind == gmp.KindGoCreate && e.G == 7 && tr.At(1) != i {
			t.Errorf("G7's creation is event %d; the note is on %d", i, tr.At(1))
		}
	}
	if tr.At(2) < 0 || tr.Number(2) != 2 || tr.Number(0) != 3 {
		t.Errorf("notes numbered %d, %d, %d as met", tr.Number(0), tr.Number(1), tr.Number(2))
	}
	for _, c := range []struct{ src, want string }{
		{"procs: 1\nmain: [{cpu: 1ms}]\nnotes:\n  - on: {kind: steel}\n    text: x\n", `m.yaml:4:16: unknown event kind "steel"`},
		{"procs: 1\nmain: [{cpu: 1ms}]\nnotes:\n  - on: {kind: steal, n: 0}\n    text: x\n", "m.yaml:4:26: n is 0, out of range"},
		{"procs: 1\nmain: [{cpu: 1ms}]\nnotes:\n  - on: {n: 2}\n    text: x\n", "m.yaml:4:10: on: needs the event's kind:"},
		{"procs: 1\nmain: [{cpu: 1ms}]\nnotes:\n  - on: {kind: steal, g: x}\n    text: x\n", "m.yaml:4:26: g: names a goroutine"},
	} {
		if _, err := Parse("m.yaml", []byte(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v\nwant %s", c.src, err, c.want)
		}
	}
}
