package tracelog

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// jsonLines writes evs as JSON lines with describer d and reads each line
// back.
func jsonLines(t *testing.T, d *gmp.Describer, evs []gmp.Event) []map[string]any {
	t.Helper()
	var out bytes.Buffer
	w := New(&out, JSONL, d, nil)
	for _, e := range evs {
		w.Event(e)
	}
	w.flush()
	var lines []map[string]any
	for line := range strings.SplitSeq(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		lines = append(lines, m)
	}
	return lines
}

// A line whose time differs from the line before only in its last three
// digits rewrites those in the time kept from before; the others write
// it out. Every line's "t" is its time, across the thousands, the lengths
// and the signs.
func TestTimeFieldAcrossThousands(t *testing.T) {
	times := []int64{0, 5, 999, 1000, 1000, 1999, 2000, 2001, 2999, 12345, 12000, 123456789, 123456999,
		123457000, 123457001, 9, 1000, 1_000_000_000_000, 1_000_000_000_999, 1_000_000_000_000, -5, -1500,
		-1999, -1001, 3000, 3001, 1<<62 + 7, 1<<62 + 8}
	var evs []gmp.Event
	for _, ti := range times {
		evs = append(evs, gmp.Event{T: sim.Time(ti), Kind: gmp.KindProcStart, G: gmp.NoG, P: 1, M: 1, Cause: -1})
	}
	for i, m := range jsonLines(t, gmp.NewDescriber(nil), evs) {
		if got, want := m["t"].(json.Number).String(), strconv.FormatInt(times[i], 10); got != want {
			t.Errorf("line %d: t %s, want %s", i, got, want)
		}
	}
}

// Places are remembered by place in entries of their own, a long name
// apart: places whose entries collide, long and short, each take their
// turn in an entry and are written as the describer names them.
func TestPlacesLongAndShortShareEntries(t *testing.T) {
	long := strings.Repeat("a-channel-with-a-long-name", 3)
	prog := &gmp.Program{Chans: []gmp.ChanDecl{{Name: "c"}, {Name: long}, {Name: `q"uote`}}}
	d := gmp.NewDescriber(prog)
	var places []gmp.Loc
	for id := range int32(3) {
		places = append(places, gmp.Loc{Kind: gmp.LocChanRecv, ID: id})
	}
	// Places whose entry is the first channel's, long and short.
	k := places[0]
	for id := int32(0); len(places) < 12; id++ {
		for _, kind := range []gmp.LocKind{gmp.LocRunq, gmp.LocRunnext, gmp.LocTimer, gmp.LocFree} {
			if l := (gmp.Loc{Kind: kind, ID: id}); (uint(l.Kind)*61+uint(l.ID))%locCacheSize == (uint(k.Kind)*61+uint(k.ID))%locCacheSize {
				places = append(places, l)
			}
		}
		if id > 1<<16 {
			t.Fatal("no places share the first channel's entry")
		}
	}
	var evs []gmp.Event
	for range 3 {
		for i := range places {
			evs = append(evs, gmp.Event{Kind: gmp.KindProcStart, G: gmp.NoG, P: 1, M: 1, Cause: -1,
				From: places[i], To: places[(i+1)%len(places)]})
		}
	}
	for i, m := range jsonLines(t, d, evs) {
		e := evs[i]
		if m["from"] != d.Loc(e.From) || m["to"] != d.Loc(e.To) {
			t.Errorf("line %d: from %q to %q, want %q and %q", i, m["from"], m["to"], d.Loc(e.From), d.Loc(e.To))
		}
	}
}
