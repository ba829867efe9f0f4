package calibrate

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// Format 12's wake_pack sets, for every command, how often the kernel
// puts a woken thread beside its waker: the figure's rows and columns as
// they are. A profile of format 11 sets none, and its report lists
// nothing for it. Every other cost stays format 11's.
func TestWakePackFromAProfile(t *testing.T) {
	v11 := readProfile(t, "testdata/costs-v11.json")
	v12 := readProfile(t, "testdata/costs-v12.json")
	if !v12.HasWakePack() || !v12.HasLongSleep() || v11.HasWakePack() || !v11.HasLongSleep() {
		t.Errorf("formats: v12 has the wake pack %v, the long sleep %v; v11 has the wake pack %v, the long sleep %v",
			v12.HasWakePack(), v12.HasLongSleep(), v11.HasWakePack(), v11.HasLongSleep())
	}
	ms := time.Millisecond
	want := gmp.WakePack{
		Utils:  [3]float64{0.28, 0.56, 1},
		Sleeps: [3]time.Duration{ms / 2, 2 * ms, 8 * ms},
		Beside: [3][3]float64{{0.98, 0.96, 1}, {0.53, 0.79, 0.97}, {0.98, 0.29, 0.07}},
		Away:   [3][3]float64{{0.88, 0.88, 0.91}, {0.01, 0.62, 0.82}, {0, 0, 0}},
	}
	sameCostsBut(t, v11, v12, "the wake pack", func(costs string, k11 gmp.Costs, k12 *gmp.Costs) {
		if k11.WakePack != (gmp.WakePack{}) {
			t.Errorf("%s, format 11: WakePack %+v, want none", costs, k11.WakePack)
		}
		if k12.WakePack != want {
			t.Errorf("%s, format 12: WakePack %+v, want %+v", costs, k12.WakePack, want)
		}
		k12.WakePack = k11.WakePack
	})
	wantText(t, v12, "wake pack (woken on the waker's CPU after 500.0µs, 2.00ms, 8.00ms asleep, having last run there / on the other CPU): waker busy 28% 98 96 100% / 88 88 91%; waker busy 56% 53 79 97% / 1 62 82%; waker busy 100% 98 29 7% / 0 0 0%: sets WakePack\n")
	if b := profileText(t, v11); strings.Contains(b, "wake pack") {
		t.Errorf("a format 11 profile's report speaks of the wake pack:\n%s", b)
	}
	// A machine of one CPU measures no rows: nothing packs.
	v12.Figures.WakePack.Rows = nil
	if err := v12.Validate(); err != nil {
		t.Fatal(err)
	}
	if k, err := v12.Costs(); err != nil || k.WakePack != (gmp.WakePack{}) {
		t.Errorf("no rows: WakePack %+v, %v; want none", k.WakePack, err)
	}
	if b := profileText(t, v12); !strings.Contains(b, "wake pack: not measured (one CPU): sets WakePack\n") {
		t.Errorf("no rows: the report says\n%s", b)
	}
}

// A format 12 profile's wake_pack is refused, with the field at fault,
// when its rows or sleeps are too few or out of order, a share is not
// from 0 to 1, or a row lacks a side.
func TestBadWakePackIsRefused(t *testing.T) {
	b, err := os.ReadFile("testdata/costs-v12.json")
	if err != nil {
		t.Fatal(err)
	}
	v12 := string(b)
	row := `"busy_percent": 60,
          "util": 0.56,`
	for _, c := range []struct {
		name, old, new, want string
	}{
		{"sleeps out of order", `"sleeps_ns": [
        500000,
        2000000,`, `"sleeps_ns": [
        500000,
        200000,`, "figures.wake_pack.sleeps_ns: want 3 sleeps of 1 to 1000000000 ns in ascending order"},
		{"two sleeps", `        2000000,
        8000000
      ],`, `        2000000
      ],`, "figures.wake_pack.sleeps_ns: want 3 sleeps, got 2"},
		{"a utilisation out of order", row, strings.Replace(row, "0.56", "0.2", 1), "figures.wake_pack.rows[1].util: want a utilisation in (0, 1], above the row before's, got 0.2"},
		{"a busy share out of order", row, strings.Replace(row, "60", "20", 1), "figures.wake_pack.rows[1].busy_percent: want 1 to 100, above the row before's, got 20"},
		{"a share above 1", `0.53,`, `1.53,`, "figures.wake_pack.rows[1].beside: want shares from 0 to 1, got [1.53 0.79 0.97]"},
		{"a share missing", `0.62,
            0.82`, `0.62`, "figures.wake_pack.rows[1].away: want 3 shares, one per sleep, got 2"},
		{"no rounds", `"rounds": 40,`, `"rounds": 0,`, "figures.wake_pack.rounds: want 1 to 10000000 rounds, got 0"},
		{"a side missing", `"away": [
            0.01,
            0.62,
            0.82
          ]`, `"x": 1`, `unknown field "x"`},
	} {
		if !strings.Contains(v12, c.old) {
			t.Fatalf("%s: no %q", c.name, c.old)
		}
		_, err := Parse("costs.json", []byte(strings.Replace(v12, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %q", c.name, err, c.want)
		}
	}
	// The figure as null, the last of the figures.
	at := strings.Index(v12, `"wake_pack": {`)
	null := v12[:at] + `"wake_pack": null}}` + "\n"
	if _, err := Parse("costs.json", []byte(null)); err == nil || !strings.Contains(err.Error(), "figures.wake_pack: want an object, got null") {
		t.Errorf("null: got %v", err)
	}
	p, err := Parse("costs.json", []byte(v12))
	if err != nil {
		t.Fatal(err)
	}
	p.Figures.WakePack.Rows = p.Figures.WakePack.Rows[:2]
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "figures.wake_pack.rows: want 3 rows, or none for a machine of one CPU, got 2") {
		t.Errorf("two rows: got %v", err)
	}
}

// A copy of the program that wake_pack starts refuses what it cannot
// run, and its output is read back or refused.
func TestWakePackChild(t *testing.T) {
	for _, v := range []string{"", "1,30", "2,30,5", "0,5,5", "0,101,5", "0,30,0", "0,30,41", "x,30,5"} {
		var out, errOut bytes.Buffer
		if code := wakePackChild(v, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "want AWAY,BUSY,ROUNDS") || out.Len() != 0 {
			t.Errorf("%q: exit %d, %q, %q", v, code, out.String(), errOut.String())
		}
	}
	packed, share, err := parsePacks([]byte("3\n0\n5\n27.5\n"), 5)
	if err != nil || len(packed) != 3 || packed[0] != 3 || packed[2] != 5 || share != 27.5 {
		t.Errorf("got %v, %v, %v", packed, share, err)
	}
	for _, bad := range []string{"3\n0\n5\n", "3\n0\n6\n27.5\n", "3\n-1\n5\n27.5\n", "3\n0\n5\n101\n", "a\n0\n5\n1\n"} {
		if _, _, err := parsePacks([]byte(bad), 5); err == nil {
			t.Errorf("%q: read", bad)
		}
	}
}
