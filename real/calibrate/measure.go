package calibrate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/real/verify"
)

// DefaultSamples is how many times Measure takes each figure by default:
// about two seconds on an idle machine, most of it in the 1ms sleeps.
const DefaultSamples = 500

// Options say how to measure.
type Options struct {
	// Samples is how many times each figure is taken (DefaultSamples if
	// 0); a few more are taken first and thrown away, to warm up.
	Samples int
	// Rounds is how many times each figure taken in the program itself is
	// measured, each time with its share of the samples, the figures in
	// turn (DefaultRounds if 0, or Samples if fewer; at most Samples).
	Rounds int
	// Each, if set, is told each figure's name before it is first
	// measured.
	Each func(name string)
}

// DefaultRounds: the figures are taken in turn ten times over, so that
// each is of the seconds a calibration lasts and not of one moment in
// them: the Xeon VM changes pace within seconds (verify.Pace). Six
// calibrations in ten rounds, judged against six recorded series, differed
// on 255–273 observables in all, six taken all at once on 246–290
// (docs/fidelity.md, "The machine's pace"); the ten rounds cost a second
// more, the warm-up each round throws away.
const DefaultRounds = 10

func (o Options) rounds() int {
	if o.Rounds > 0 {
		return o.Rounds
	}
	return DefaultRounds
}

// roundShare is round r's share (from 0) of total samples taken in rounds: as
// even as whole samples make them, summing to total.
func roundShare(total, r, rounds int) int {
	return total*(r+1)/rounds - total*r/rounds
}

// The durations some figures are taken at.
const (
	// nanosleepFor is sysmon's shortest usleep, 20µs.
	nanosleepFor = 20 * time.Microsecond
	// longNanosleepFor is sysmon's longest usleep, 10ms, where the
	// model's sleep slack ends its rise (gmp's sleepslack.go), and
	// maxLongSleepSamples bounds its figure's samples: 100 take about a
	// second.
	longNanosleepFor    = 10 * time.Millisecond
	maxLongSleepSamples = 100
	// sleepFor is a short time.Sleep, through the runtime's timers.
	sleepFor = time.Millisecond
	// hopRounds and batch are how many round trips or calls one sample
	// of a fast figure times, so that reading the clock does not weigh.
	hopRounds = 20
	batch     = 10
	// spinChunk is how many iterations of cpuwork's loop a sample of the
	// work rate times (tens of microseconds).
	spinChunk = 1 << 14
)

// Measure measures this machine. It changes GOMAXPROCS while it measures
// and puts it back; it runs no other work meanwhile, and the less else
// the machine runs, the truer the figures.
func Measure(ctx context.Context, o Options) (*Profile, error) {
	n := o.Samples
	if n == 0 {
		n = DefaultSamples
	}
	if n < 1 || n > MaxSamples {
		return nil, fmt.Errorf("samples: want 1 to %d, got %d", MaxSamples, n)
	}
	if o.Rounds < 0 || o.Rounds > n {
		return nil, fmt.Errorf("rounds: want 1 to the samples, %d, got %d", n, o.Rounds)
	}
	if !measured {
		return nil, fmt.Errorf("calibrate measures Linux (its futex wake-ups, nanosleep, CPU affinity), not %s/%s; --costs reads a profile measured there", runtime.GOOS, runtime.GOARCH)
	}
	p := &Profile{Format: Format, Machine: machine()}
	p.Machine.LoadBefore = loadAverage()
	var missing []string
	// childErrs say why a figure measured in copies of the program is
	// missing.
	var childErrs []error
	figure := func(name string, samples []float64) Figure {
		if len(samples) == 0 {
			missing = append(missing, name)
			return Figure{}
		}
		return summarise(samples)
	}
	figurePtr := func(name string, samples []float64) *Figure {
		f := figure(name, samples)
		return &f
	}
	// The figures taken in the program itself, each rounds times with its
	// share of the samples, in turn with the others: a machine's pace
	// changes within seconds (verify.Pace), and a figure taken all at once
	// is of one moment's.
	samplers := []struct {
		name string
		// most is the most samples the figure takes, if fewer than n.
		most int
		take func(k int) []float64
		set  func(Figure)
	}{
		{"futex_wake", 0, func(k int) []float64 { return onOneP(func() []float64 { return pingPong(k, 1, true) }) }, func(f Figure) { p.Figures.FutexWake = f }},
		{"context_switch", 0, contextSwitch, func(f Figure) { p.Figures.ContextSwitch = f }},
		{"nanosleep_slack", 0, nanosleepSlack, func(f Figure) { p.Figures.NanosleepSlack = f }},
		{"sleep_slack", 0, sleepSlack, func(f Figure) { p.Figures.SleepSlack = f }},
		{"syscall", 0, syscallCost, func(f Figure) { p.Figures.Syscall = f }},
		{"go_create", 0, func(k int) []float64 { return onOneP(func() []float64 { return goCreate(k) }) }, func(f Figure) { p.Figures.GoCreate = f }},
		{"go_first_run", 0, func(k int) []float64 { return onOneP(func() []float64 { return goFirstRun(k) }) }, func(f Figure) { p.Figures.GoFirstRun = f }},
		{"handoff", 0, func(k int) []float64 { return onOneP(func() []float64 { return pingPong(k, hopRounds, false) }) }, func(f Figure) { p.Figures.Handoff = f }},
		{"cpu_work", 0, cpuWork, func(f Figure) { p.Figures.CPUWork = Rate(f) }},
		{"go_create_fresh", maxFreshSamples, func(k int) []float64 { return onOneP(func() []float64 { return goCreateFresh(k) }) }, func(f Figure) { p.Figures.GoCreateFresh = &f }},
		{"traced_go_create", 0, func(k int) []float64 {
			return onOneP(func() []float64 { return traced(func() []float64 { return goCreate(k) }) })
		}, func(f Figure) { p.Figures.TracedGoCreate = &f }},
		{"traced_handoff", 0, func(k int) []float64 {
			return onOneP(func() []float64 { return traced(func() []float64 { return pingPong(k, hopRounds, false) }) })
		}, func(f Figure) { p.Figures.TracedHandoff = &f }},
		{"traced_park_gap", maxGapSamples, func(k int) []float64 {
			return onOneP(func() []float64 { return switchGaps(k, "park", parkSwitches) })
		}, func(f Figure) { p.Figures.TracedParkGap = &f }},
		{"traced_exit_gap", maxGapSamples, func(k int) []float64 {
			return onOneP(func() []float64 { return switchGaps(k, "exit", exitSwitches) })
		}, func(f Figure) { p.Figures.TracedExitGap = &f }},
		{"traced_yield_gap", maxGapSamples, func(k int) []float64 {
			return onOneP(func() []float64 { return switchGaps(k, "yield", yieldSwitches) })
		}, func(f Figure) { p.Figures.TracedYieldGap = &f }},
		{"pipe_write", 0, pipeWrite, func(f Figure) { p.Figures.PipeWrite = &f }},
		{"wake_call", 0, wakeCall, func(f Figure) { p.Figures.WakeCall = &f }},
		{"netpoll_wake", maxNetpollWakeSamples, netpollWake, func(f Figure) { p.Figures.NetpollWake = &f }},
		{"mutex_spin", maxSpinSamples, mutexSpin, func(f Figure) { p.Figures.MutexSpin = &f }},
		{"nanosleep_slack_long", maxLongSleepSamples, nanosleepSlackLong, func(f Figure) { p.Figures.NanosleepSlackLong = &f }},
		{"nanosleep_slack_long_busy", maxLongSleepSamples, nanosleepSlackLongBusy, func(f Figure) { p.Figures.NanosleepSlackLongBusy = &f }},
	}
	rounds := min(o.rounds(), n)
	taken := make([][]float64, len(samplers))
	for r := range rounds {
		for i, sm := range samplers {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if r == 0 && o.Each != nil {
				o.Each(sm.name)
			}
			total := n
			if sm.most > 0 {
				total = min(n, sm.most)
			}
			if k := roundShare(total, r, rounds); k > 0 {
				taken[i] = append(taken[i], sm.take(k)...)
			}
		}
	}
	for i, sm := range samplers {
		sm.set(figure(sm.name, taken[i]))
	}
	// The figures taken in copies of the program, once.
	steps := []struct {
		name string
		run  func()
	}{
		{"first_write", func() {
			untraced, traced, err := firstLines(ctx, n)
			if err != nil {
				missing = append(missing, "first_write")
				childErrs = append(childErrs, err)
				return
			}
			p.Figures.FirstWrite = figurePtr("first_write", untraced.write)
			p.Figures.TracedFirstWrite = figurePtr("traced_first_write", traced.write)
			p.Figures.FirstPrint = figurePtr("first_print", untraced.print)
			p.Figures.TracedFirstPrint = figurePtr("traced_first_print", traced.print)
		}},
		{"wake_after_idle", func() {
			var err error
			if p.Figures.WakeAfterIdle, err = wakeAfterIdle(ctx, n); err != nil {
				missing = append(missing, "wake_after_idle")
				childErrs = append(childErrs, err)
			}
		}},
		{"wake_pack", func() {
			var err error
			if p.Figures.WakePack, err = wakePack(ctx, n); err != nil {
				missing = append(missing, "wake_pack")
				childErrs = append(childErrs, err)
			}
		}},
	}
	for _, s := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if o.Each != nil {
			o.Each(s.name)
		}
		s.run()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		err := fmt.Errorf("could not measure %s on this machine", strings.Join(missing, ", "))
		if len(childErrs) > 0 {
			err = fmt.Errorf("%w: %w", err, errors.Join(childErrs...))
		}
		return nil, err
	}
	p.Figures.TimerSlack = timerSlack(p.Figures.NanosleepSlack)
	p.Machine.LoadAfter = loadAverage()
	p.Measured = time.Now().UTC().Format(time.RFC3339)
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("the measurements are not usable: %w", err)
	}
	return p, nil
}

// summarise summarises samples: the median and the spread, by linear
// interpolation between the sorted samples. A sample is at least 1ns: a
// clock too coarse to see a cost does not make it free.
func summarise(samples []float64) Figure {
	for i, s := range samples {
		if !(s >= 1) || !finite(s) {
			samples[i] = 1
		}
	}
	slices.Sort(samples)
	return Figure{Samples: len(samples), Median: Quantile(samples, 0.5), P10: Quantile(samples, 0.1),
		P90: Quantile(samples, 0.9), Min: samples[0], Max: samples[len(samples)-1]}
}

// median is the median of values, which it sorts, interpolated as
// Quantile does.
func median(values []float64) float64 {
	slices.Sort(values)
	return Quantile(values, 0.5)
}

// Quantile is the q-quantile of sorted values, interpolated linearly
// between the two nearest (Hyndman and Fan's definition 7, R's default).
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	h := q * float64(len(sorted)-1)
	lo := int(h)
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// warm is how many samples are taken first and thrown away: the first
// hand-offs create threads, the first go statements allocate goroutines.
func warm(n int) int { return min(n, 20) }

// onOneP runs f with GOMAXPROCS=1, so that goroutines take turns on one
// P and no idle P's thread joins in.
func onOneP(f func() []float64) []float64 {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	return f()
}

// pingPong times n samples of rounds round trips between two goroutines
// through unbuffered channels, and returns the one-way time of each.
// Locked, each goroutine has an OS thread of its own, so on one P each hop
// hands the P to the other thread and wakes it with a futex: a thread's
// wake-up. The two threads are held to two CPUs where there are two: a
// wake-up from one CPU to another, startm's usual one; left to the
// kernel, a run's threads shared a CPU or not, and the same machine
// measured 18µs in one run and 30µs in the next (held: 17-24µs).
// Unlocked, both run on one thread: the runtime's own hand-off. A locked
// goroutine ends without unlocking, so that its thread ends with it: the
// runtime keeps no thread of the measurement's, nor its CPU affinity.
func pingPong(n, rounds int, locked bool) []float64 {
	ping, pong := make(chan struct{}), make(chan struct{})
	out := make(chan []float64)
	cpuA, cpuB := twoCPUs()
	start := func(cpu int) {
		if locked {
			runtime.LockOSThread()
			pinToCPU(cpu)
		}
	}
	go func() {
		start(cpuB)
		for range ping {
			pong <- struct{}{}
		}
	}()
	go func() {
		start(cpuA)
		samples := make([]float64, 0, n)
		for i := range n + warm(n) {
			t0 := time.Now()
			for range rounds {
				ping <- struct{}{}
				<-pong
			}
			if i >= warm(n) {
				samples = append(samples, float64(time.Since(t0))/float64(2*rounds))
			}
		}
		close(ping)
		out <- samples
	}()
	return <-out
}

// sleepSlack times time.Sleep(1ms) and returns how much longer than asked
// each took: the runtime's timer, the thread's wait for it, the kernel's
// slack and wake-up.
func sleepSlack(n int) []float64 {
	samples := make([]float64, 0, n)
	for i := range n + warm(n) {
		t0 := time.Now()
		time.Sleep(sleepFor)
		if i >= warm(n) {
			samples = append(samples, float64(time.Since(t0)-sleepFor))
		}
	}
	return samples
}

// goCreate times go statements on one P, whose new goroutines wait until
// the creator blocks: the creator's side of a go statement.
func goCreate(n int) []float64 {
	const per = 100
	var wg sync.WaitGroup
	samples := make([]float64, 0, n)
	for i := range n + warm(n) {
		wg.Add(per)
		t0 := time.Now()
		for range per {
			go wg.Done()
		}
		d := time.Since(t0)
		wg.Wait()
		if i >= warm(n) {
			samples = append(samples, float64(d)/per)
		}
	}
	return samples
}

// maxFreshSamples bounds goCreateFresh's samples: each keeps freshBatch
// goroutines alive to the end, a few KiB each.
const (
	maxFreshSamples = 1000
	freshBatch      = 20
	// freshWarm goroutines are made first and kept, so that the dead
	// ones the earlier figures left on the free lists are reused by
	// them and not by the timed go statements.
	freshWarm = 1000
)

// goCreateFresh times go statements on one P that find no dead
// goroutine's descriptor to reuse: every goroutine it makes stays blocked
// until the end, so each needs a new one (newproc1's malg).
func goCreateFresh(n int) []float64 {
	block := make(chan struct{})
	defer close(block)
	var wg sync.WaitGroup
	wg.Add(freshWarm)
	for range freshWarm {
		go func() { wg.Done(); <-block }()
	}
	wg.Wait()
	samples := make([]float64, 0, n)
	for range n {
		wg.Add(freshBatch)
		t0 := time.Now()
		for range freshBatch {
			go func() { wg.Done(); <-block }()
		}
		d := time.Since(t0)
		wg.Wait()
		samples = append(samples, float64(d)/freshBatch)
	}
	return samples
}

// traced runs f while runtime/trace records the program, into nothing:
// the tracer's own cost on each event, as a traced real run pays it. No
// samples if the program is traced already (go test -trace).
func traced(f func() []float64) []float64 {
	if err := trace.Start(io.Discard); err != nil {
		return nil
	}
	defer trace.Stop()
	return f()
}

// goFirstRun times, on one P, a go statement and the creator blocking
// until the new goroutine's first instruction.
func goFirstRun(n int) []float64 {
	samples := make([]float64, 0, n)
	for i := range n + warm(n) {
		var started time.Time
		done := make(chan struct{})
		t0 := time.Now()
		go func() {
			started = time.Now()
			close(done)
		}()
		<-done
		if i >= warm(n) {
			samples = append(samples, float64(started.Sub(t0)))
		}
	}
	return samples
}

// cpuWork times cpuwork's loop, the one a scenario's cpu action runs for
// real, and returns its speed in iterations per microsecond.
func cpuWork(n int) []float64 {
	samples := make([]float64, 0, n)
	for i := range n + warm(n) {
		t0 := time.Now()
		cpuwork.Spin(spinChunk)
		d := time.Since(t0)
		if i >= warm(n) && d > 0 {
			samples = append(samples, spinChunk/(float64(d)/float64(time.Microsecond)))
		}
	}
	return samples
}

// timerSlack reads the kernel's timer slack, or where /proc does not say
// estimates it as the fast end of the nanosleep overshoot.
func timerSlack(nanosleep Figure) TimerSlack {
	if b, err := os.ReadFile("/proc/self/timerslack_ns"); err == nil {
		if v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err == nil && v >= 1 && v <= MaxCost {
			return TimerSlack{NS: v, Source: "procfs"}
		}
	}
	return TimerSlack{NS: nanosleep.P10, Source: "measured"}
}

// machine says which machine this is.
func machine() Machine {
	return Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUModel: cpuModel(), CPUs: runtime.NumCPU(), Go: runtime.Version()}
}

// cpuModel is the first CPU's model as /proc/cpuinfo names it (the field
// differs by architecture), or "unknown".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	found := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		key = strings.TrimSpace(key)
		if _, seen := found[key]; ok && !seen {
			found[key] = strings.TrimSpace(value)
		}
	}
	for _, key := range []string{"model name", "Hardware", "cpu model", "uarch", "cpu", "Processor"} {
		if v := printable(found[key]); v != "" {
			return v
		}
	}
	return "unknown"
}

// printable keeps what a profile may hold of a machine's name.
func printable(s string) string {
	s = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, s)
	if r := []rune(s); len(r) > maxText {
		s = string(r[:maxText])
	}
	return strings.TrimSpace(s)
}

func loadAverage() *float64 {
	v, err := strconv.ParseFloat(verify.LoadAverage(), 64)
	if err != nil || v < 0 || v > MaxLoad {
		return nil
	}
	return &v
}
