package rtrace

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	gotrace "runtime/trace"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/exp/trace"
)

// traceOf runs work under runtime/trace and returns the trace.
func traceOf(t *testing.T, work func()) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gotrace.Start(&buf); err != nil {
		t.Skipf("cannot trace here: %v", err)
	}
	work()
	gotrace.Stop()
	return buf.Bytes()
}

// A traced ping-pong and a fan-out read back as the model's kinds, with
// only orders a trace guarantees asserted, never times.
func TestReadATrace(t *testing.T) {
	const workers = 20
	data := traceOf(t, func() {
		ping, pong := make(chan int), make(chan int)
		go func() {
			for v := range ping {
				pong <- v
			}
			close(pong)
		}()
		for i := range 100 {
			ping <- i
			<-pong
		}
		close(ping)
		<-pong
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() { runtime.Gosched() })
		}
		wg.Wait()
	})
	var evs []Event
	sum, err := Read(bytes.NewReader(data), func(e Event) { evs = append(evs, e) })
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"go-create", "go-start", "go-block", "go-unblock", "go-exit", "proc-start"} {
		if sum.Kinds[k] == 0 {
			t.Errorf("no %s in the trace: %v", k, sum.Kinds)
		}
	}
	if sum.Goroutines < workers+1 || sum.Ps < 1 || sum.Events != len(evs) {
		t.Errorf("summary %+v for %d events", sum, len(evs))
	}
	// A goroutine created in the trace starts only after its creation,
	// and every event reads as a sentence.
	created := map[int64]bool{}
	for i, e := range evs {
		if i > 0 && e.T < evs[i-1].T {
			t.Fatalf("event %d goes back in time", i)
		}
		switch e.Kind {
		case "go-create":
			created[e.G] = true
		case "go-exit":
			delete(created, e.G)
		}
		if e.Describe() == "" || e.Describe() == e.Kind {
			t.Errorf("event %d (%s) has no sentence", i, e.Kind)
		}
	}
}

// Something that is not a trace is an error, not a panic.
func TestNotATrace(t *testing.T) {
	if _, err := Read(bytes.NewReader([]byte("procs: 1\nmain: [{cpu: 1ms}]\n")), nil); err == nil {
		t.Error("a YAML file read as a trace")
	}
}

// A trace the trace package panics on (a P's status of 6144, which it
// checks as a byte and then looks up whole; made with the package's own
// trace generator) ends in an error that says where, as every malformed
// trace does, for every way of reading it.
func TestATraceThePackagePanicsOnIsAnError(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "procstatus-6144.trace"))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{}, {Scenario: true}} {
		_, err := ReadWith(bytes.NewReader(data), o, func(Event) {})
		if err == nil || !strings.Contains(err.Error(), "reading the trace: an event the trace package cannot decode") {
			t.Errorf("%+v: error %v", o, err)
		}
	}
}

func TestLimitStopsReading(t *testing.T) {
	data := traceOf(t, func() {
		var wg sync.WaitGroup
		for range 50 {
			wg.Add(1)
			go func() { defer wg.Done(); runtime.Gosched() }()
		}
		wg.Wait()
	})
	whole, err := Read(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Truncated || whole.Events <= 20 {
		t.Fatalf("the whole trace: %d events, truncated %v", whole.Events, whole.Truncated)
	}
	seen := 0
	cut, err := ReadWith(bytes.NewReader(data), Options{Limit: 20}, func(Event) { seen++ })
	if err != nil {
		t.Fatal(err)
	}
	if seen != 20 || cut.Events != 20 || !cut.Truncated {
		t.Errorf("Limit 20 visited %d events, summarised %d, truncated %v", seen, cut.Events, cut.Truncated)
	}
	exact, err := ReadWith(bytes.NewReader(data), Options{Limit: whole.Events}, nil)
	if err != nil || exact.Truncated || exact.Events != whole.Events {
		t.Errorf("a limit of exactly the trace's events truncated it: %+v, %v", exact, err)
	}
}

// The runtime goroutines' starts are counted, and their system calls are
// timed from each one's enter to its exit, however they interleave; an
// exit whose enter came before the trace began counts nothing.
func TestRuntimeActivity(t *testing.T) {
	c, s := runtimeActivity{}, &Summary{}
	for _, e := range []struct {
		kind string
		g    int64
		t    int64
	}{
		{"syscall-exit", 9, 50}, // entered before the trace
		{"go-start", 7, 90},
		{"syscall-enter", 7, 100},
		{"syscall-enter", 8, 200},
		{"go-block", 7, 250}, // not a system call's end
		{"syscall-exit", 7, 350},
		{"syscall-exit", 8, 1200},
		{"go-start", 8, 1250},
		{"go-stop", 8, 1260},
		{"go-start", 8, 1270},
		{"syscall-enter", 8, 1300}, // still in it when the trace ends
	} {
		c.observe(Event{Kind: e.kind, G: e.g}, trace.Time(e.t), s)
	}
	if want := time.Duration(250 + 1000); s.RuntimeSyscall != want {
		t.Errorf("RuntimeSyscall = %v, want %v", s.RuntimeSyscall, want)
	}
	if s.RuntimeStarts != 3 {
		t.Errorf("RuntimeStarts = %d, want 3", s.RuntimeStarts)
	}
}

// Main's stack says whether it runs the scenario or the generated
// program's code around it; a stack taken at an asynchronous preemption
// cannot say, since the tracer's frame-pointer unwinding skips the
// interrupted loop's caller (seen in timer-bursts: main.spin, main.main).
func TestStackInScenario(t *testing.T) {
	for _, c := range []struct {
		frames []string
		want   answer
	}{
		{[]string{"time.Sleep", "main.scenario", "main.main"}, yes},
		{[]string{"runtime.newproc", "main.scenario.func1", "main.scenario", "main.main"}, yes},
		{[]string{"syscall.Close", "os.(*File).Close", "main.main"}, no},
		{[]string{"runtime/trace.Stop", "main.startTrace.func1.1", "main.main"}, no},
		{[]string{"runtime.asyncPreempt2", "runtime.asyncPreempt", "main.spin", "main.main"}, unknown},
		{[]string{"runtime.gopark", "runtime.forcegchelper"}, unknown},
		{nil, unknown},
	} {
		if got := stackInScenario(c.frames); got != c.want {
			t.Errorf("%v: %v, want %v", c.frames, got, c.want)
		}
	}
}

// The mark main logs when it returns from the scenario closes the
// window there. timer-2p's G2 computes for a second, and while main's
// deferred runtime/trace.Stop flushes, it stops the world: G2's stop and
// restart come some 30µs after main's last start (endmark-timer-2p.trace,
// a traced run of the program schedlab real writes for timer-2p). They
// are after the scenario, and its window ends at main's last start, not
// at them, nor at the end of the trace.
func TestTheEndMarkClosesTheScenario(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "endmark-timer-2p.trace"))
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	sum, err := ReadWith(bytes.NewReader(data), Options{Scenario: true}, func(e Event) { evs = append(evs, e) })
	if err != nil {
		t.Fatal(err)
	}
	last := evs[len(evs)-1]
	if last.Kind != "go-start" || last.G != 1 {
		t.Fatalf("the scenario's last event is %+v, want main's start", last)
	}
	if sum.AfterScenario != 2 {
		t.Errorf("%d events after the scenario, want G2's stop and start", sum.AfterScenario)
	}
	for _, e := range evs {
		if e.T > sum.ScenarioEnd {
			t.Errorf("%+v is in the scenario, after its end at %v", e, sum.ScenarioEnd)
		}
	}
	// The mark follows main's last start by the rest of the loop's
	// iteration: well under the 27µs to G2's stop.
	if d := sum.ScenarioEnd - last.T; d < 0 || d > 10*time.Microsecond {
		t.Errorf("the scenario ends %v after main's last start, at %v", d, sum.ScenarioEnd)
	}
	whole, err := Read(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Span-sum.ScenarioEnd < 20*time.Microsecond {
		t.Errorf("the trace goes on %v after the scenario: G2's stop and start are not after it", whole.Span-sum.ScenarioEnd)
	}
}

// A program with an until (until-forever-cooperative.trace, a traced run
// of the program schedlab real writes for forever-cooperative) hands its
// stopper a channel before the scenario: main blocks on the send, is
// woken and starts again. Those three of main's events are marked as
// before the scenario, and nothing of the scenario's comes before them;
// main's start when the trace begins is not marked: main runs from there.
func TestMainsSetUpIsBeforeTheScenario(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "until-forever-cooperative.trace"))
	if err != nil {
		t.Fatal(err)
	}
	var before, in []Event
	sum, err := ReadWith(bytes.NewReader(data), Options{Scenario: true}, func(e Event) {
		switch {
		case e.BeforeScenario:
			if len(in) > 0 && in[len(in)-1].Reason != AlreadyRunning {
				t.Errorf("%+v is marked before the scenario, after %+v", e, in[len(in)-1])
			}
			before = append(before, e)
		case e.G >= 0:
			in = append(in, e)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range before {
		if e.G != 1 {
			t.Errorf("%+v is marked: not main's", e)
		}
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, " "); got != "go-block go-unblock go-start" || sum.BeforeScenario != 3 {
		t.Errorf("marked %q (%d), want main's block on the send, its wake-up and its start", got, sum.BeforeScenario)
	}
	if len(in) < 2 || in[0].G != 1 || in[0].Reason != AlreadyRunning || in[1].Kind != "go-create" {
		t.Errorf("the scenario's events begin %+v, want main running as the trace begins, then its go statement", in[:min(len(in), 2)])
	}
}

// A program schedlab real writes logs, after its end mark, the CPU time
// its process had over the scenario (cputime-steal.trace, a traced run of
// steal's program, whose goroutines compute on 2 Ps on a machine of 2
// CPUs): about the window on each CPU, and never more than both CPUs'
// whole window. A trace without the log has none.
func TestTheCPUTimeMarkFollowsTheEndMark(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cputime-steal.trace"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := ReadWith(bytes.NewReader(data), Options{Scenario: true}, func(Event) {})
	if err != nil {
		t.Fatal(err)
	}
	if sum.CPUTime < sum.ScenarioEnd*3/2 || sum.CPUTime > 2*sum.ScenarioEnd {
		t.Errorf("CPU time %v over a scenario of %v on 2 busy CPUs", sum.CPUTime, sum.ScenarioEnd)
	}
	// Read as a whole, not as a scenario, the marks are not looked for.
	whole, err := Read(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	if whole.CPUTime != 0 {
		t.Errorf("CPU time %v outside a scenario's reading", whole.CPUTime)
	}
	old, err := os.ReadFile(filepath.Join("testdata", "endmark-timer-2p.trace"))
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := ReadWith(bytes.NewReader(old), Options{Scenario: true}, func(Event) {}); err != nil || sum.CPUTime != 0 {
		t.Errorf("a trace without the mark: CPU time %v, %v", sum.CPUTime, err)
	}
}

// Only a message of the prefix and decimal digits, in the end mark's
// category, is a CPU time, and only a positive one under a day: a trace
// is untrusted input.
func TestACPUTimeMarkIsDigitsOnly(t *testing.T) {
	if d, ok := parseCPUTime(EndMarkCategory, CPUTimePrefix+"88017000"); !ok || d != 88017*time.Microsecond {
		t.Errorf("a mark of 88017000: %v, %v", d, ok)
	}
	for _, c := range []struct{ category, message string }{
		{"other", CPUTimePrefix + "1000"},
		{EndMarkCategory, "cpu time"},
		{EndMarkCategory, CPUTimePrefix},
		{EndMarkCategory, CPUTimePrefix + "-5"},
		{EndMarkCategory, CPUTimePrefix + "+5"},
		{EndMarkCategory, CPUTimePrefix + "0"},
		{EndMarkCategory, CPUTimePrefix + "12 34"},
		{EndMarkCategory, CPUTimePrefix + "1e9"},
		{EndMarkCategory, CPUTimePrefix + "\x1b[2J1"},
		{EndMarkCategory, CPUTimePrefix + "999999999999999999"},
		{EndMarkCategory, CPUTimePrefix + "9999999999999999999999"},
		{EndMarkCategory, CPUTimePrefix + "86400000000001"},
	} {
		if d, ok := parseCPUTime(c.category, c.message); ok {
			t.Errorf("%q %q read as a CPU time of %v", c.category, c.message, d)
		}
	}
}

// runtime/trace.Start's go statements come before a scenario program's
// scenario, and the first of them wakes an idle thread: TracerLead is
// the time from it to main's first act in the scenario (cputime-steal's
// first go statement). Read without the scenario's numbering, a trace
// has none.
func TestTracerLeadRunsFromTheTracersFirstGoStatement(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cputime-steal.trace"))
	if err != nil {
		t.Fatal(err)
	}
	var tracerAt, scenarioAt time.Duration = -1, -1
	sum, err := ReadWith(bytes.NewReader(data), Options{Scenario: true, Runtime: func(e Event) {
		if e.Kind == "go-create" && e.G2 == 1 && tracerAt < 0 {
			tracerAt = e.T
		}
	}}, func(e Event) {
		if e.Kind == "go-create" && e.G2 == 1 && scenarioAt < 0 {
			scenarioAt = e.T
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if tracerAt < 0 || scenarioAt <= tracerAt {
		t.Fatalf("the tracer's first go statement at %v, the scenario's at %v: want the tracer's first", tracerAt, scenarioAt)
	}
	if sum.TracerLead != scenarioAt-tracerAt {
		t.Errorf("TracerLead %v, want %v, from the tracer's go statement at %v to the scenario's at %v", sum.TracerLead, scenarioAt-tracerAt, tracerAt, scenarioAt)
	}
	whole, err := Read(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	if whole.TracerLead != 0 {
		t.Errorf("read as any program's trace, TracerLead %v, want none", whole.TracerLead)
	}
}
