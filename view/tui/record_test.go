package tui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"image/gif"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

// sgrPattern is an SGR sequence, cursor home, clear, hide the cursor:
// the only escapes a cast writes.
var sgrPattern = regexp.MustCompile(`\x1b\[[0-9;]*m|\x1b\[H|\x1b\[2J|\x1b\[\?25l`)

// A cast is asciicast v2: a header object, then [time, "o", text] events
// in time order, a frame for the start, each note and the end, each a
// screen of the UI in ANSI text with no escape but its own.
func TestCastWalksTheScenario(t *testing.T) {
	sc, err := scenarios.Load("tour")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Record(sc, sc.Config(), Options{Theme: "default"}, 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Frames) != len(sc.Notes)+1 { // the start (note 1's), notes 2…8, the end
		t.Errorf("%d frames for %d notes", len(rec.Frames), len(sc.Notes))
	}
	var buf bytes.Buffer
	if err := rec.WriteCast(&buf); err != nil {
		t.Fatal(err)
	}
	sc2 := bufio.NewScanner(&buf)
	sc2.Buffer(nil, 1<<20)
	if !sc2.Scan() {
		t.Fatal("no header")
	}
	var header struct {
		Version int    `json:"version"`
		Width   int    `json:"width"`
		Height  int    `json:"height"`
		Title   string `json:"title"`
	}
	if err := json.Unmarshal(sc2.Bytes(), &header); err != nil || header.Version != 2 || header.Width != 80 || header.Height != 24 || !strings.HasPrefix(header.Title, "tour") {
		t.Fatalf("header %s: %+v %v", sc2.Bytes(), header, err)
	}
	last := -1.0
	var screens []string
	for sc2.Scan() {
		var ev []any
		if err := json.Unmarshal(sc2.Bytes(), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("event %s: %v", sc2.Bytes(), err)
		}
		at, ok1 := ev[0].(float64)
		code, ok2 := ev[1].(string)
		text, ok3 := ev[2].(string)
		if !ok1 || !ok2 || !ok3 || code != "o" || at < last {
			t.Fatalf("event %s", sc2.Bytes())
		}
		last = at
		plain := sgrPattern.ReplaceAllString(text, "")
		if strings.ContainsAny(plain, "\x1b\x07") {
			t.Fatalf("a frame holds an escape of its own: %q", plain)
		}
		if text != "" {
			rows := strings.Split(plain, "\r\n")
			if len(rows) != 24 {
				t.Fatalf("a frame of %d rows", len(rows))
			}
			screens = append(screens, plain)
		}
	}
	if last < 20 {
		t.Errorf("the cast lasts %vs: too short to read its notes", last)
	}
	if !strings.Contains(screens[1], " note 2/8 · space plays on") || !strings.Contains(screens[len(screens)-1], "end of the run") {
		t.Errorf("the frames are not the walk:\n%s\n…\n%s", screens[1], screens[len(screens)-1])
	}
}

// What a scenario says reaches a recording as the UI shows it: an escape
// in a note is text, never an escape.
func TestRecordingsAreSafeText(t *testing.T) {
	sc, err := scenarios.Parse("evil.yaml", []byte("title: \"evil \\e]0;pwned\\a\"\nprocs: 1\nmain: [{cpu: 1ms}]\nnotes:\n  - at: 0s\n    text: \"a note \\e[2J\\e]8;;http://x\\a\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Record(sc, sc.Config(), Options{}, 80, 24)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rec.WriteCast(&buf); err != nil {
		t.Fatal(err)
	}
	var raw []string
	for i, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if i == 0 {
			var h map[string]any
			if err := json.Unmarshal([]byte(line), &h); err != nil || strings.ContainsAny(h["title"].(string), "\x1b\x07") {
				t.Fatalf("header %s", line)
			}
			continue
		}
		var ev []any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		raw = append(raw, sgrPattern.ReplaceAllString(ev[2].(string), ""))
	}
	all := strings.Join(raw, "")
	if strings.ContainsAny(all, "\x1b\x07") || !strings.Contains(all, `\x1b[2J`) {
		t.Fatalf("the note's escapes reached the cast as escapes, or not as text")
	}
}

// The GIF has a frame per screen, each cell 7×13 pixels, held as long.
func TestGIFWalksTheScenario(t *testing.T) {
	sc, err := scenarios.Load("runnext")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Theme: "default"}, {Theme: "light"}} {
		rec, err := Record(sc, sc.Config(), o, 80, 24)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := rec.WriteGIF(&buf); err != nil {
			t.Fatal(err)
		}
		g, err := gif.DecodeAll(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Image) != len(rec.Frames) || g.Config.Width != 80*glyphW || g.Config.Height != 24*glyphH {
			t.Fatalf("%d frames of %dx%d, want %d of %dx%d", len(g.Image), g.Config.Width, g.Config.Height, len(rec.Frames), 80*glyphW, 24*glyphH)
		}
		for i, d := range g.Delay {
			if d != int(rec.Frames[i].Hold.Milliseconds()/10) {
				t.Errorf("frame %d held %d/100s, want %v", i, d, rec.Frames[i].Hold)
			}
		}
		// The background is the theme's: the top-left pixel of the last
		// row (the status bar's start) is white for light, black for dark.
		c := g.Image[0].At(1, 24*glyphH-1)
		r, _, _, _ := c.RGBA()
		if light := r > 0x8000; light != (o.Theme == "light") {
			t.Errorf("%s: the background reads light %v", o.Theme, light)
		}
	}
	if _, err := Record(sc, sc.Config(), Options{}, 40, 10); err == nil {
		t.Error("a recording smaller than the UI's least was made")
	}
}
