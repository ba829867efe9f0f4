package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/rtrace"
)

// A P's start counts inside the window only: before the scenario's first
// event, and after main's exit, it does not.
func TestRecorderCountsProcStartsInTheWindow(t *testing.T) {
	r := NewRecorder(2)
	r.Event(0, "go-start", 1, 0, false)
	r.ProcStart(1) // main's start does not open the window
	r.Event(10, "go-create", 2, 0, false)
	r.ProcStart(11)
	r.ProcStart(12)
	r.Event(20, "go-exit", 1, 0, false)
	r.ProcStart(21)
	if got := r.Observables().ProcStarts; got != 2 {
		t.Errorf("%d P starts, want the 2 in the window", got)
	}
}

// The model's side counts the run's proc-start events in the window, as a
// sink of the same run sees them: from main's go statement, its first act,
// on. The thread woken for the tracer's goroutines, already on its way
// when the scenario starts (Config.TracerLead), may bring its P up before
// it, as a real program's can before its scenario.
func TestModelCountsItsProcStarts(t *testing.T) {
	sc, err := scenarios.Load("pingpong-2p")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := modelConfig(sc, scenarios.Overrides{}, 2)
	cfg.Seed = 1
	o, _, err := Model(sc.Program(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	tracer, n := m.TracerGs()
	starts, open := 0, false
	m.SetSink(func(e gmp.Event) {
		switch {
		case e.Kind == gmp.KindGoCreate && e.G == tracer+gmp.GID(n):
			open = true
		case e.Kind == gmp.KindProcStart && open:
			starts++
		}
	})
	m.Run()
	if starts < 10 || o.ProcStarts != starts {
		t.Errorf("Model counted %d P starts, the run's events %d (want the same, and the thief's many)", o.ProcStarts, starts)
	}
}

// The real side counts a trace's proc-start events within the window,
// not the Ps running when the trace began. In this traced run of
// timer-2p, main's P stops and starts again around each of its sleeps.
func TestRealCountsItsProcStarts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "tracer-on-idle-p-timer-2p.trace"))
	if err != nil {
		t.Fatal(err)
	}
	o, _, err := Real(bytes.NewReader(data), 2)
	if err != nil {
		t.Fatal(err)
	}
	// The window's bounds, from a Recorder given the scenario's events
	// alone; the starts counted from the whole trace's events.
	rec := NewRecorder(2)
	f := &stopFilter{rec: rec}
	sum, err := rtrace.ReadWith(bytes.NewReader(data), rtrace.Options{Scenario: true}, func(e rtrace.Event) {
		if e.Kind != "proc-start" {
			f.scenario(e)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	f.end(sum.ScenarioEnd)
	starts, atStart := 0, 0
	if _, err := rtrace.Read(bytes.NewReader(data), func(e rtrace.Event) {
		switch {
		case e.Kind != "proc-start":
		case e.Reason == rtrace.AlreadyRunning:
			atStart++
		case e.T >= rec.first && e.T <= rec.last:
			starts++
		}
	}); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d P starts in the window, %d at the start", starts, atStart)
	if atStart == 0 || starts < 2 || o.ProcStarts != starts {
		t.Errorf("Real counted %d P starts; the trace has %d in the window and %d running at its start (want the same, at least 2, and some at the start left out)", o.ProcStarts, starts, atStart)
	}
}

// The note names the P starts when the side that migrates more started
// its Ps startsFactor times as often or more; not when it started them
// less often, or about as often, nor when a side did not count them (a
// recording made before it was measured).
func TestStartsNoteNamesThePStarts(t *testing.T) {
	runs := func(starts int) []Observables {
		return []Observables{{Makespan: 1, ProcStarts: starts}, {Makespan: 1, ProcStarts: starts}}
	}
	rep := &Report{Procs: 2, Seeds: []uint64{1}, Runs: 2}
	rep.Rows = []Row{{Observable: "P migrations", Outcome: "higher", Model: 298, RealMedian: 80}}
	note := startsNote(rep, runs(400), runs(79))
	if !strings.HasPrefix(note, migrationsNote+"the real runs started a P a median 79 times in the window, the model's 400: ") {
		t.Errorf("note %q", note)
	}
	for _, c := range []struct {
		name              string
		model, realStarts int
	}{{"about as often", 100, 79}, {"less often", 40, 79}, {"not counted", 400, 0}} {
		if n := startsNote(rep, runs(c.model), runs(c.realStarts)); n != "" {
			t.Errorf("%s: %q", c.name, n)
		}
	}
	rep.Rows[0].Outcome = "lower"
	if n := startsNote(rep, runs(20), runs(79)); n == "" {
		t.Error("no note for a model that migrates less and starts its Ps a quarter as often")
	}
	rep.Rows[0].Outcome = "within"
	if n := startsNote(rep, runs(400), runs(79)); n != "" {
		t.Errorf("a note on migrations within: %q", n)
	}
}

// A P's start after a held preempted stop waits with it: counted if the
// program went on, not if the stop was trace.Stop's stop of the world,
// whose start starts Ps again after the scenario.
func TestProcStartAfterAHeldStopWaitsWithIt(t *testing.T) {
	us := time.Microsecond
	run := func(more ...rtrace.Event) int {
		f := &stopFilter{rec: NewRecorder(2)}
		for _, e := range append([]rtrace.Event{
			{T: 0, Kind: "go-start", G: 1, P: 0},
			{T: 10 * us, Kind: "go-create", G: 2, P: 0},
			{T: 12 * us, Kind: "proc-start", G: -1, P: 1},
			{T: 20 * us, Kind: "go-start", G: 2, P: 1},
			{T: 30 * us, Kind: "go-stop", G: 2, P: 1, Reason: "preempted"},
			{T: 31 * us, Kind: "proc-start", G: -1, P: 0},
		}, more...) {
			f.scenario(e)
		}
		f.end(time.Millisecond)
		return f.rec.Observables().ProcStarts
	}
	if got := run(); got != 1 {
		t.Errorf("the world's stop at the end: %d P starts, want the 1 before it", got)
	}
	if got := run(rtrace.Event{T: 40 * us, Kind: "go-exit", G: 1, P: 0}); got != 2 {
		t.Errorf("the program went on: %d P starts, want 2", got)
	}
}
