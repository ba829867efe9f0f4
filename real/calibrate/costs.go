package calibrate

import (
	"fmt"
	"math"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// Costs returns the model's costs for this profile's machine, the mapping
// doc.go tables: each measured figure sets the costs it informs, and the
// costs no figure measures keep their defaults.
func (p *Profile) Costs() (gmp.Costs, error) {
	return p.costs(p.Figures.GoCreate, p.Figures.Handoff)
}

// TracedCosts returns the costs for a model compared with traced runs of
// this machine, as verify's are: Costs, with a go statement and a
// hand-off timed as runtime/trace records them (traced_go_create,
// traced_handoff), from format 3 the switch after an exit and a
// Gosched timed as the trace's events bound it (switchGaps), and from
// format 7 a program's first write, traced (traced_first_write), and from
// format 10 its first print's formatting, traced (traced_first_print). A traced
// program writes an event for every go statement, block, wake-up and
// start, with a stack for some: that is
// the instrument's cost, measured the same way as the untraced figures,
// not fitted to verify's results. A profile of format 1, which has no
// such figures, gives Costs.
func (p *Profile) TracedCosts() (gmp.Costs, error) {
	if !p.HasTraced() {
		return p.Costs()
	}
	k, err := p.costs(orZero(p.Figures.TracedGoCreate), orZero(p.Figures.TracedHandoff))
	if err != nil {
		return gmp.Costs{}, err
	}
	p.switchGaps(&k)
	if p.HasFirstWrite() {
		k.FirstWrite = ns(orZero(p.Figures.TracedFirstWrite).Median)
	}
	if p.HasFirstPrint() {
		k.FirstPrint = ns(orZero(p.Figures.TracedFirstPrint).Median)
	}
	if err := (&gmp.Config{Procs: 1, Costs: k}).Validate(); err != nil {
		return gmp.Costs{}, err
	}
	return k, nil
}

// DefaultTracedCosts is the traced costs of this machine's profile, the
// one at DefaultPath, which verify times its model with by default: for
// a script that runs the model as verify does.
func DefaultTracedCosts() (gmp.Costs, error) {
	path, err := DefaultPath()
	if err != nil {
		return gmp.Costs{}, err
	}
	p, err := Read(path)
	if err != nil {
		return gmp.Costs{}, err
	}
	return p.TracedCosts()
}

// costs maps the figures to the model's costs, with the go statement's
// and the hand-off's figures given.
func (p *Profile) costs(goCreate, handoff Figure) (gmp.Costs, error) {
	f := p.Figures
	k := gmp.DefaultCosts()
	// The costs the model makes late under Config.Noise (a woken thread,
	// a usleep) are the undisturbed time: the noise adds the lateness a
	// busy machine shows. They take the fast end of the measurements, the
	// 10th percentile; the median and the spread stay in the profile.
	k.WakeM = ns(f.FutexWake.P10)
	// The network poller's wake-up, measured from format 8 on
	// (netpollwake.go): its fast end, and what lies between that and the
	// slow one for the noise, as the usleep's. Before, a futex wake-up's
	// fast end, and the noise four times that, as the defaults have it.
	if p.HasNetpollWake() {
		w := orZero(f.NetpollWake)
		k.NetpollWake = ns(w.P10)
		k.NetpollJitter = ns(max(w.P90-w.P10, 0))
	} else {
		k.NetpollWake = ns(f.FutexWake.P10)
		k.NetpollJitter = 4 * k.NetpollWake
	}
	// A round of spinning on a held mutex, measured from format 9 on
	// (mutexspin.go): a loop of PAUSE instructions, its median. Before,
	// the default, measured on another CPU.
	if p.HasMutexSpin() {
		k.Spin = ns(orZero(f.MutexSpin).Median)
	}
	k.UsleepSlack = ns(f.NanosleepSlack.P10)
	// From format 11 a long sleep's slack too, its fast end as the short
	// one's; the model's sleeps in between take the line through both
	// (gmp's sleepslack.go). Before, every sleep had the short one's.
	if p.HasLongSleep() {
		k.UsleepSlackLong = ns(orZero(f.NanosleepSlackLong).P10)
	}
	// A long sleep beside a thread that computes, sysmon's in a program
	// that runs, came back sooner on the project's VM than one with the
	// machine idle. Formats 1 to 12 did not measure it: a sleep beside
	// work takes UsleepSlackLong too, as before.
	if p.HasBusySleep() {
		k.UsleepSlackLongBusy = ns(orZero(f.NanosleepSlackLongBusy).P10)
	}
	// The measured slack already holds the thread's wake-up; the noise
	// adds what lies between the fast end and the slow one.
	k.UsleepWake = 0
	k.UsleepJitter = ns(max(f.NanosleepSlack.P90-f.NanosleepSlack.P10, 0))
	// The costs the model never makes late are the typical time: the
	// median.
	k.Syscall = ns(f.Syscall.Median)
	k.Newproc = ns(goCreate.Median)
	// A go statement that finds no dead goroutine's descriptor to reuse
	// allocates one, and its stack: what it costs more than one that
	// reuses (the model's free lists say which). Format 1 did not
	// measure it: none, as in the defaults.
	if p.HasTraced() {
		k.NewG = time.Duration(math.Round(max(orZero(f.GoCreateFresh).Median-f.GoCreate.Median, 0)))
	}
	// A printed line's write wakes whoever reads the output: schedlab
	// real's program writes to the pipe its parent reads, 5-10µs on the
	// project's machine where a write to /dev/null takes 0.2µs. Formats 1
	// to 3 did not measure it: the default, as before.
	if p.HasWrite() {
		k.Write = ns(orZero(f.PipeWrite).Median)
	}
	// A program's first write costs more than its later ones
	// (firstwrite.go). Formats 1 to 6 did not measure it: none, as in the
	// defaults, whose FirstPrint holds it.
	if p.HasFirstWrite() {
		k.FirstWrite = ns(orZero(f.FirstWrite).Median)
	}
	// What a program's first print takes more before its write (fmt's
	// first use), measured in the same copies from format 10 on. Before,
	// the default, measured on another machine.
	if p.HasFirstPrint() {
		k.FirstPrint = ns(orZero(f.FirstPrint).Median)
	}
	// A wake-up of a parked thread costs the thread that makes it a futex
	// call (wakecall.go). Formats 1 to 5 did not measure it: none, as in
	// the defaults.
	if p.HasWakeCall() {
		k.WakeCall = ns(orZero(f.WakeCall).Median)
	}
	// A thread woken after the program has been idle a while can start
	// late, on some machines by up to a scheduler tick: at each idle time
	// measured, the share of rounds that were, late by their 10th to 90th
	// percentiles (gmp's idlewake.go). Formats 1 to 4 did not measure it:
	// none, as in the defaults.
	if p.HasIdleWake() && f.WakeAfterIdle != nil {
		k.IdleWake = f.WakeAfterIdle.idleWake()
	}
	// How often the kernel puts a woken thread beside its waker, where
	// CPUs are modelled (gmp's wakepack.go). Formats 1 to 11 did not
	// measure it: none, as upstream Linux.
	if p.HasWakePack() && f.WakePack != nil {
		k.WakePack = f.WakePack.wakePack()
	}
	// A hand-off between two goroutines on one P is, in the model, channel
	// work, the scheduler's choice and the switch to the chosen G. The
	// three keep their ratio and are scaled so that the model's hop takes
	// what the machine's did.
	hop, err := ModelHop(k)
	if err != nil {
		return gmp.Costs{}, err
	}
	scale := handoff.Median / hop
	k.ChanOp = scaled(k.ChanOp, scale)
	k.Schedule = scaled(k.Schedule, scale)
	k.Execute = scaled(k.Execute, scale)
	if err := (&gmp.Config{Procs: 1, Costs: k}).Validate(); err != nil {
		return gmp.Costs{}, err
	}
	return k, nil
}

// switchGaps sets, for a profile of format 3 or later timed traced, the
// cost of the scheduler's switch to the idle P the trace shows between a
// goroutine's stop and the next start, which verify's model leaves between
// the same two events: after a park, Schedule (traced_park_gap), with
// Execute giving up as much so that the hop keeps the traced hand-off's
// time; after an exit and after a Gosched, ScheduleExit and ScheduleYield
// (traced_exit_gap, traced_yield_gap). The trace stamps a goroutine's
// block before the scheduler's work (its own event, with a stack, among
// it) and the next start in execute, after findRunnable took the runnext:
// the runnext stays full for the whole gap, which the model's Schedule is.
// Judged against seven recorded series of real runs, taking the park gap
// so lowered the count of differing observables in every one, though
// pingpong-2p's thief, finding the runnext full longer, steals more than
// the real one (docs/fidelity.md has the figures).
func (p *Profile) switchGaps(k *gmp.Costs) {
	f := p.Figures
	if !p.HasGaps() || f.TracedExitGap == nil || f.TracedYieldGap == nil || f.TracedParkGap == nil {
		return
	}
	hopGap := k.Schedule
	k.Schedule = ns(f.TracedParkGap.Median)
	k.ScheduleExit = ns(f.TracedExitGap.Median)
	k.ScheduleYield = ns(f.TracedYieldGap.Median)
	if rate := f.CPUWork.Median; rate > 0 {
		k.ParkGrowth = gmp.ParkGrowth{Zero: parkGapZero, PerRootMicro: parkGapGrowth,
			At: ns(float64(switchWork) / rate * float64(time.Microsecond))}
	}
	// The hand-off was timed with no work between hops: Execute gives up
	// what the switch there, after no work, takes more than the hop's.
	k.Execute = max(k.Execute-(k.ParkGap(0)-hopGap), 1)
}

// parkGapZero and parkGapGrowth are the shape of a park's switch against
// the user code before it (gmp.ParkGrowth), from go run
// ./scripts/switchwork -runs N WORK on the AMD EPYC, 28 November, two
// sets of medians of the runs' means. At 21:25 (10 runs, load 1.5): no
// work 122ns, 2µs 137ns, 13µs 185ns, 50µs 221ns, 200µs 280ns, 1ms 535ns,
// whose least-squares line in √µs is 124ns + 12.8ns·√µs. At 21:56 (20
// runs, load 1.0), the machine at a faster pace: 79, 106, 91, 102, 115,
// 132, 212 and 283ns after 0, 1, 3, 13, 30, 100, 300µs and 1ms, 83ns +
// 6.5ns·√µs. Only the shape counts, the growth over the gap at no work:
// 0.103 and 0.078 a √µs, 0.09 between them, which 122ns + 11ns·√µs has.
// traced_park_gap times the switch at one point of it, after
// parkSwitches' switchWork, which the profile's own cpu_work puts in µs;
// the shape scales that to the work a scenario's goroutine does before
// it parks. The probe does not measure the shape itself: without work
// the gap depends on the state of the process more than on the machine
// (parkSwitches), and with a millisecond of work a sample takes 16ms.
const (
	parkGapZero   = 122 * time.Nanosecond
	parkGapGrowth = 11 * time.Nanosecond
)

// ns rounds a figure to a whole nanosecond, at least one: a cost of zero
// would read as "use the defaults" to a gmp.Config.
func ns(v float64) time.Duration {
	return max(time.Duration(math.Round(v)), 1)
}

func scaled(d time.Duration, by float64) time.Duration {
	return ns(float64(d) * by)
}

// hopProgram is a ping-pong on one P: rounds round trips, two hops each.
func hopProgram(rounds int) string {
	return fmt.Sprintf(`procs: 1
chans: {ping: 0, pong: 0}
main:
  - go:
      do:
        - loop: {times: %[1]d, do: [{recv: ping}, {send: pong}]}
  - loop: {times: %[1]d, do: [{send: ping}, {recv: pong}]}
`, rounds)
}

// ModelHop is how long, in nanoseconds, the model with costs k takes for
// one hop of a channel ping-pong on one P: the time of 300 round trips
// less that of 100, over 400 hops, so that starting and ending cost
// nothing. It runs the model rather than adding up costs so that it stays
// true when the model's rules change.
func ModelHop(k gmp.Costs) (float64, error) {
	end := func(rounds int) (time.Duration, error) {
		sc, err := scenarios.Parse("hop.yaml", []byte(hopProgram(rounds)))
		if err != nil {
			return 0, err
		}
		cfg := sc.Config()
		cfg.Costs = k
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			return 0, err
		}
		if e := m.Run(); !sc.AsExpected(e) {
			return 0, fmt.Errorf("the model's ping-pong ended with %v: %v", e.Reason, e.Err)
		}
		return m.Now().D(), nil
	}
	short, err := end(100)
	if err != nil {
		return 0, err
	}
	long, err := end(300)
	if err != nil {
		return 0, err
	}
	hop := float64(long-short) / 400
	if hop <= 0 {
		return 0, fmt.Errorf("the model's ping-pong hop takes %vns", hop)
	}
	return hop, nil
}
