package verify

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/prog"
	"github.com/schedlab/schedlab/real/rtrace"
)

// syscall-busy's real program calibrates its cpu loop for 20ms before the
// scenario, and sysmon, backed off meanwhile, never looks twice within the
// 5ms syscall: the real runs kept P0 through it (makespan 14.2–15.4ms, P
// use 63.6–67.9%), where the model with a fresh sysmon retook it at once
// (9.53ms, 96.8%). verify's model starts sysmon as the prelude left it.
func TestVerifyModelStartsAfterTheCalibration(t *testing.T) {
	sc, err := scenarios.Load("syscall-busy")
	if err != nil {
		t.Fatal(err)
	}
	cfg := afterPrelude(sc, sc.ConfigWith(scenarios.Overrides{}))
	if want := programStart + calibrationPrelude; cfg.SysmonPrelude != want {
		t.Fatalf("sysmon prelude %v, want the program's start and the calibration's, %v", cfg.SysmonPrelude, want)
	}
	for seed := uint64(1); seed <= 10; seed++ {
		c := cfg
		c.Seed, c.Noise = seed, true
		obs, _, err := Model(sc.Program(), c)
		if err != nil {
			t.Fatal(err)
		}
		if obs.Makespan < 13*time.Millisecond || obs.Utilisation > 0.75 {
			t.Errorf("seed %d: makespan %v, P use %.1f%%, want the syscall to keep its P (about 14ms, 65%%)", seed, obs.Makespan, 100*obs.Utilisation)
		}
	}
}

// The prelude is the program's: one without cpu actions does not
// calibrate, and its sysmon has run only since the program's start; the
// calibration's length is the one the program's loop runs for.
func TestCalibrationPreludeIsTheProgramsOwn(t *testing.T) {
	sc, err := scenarios.Load("pingpong-table")
	if err != nil {
		t.Fatal(err)
	}
	if cfg := afterPrelude(sc, sc.ConfigWith(scenarios.Overrides{})); cfg.SysmonPrelude != programStart {
		t.Errorf("%s has no cpu action, but its sysmon prelude is %v, want the program's start, %v", sc.Name, cfg.SysmonPrelude, programStart)
	}
	sc, err = scenarios.Load("syscall-busy")
	if err != nil {
		t.Fatal(err)
	}
	p, err := prog.Translate(sc, sc.ConfigWith(scenarios.Overrides{}))
	if err != nil {
		t.Fatal(err)
	}
	loop := fmt.Sprintf("< %d*time.Millisecond", calibrationPrelude/time.Millisecond)
	if !p.Calibrates || !strings.Contains(string(p.Main), loop) {
		t.Errorf("the program calibrates %v, or its loop is not bounded by %q", p.Calibrates, loop)
	}
}

// A spinning goroutine on one P is preempted when sysmon, backing off from
// its 20µs sleeps since the program started, looks with the slice 10ms
// old: real forever-cooperative 14.9–15.2ms in 17 of 20 runs (two quiet
// series of ten, load 0.7-1.4), 10.0-10.1ms in the other 2 (and one
// 17.1ms), where a sysmon fresh at the scenario's start looks at 10.3ms.
// verify's model starts sysmon at the program's start: its seeds end
// between 14 and 16ms.
func TestVerifyModelsSysmonSinceTheProgramsStart(t *testing.T) {
	sc, err := scenarios.Load("forever-cooperative")
	if err != nil {
		t.Fatal(err)
	}
	on := true
	cfg, _ := modelConfig(sc, scenarios.Overrides{Noise: &on}, 2)
	for seed := uint64(1); seed <= 10; seed++ {
		c := cfg
		c.Seed = seed
		obs, _, err := Model(sc.Program(), c)
		if err != nil {
			t.Fatal(err)
		}
		if obs.Makespan < 14*time.Millisecond || obs.Makespan > 16*time.Millisecond {
			t.Errorf("seed %d: makespan %v, want the spinner preempted about 15ms in", seed, obs.Makespan)
		}
	}
}

// A real program's syscall action is a nanosleep, which the kernel's
// timer slack lengthens: syscall-idle's 20µs and 30ms calls ran 31.3 to
// 31.6ms in all, the model's exact ones 31.2ms. verify's model lengthens
// each by the usleep slack; every other command's keeps them exact.
func TestVerifyModelsSyscallsAsNanosleeps(t *testing.T) {
	sc, err := scenarios.Load("syscall-idle")
	if err != nil {
		t.Fatal(err)
	}
	exact := sc.ConfigWith(scenarios.Overrides{})
	cfg := nanosleepSyscalls(exact)
	if cfg.Costs.SyscallSlack != gmp.DefaultCosts().UsleepSlack {
		t.Fatalf("syscall slack %v, want the usleep slack %v", cfg.Costs.SyscallSlack, gmp.DefaultCosts().UsleepSlack)
	}
	a, _, err := Model(sc.Program(), exact)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Model(sc.Program(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Two syscalls, each a slack longer.
	if d := b.Makespan - a.Makespan; d != 2*cfg.Costs.SyscallSlack {
		t.Errorf("makespan %v against %v exact: %v longer, want two slacks (%v)", b.Makespan, a.Makespan, d, 2*cfg.Costs.SyscallSlack)
	}
}

// A traced real program begins and ends its scenario with the tracer's
// work, and verify's model has both where the program is traced, and
// nowhere else. Before: main made runtime/trace.Start's go statements,
// whose wakep woke an idle thread, so the model's first woken thread is as
// far along (gmp.Config.TracerLead), and on one P the runtime's and the
// tracer's goroutines took the descriptors that put the scenario's go
// statements' lumps where they fall (gmp.Costs.FreshSpans; on several
// the places move, and the model keeps NewG flat). After: the end mark,
// whose log call's work comes before the window closes
// (gmp.Costs.EndMark). nested-submit deadlocks by design and runs
// untraced.
func TestVerifyModelHasTheTracersStartAndEnd(t *testing.T) {
	for _, name := range []string{"done-flag", "preempt", "steal", "nested-submit"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := modelConfig(sc, scenarios.Overrides{}, 2)
		p, err := prog.Translate(sc, cfg)
		if err != nil {
			t.Fatal(err)
		}
		marks := strings.Contains(string(p.Main), fmt.Sprintf("trace.Log(context.Background(), %q, %q)", rtrace.EndMarkCategory, rtrace.EndMarkMessage))
		wantMark, wantLead := time.Duration(0), time.Duration(0)
		if marks {
			wantMark = endMark
		}
		if prog.Traced(sc) {
			wantLead = tracerLead
		}
		if cfg.Costs.EndMark != wantMark {
			t.Errorf("%s: the model's end mark %v, want %v (the program writes one: %v)", name, cfg.Costs.EndMark, wantMark, marks)
		}
		if cfg.Tracer != prog.Traced(sc) || cfg.TracerLead != wantLead {
			t.Errorf("%s: the model's tracer %v with a lead of %v, want %v and %v", name, cfg.Tracer, cfg.TracerLead, prog.Traced(sc), wantLead)
		}
		wantSpans := gmp.FreshSpans{}
		if prog.Traced(sc) && sc.Procs == 1 {
			wantSpans = freshSpans
		}
		if cfg.Costs.FreshSpans != wantSpans {
			t.Errorf("%s: the model's fresh spans %+v, want %+v", name, cfg.Costs.FreshSpans, wantSpans)
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("%s: the model's configuration is refused: %v", name, err)
		}
		if name == "nested-submit" && (marks || wantLead != 0) {
			t.Errorf("%s's program is traced, but it deadlocks by design", name)
		}
	}
}

// leadNote speaks when the real runs' main made the tracer's first go
// statement much sooner or later before its scenario than the model's
// constant says, on a program with a P idle at its start, and only when
// most runs measured it.
func TestLeadNoteSaysWhenTheRealRunsWokeSoonerOrLater(t *testing.T) {
	runs := func(leads ...time.Duration) []Observables {
		var obs []Observables
		for _, d := range leads {
			obs = append(obs, Observables{TracerLead: d})
		}
		return obs
	}
	two := gmp.Config{Procs: 2, Tracer: true, TracerLead: tracerLead}
	for _, c := range []struct {
		name string
		cfg  gmp.Config
		real []Observables
		want string
	}{
		{"near the model's", two, runs(20*time.Microsecond, 30*time.Microsecond, 60*time.Microsecond), ""},
		{"long before", two, runs(70*time.Microsecond, 90*time.Microsecond, 80*time.Microsecond), "a median 80us after runtime/trace.Start's first go statement, whose wakep wakes the thread for an idle P (70us to 90us over 3 runs), where the model's thread is 33us along at the start"},
		{"just before", two, runs(10*time.Microsecond, 12*time.Microsecond), "arrives later than the model's"},
		{"long before, on one P", gmp.Config{Procs: 1, Tracer: true, TracerLead: tracerLead}, runs(90 * time.Microsecond), ""},
		{"untraced", gmp.Config{Procs: 2}, runs(90 * time.Microsecond), ""},
		{"a recording without it", two, runs(0, 0, 90*time.Microsecond), ""},
	} {
		got := leadNote(c.cfg, c.real)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := leadNote(two, runs(70*time.Microsecond, 90*time.Microsecond)); !strings.Contains(got, "arrives sooner than the model's") || !strings.Contains(got, "a median 80us") {
		t.Errorf("two long leads: %q", got)
	}
}

// Where the model has no CPUs and the Ps are several, a woken thread
// mostly takes its waker's CPU at once, and a waker it steals from waits
// for its turn there (gmp.Costs.WakePreempt); on one P,
// and where the Ps share fewer CPUs and the CPU model places the threads,
// the model has none of it.
func TestVerifyModelWakesOntoTheWakersCPUWithoutCPUs(t *testing.T) {
	for _, c := range []struct {
		name string
		cpus int
		want bool
	}{
		{"steal", 2, true},        // 2 Ps on 2 CPUs
		{"preempt", 2, false},     // one P
		{"burst", 2, false},       // 4 Ps on 2 CPUs: the CPU model
		{"burst", 4, true},        // 4 Ps on 4 CPUs
		{"pingpong-2p", 1, false}, // 2 Ps on 1 CPU: the CPU model
	} {
		sc, err := scenarios.Load(c.name)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := modelConfig(sc, scenarios.Overrides{}, c.cpus)
		want := gmp.WakePreempt{}
		if c.want {
			want = wakePreempt
		}
		if cfg.Costs.WakePreempt != want {
			t.Errorf("%s on %d CPUs: the model's wake-up preemption %+v, want %+v", c.name, c.cpus, cfg.Costs.WakePreempt, want)
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("%s: the model's configuration is refused: %v", c.name, err)
		}
	}
}
