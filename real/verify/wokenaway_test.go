package verify

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/rtrace"
)

// A migration counts as woken away when the runtime, not a goroutine,
// made the goroutine runnable since it last ran: G2, woken by the
// runtime, starts on the other P (counted); G3, woken by G1, does too
// (a migration, not counted); G2 woken by the runtime again starts on the
// P it ran on (neither).
func TestRecorderCountsTheRuntimesWakesThatMove(t *testing.T) {
	r := NewRecorder(2)
	for _, e := range []struct {
		kind    string
		g, p    int64
		runtime bool
	}{
		{"go-start", 1, 0, false},
		{"go-create", 2, 0, false},
		{"go-create", 3, 0, false},
		{"go-start", 2, 1, false},
		{"go-block", 2, 1, false},
		{"go-start", 3, 1, false},
		{"go-block", 3, 1, false},
		{"go-unblock", 2, 0, true},
		{"go-start", 2, 0, false},
		{"go-block", 2, 0, false},
		{"go-unblock", 3, 0, false},
		{"go-start", 3, 0, false},
		{"go-block", 3, 0, false},
		{"go-unblock", 2, 0, true},
		{"go-start", 2, 0, false},
		{"go-exit", 2, 0, false},
		{"go-exit", 1, 1, false},
	} {
		if e.runtime {
			r.RuntimeWake(e.g)
		}
		r.Event(time.Microsecond, e.kind, e.g, e.p, false)
	}
	o := r.Observables()
	if o.Migrations != 2 || o.WokenAway == nil || *o.WokenAway != 1 {
		t.Errorf("migrations %d, woken away %v; want 2, 1 of them the runtime's wake-up", o.Migrations, o.WokenAway)
	}
}

// A real trace's go-unblock without a goroutine acting is the runtime's;
// one with a goroutine is that goroutine's.
func TestRealSideTakesAnUnblockWithoutAGoroutineAsTheRuntimes(t *testing.T) {
	us := time.Microsecond
	for _, c := range []struct {
		waker int64
		want  int
	}{{-1, 1}, {1, 0}} {
		f := &stopFilter{rec: NewRecorder(2)}
		for _, e := range []rtrace.Event{
			{T: 0, Kind: "go-start", G: 1, P: 0, G2: -1},
			{T: 1 * us, Kind: "go-create", G: 2, P: 0, G2: 1},
			{T: 2 * us, Kind: "go-start", G: 2, P: 1, G2: -1},
			{T: 3 * us, Kind: "go-block", G: 2, P: 1, G2: -1},
			{T: 4 * us, Kind: "go-unblock", G: 2, P: 0, G2: c.waker},
			{T: 5 * us, Kind: "go-start", G: 2, P: 0, G2: -1},
			{T: 6 * us, Kind: "go-exit", G: 2, P: 0, G2: -1},
			{T: 7 * us, Kind: "go-exit", G: 1, P: 1, G2: -1},
		} {
			f.scenario(e)
		}
		f.end(time.Millisecond)
		if o := f.rec.Observables(); o.WokenAway == nil || *o.WokenAway != c.want {
			t.Errorf("woken by G%d: woken away %v, want %d", c.waker, o.WokenAway, c.want)
		}
	}
}

// The model's side counts the migrations of goroutines a timer woke, as
// the run's own events show them: in pingpong-table as verify runs it,
// the thread back from the poller takes the other P and runs the timers
// set on the first, every round.
func TestModelCountsTheTimersWakesThatMove(t *testing.T) {
	sc, err := scenarios.Load("pingpong-table")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := modelConfig(sc, scenarios.Overrides{}, 2)
	// Woken at the start rather than before it (Config.TracerLead), the
	// thread for the other P arrives after main's thread has taken both
	// sleepers' timers, and they move every round: a run with many
	// moves to count.
	cfg.Seed, cfg.Noise, cfg.TracerLead = 1, true, 0
	o, _, err := Model(sc.Program(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	first, n := m.TracerGs()
	last, woken, away := map[gmp.GID]gmp.PID{}, map[gmp.GID]bool{}, 0
	m.SetSink(func(e gmp.Event) {
		if e.G >= first && e.G < first+gmp.GID(n) {
			return
		}
		switch {
		case e.Kind == gmp.KindGoUnblock && e.Rule == gmp.RuleReadyTimer:
			woken[e.G] = true
		case e.Kind == gmp.KindGoStart:
			if p, ok := last[e.G]; ok && p != e.P && woken[e.G] {
				away++
			}
			last[e.G] = e.P
			delete(woken, e.G)
		}
	})
	m.Run()
	if away < 5 || o.WokenAway == nil || *o.WokenAway != away || *o.WokenAway > o.Migrations {
		t.Errorf("Model counted %d woken away of %d migrations, the run's events %d (want the same, several, and no more than the migrations)", wokenCount(o.WokenAway), o.Migrations, away)
	}
}

// The note names the timers' migrations when the model moved
// startsFactor times as many, and two more, as the real runs that counted
// them; not when its migrations are not above, nor when no real run
// counted them, nor when the counts are near.
func TestWokenNoteNamesTheTimersMigrations(t *testing.T) {
	runs := func(away ...int) []Observables {
		var obs []Observables
		for _, a := range away {
			o := Observables{Makespan: 1}
			if a >= 0 {
				o.WokenAway = &a
			}
			obs = append(obs, o)
		}
		return obs
	}
	rep := &Report{Procs: 2, Seeds: []uint64{1}, Runs: 2}
	rep.Rows = []Row{{Observable: "P migrations", Outcome: "higher", Model: 19, RealMedian: 3}}
	note := wokenNote(rep, runs(10, 10), append(runs(2, 2, 1), runs(-1, -1)...))
	if !strings.HasPrefix(note, migrationsNote+"10 of the model's migrations, a median, moved a goroutine that a timer or the network poller had woken on another P than it last ran on, 2 of the real runs' (3 that counted them): ") {
		t.Errorf("note %q", note)
	}
	for _, c := range []struct {
		name        string
		model, real []Observables
	}{{"near", runs(3, 3), runs(2, 2)}, {"not counted", runs(10, 10), runs(-1, -1)}, {"fewer", runs(1, 1), runs(4, 4)}} {
		if n := wokenNote(rep, c.model, c.real); n != "" {
			t.Errorf("%s: %q", c.name, n)
		}
	}
	rep.Rows[0].Outcome = "lower"
	if n := wokenNote(rep, runs(10, 10), runs(2, 2)); n != "" {
		t.Errorf("a note on migrations below: %q", n)
	}
}

// wokenCount is the count n points to, or -1 for none.
func wokenCount(n *int) int {
	if n == nil {
		return -1
	}
	return *n
}
