package calibrate

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// wake_after_idle, format 5's figure: how late a thread starts when a
// go statement wakes it after the whole program has been idle a while
// (gmp's idlewake.go says what the model does with it, and
// scripts/wakeafteridle measures the same in fresh processes, with more
// rounds). On 2 Ps, main sleeps, then makes a goroutine and computes, and
// a round's figure is the time from just before the go statement to the
// goroutine's first instruction; a round is late when that is over
// IdleWakeLateAfter, a woken thread that gets a CPU of its own starting
// it within about 0.1ms.

// idleWakeIdles are the idle times it is measured after, as many as
// gmp.IdleWake has points: around the change on the project's machine,
// where after 2ms idle 1 round in 200 is late and after 3ms a third are.
var idleWakeIdles = [gmp.MaxIdleWakePoints]time.Duration{2 * time.Millisecond, 3 * time.Millisecond, 5 * time.Millisecond, 8 * time.Millisecond}

const (
	// idleWakeCompute is how long main computes after the go statement:
	// a start later than that was not the other P's.
	idleWakeCompute = 5 * time.Millisecond
	// IdleWakeLateAfter is how late a start counts as late
	// (scripts/wakeafteridle counts it so too).
	IdleWakeLateAfter = 500 * time.Microsecond
	// maxIdleWakeRounds bounds the rounds per idle time: a round lasts
	// its idle time and idleWakeCompute, so 100 rounds of the four take
	// about 4 seconds.
	maxIdleWakeRounds = 100
	// idleWakeCopies is how many fresh copies of the program share an
	// idle time's rounds, and idleWakeWarm how many rounds each runs first
	// and throws away.
	idleWakeCopies = 4
	idleWakeWarm   = 5
)

// IdleWakeFigure is wake_after_idle: one point per idle time.
type IdleWakeFigure struct {
	// LateAfter is how late a round's start counts as late, in ns.
	LateAfter float64          `json:"late_after_ns"`
	Points    []IdleWakeSample `json:"points"`
}

// IdleWakeSample is the rounds after one idle time: how many, how many
// were late, and how late those were (all 0 when none was).
type IdleWakeSample struct {
	Idle       float64 `json:"idle_ns"`
	Rounds     int     `json:"rounds"`
	Late       int     `json:"late"`
	LateMin    float64 `json:"late_min_ns"`
	LateP10    float64 `json:"late_p10_ns"`
	LateMedian float64 `json:"late_median_ns"`
	LateP90    float64 `json:"late_p90_ns"`
	LateMax    float64 `json:"late_max_ns"`
}

// wakeAfterIdle measures the figure, rounds rounds (at most
// maxIdleWakeRounds) after each idle time, in idleWakeCopies fresh copies
// of this program each (BecomeMeasuringChild), each copy's rounds in a row
// after idleWakeWarm rounds thrown away. What decides a round is where
// the kernel left the woken thread, which the program's rounds before
// settle: measured in one process after calibrate's other figures, and
// with the idle times taking turns, every idle time from 2 to 8ms had
// 30-47% of its rounds late on the project's machine, where fresh
// processes had 3-11% after 2ms and 75-86% after 8ms, as
// scripts/wakeafteridle's do and as a program that idles alike between
// its bursts does. One process's share can stray far from the next one's
// (after 5ms, 36% in one calibration and 80% in the next, where four runs
// of the probe, 50 rounds each, had 40-52%): several copies make the share
// theirs together.
func wakeAfterIdle(ctx context.Context, rounds int) (*IdleWakeFigure, error) {
	rounds = min(rounds, maxIdleWakeRounds)
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("wake_after_idle runs a copy of this program: %w", err)
	}
	f := &IdleWakeFigure{LateAfter: float64(IdleWakeLateAfter)}
	for _, idle := range idleWakeIdles {
		var starts []float64
		for c := range idleWakeCopies {
			// The rounds shared out among the copies.
			n := roundShare(rounds, c, idleWakeCopies)
			if n == 0 {
				continue
			}
			got, err := childStarts(ctx, exe, idle, n)
			if err != nil {
				return nil, fmt.Errorf("wake_after_idle after %v: %w", idle, err)
			}
			starts = append(starts, got...)
		}
		f.Points = append(f.Points, idleWakeSample(idle, starts))
	}
	return f, nil
}

// childStarts runs a copy of the program exe to time rounds rounds after
// idle, and returns their times.
func childStarts(ctx context.Context, exe string, idle time.Duration, rounds int) ([]float64, error) {
	out, err := runCopy(ctx, exe, fmt.Sprintf("%s=%d,%d", idleWakeEnv, idle, rounds))
	if err != nil {
		return nil, err
	}
	return parseStarts(out, rounds)
}

// runCopy runs exe, a copy of this program, with env added to the
// environment, and returns what it wrote to its standard output; an
// error carries what it wrote to its standard error, or is ctx's.
func runCopy(ctx context.Context, exe string, env ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%v %s", err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// idleWakeEnv marks a copy of the program that wakeAfterIdle started: its
// value is the idle time and the rounds, "IDLE_NS,ROUNDS".
const idleWakeEnv = "SCHEDLAB_CALIBRATE_WAKE_AFTER_IDLE"

// BecomeMeasuringChild, in a copy of the program calibrate started to
// time wake_after_idle's rounds, times them, writes each one's time in
// nanoseconds on a line of standard output and exits; in a copy started to
// time first_write's writes (firstwrite.go), writes and times them; in a
// copy started for wake_pack's rounds (wakepack.go), runs them; in any
// other process it returns at once. A program that calls Measure calls it
// first in main, as schedlab does, and a test binary in TestMain.
func BecomeMeasuringChild() {
	if v, ok := os.LookupEnv(idleWakeEnv); ok {
		os.Exit(measuringChild(v, os.Stdout, os.Stderr))
	}
	if v, ok := os.LookupEnv(firstWriteEnv); ok {
		os.Exit(firstWriteChild(v, os.Stdout, os.Stderr))
	}
	if v, ok := os.LookupEnv(wakePackEnv); ok {
		os.Exit(wakePackChild(v, os.Stdout, os.Stderr))
	}
}

func measuringChild(v string, stdout, stderr io.Writer) int {
	idleText, roundsText, _ := strings.Cut(v, ",")
	idle, err1 := strconv.ParseInt(idleText, 10, 64)
	rounds, err2 := strconv.Atoi(roundsText)
	if err1 != nil || err2 != nil || idle < 0 || idle > int64(time.Second) || rounds < 1 || rounds > maxIdleWakeRounds {
		fmt.Fprintf(stderr, "%s=%q: want IDLE_NS,ROUNDS, the idle time at most 1s and 1 to %d rounds\n", idleWakeEnv, v, maxIdleWakeRounds)
		return 2
	}
	runtime.GOMAXPROCS(2)
	w := bufio.NewWriter(stdout)
	for r := range rounds + idleWakeWarm {
		if d := RoundAfterIdle(time.Duration(idle)); r >= idleWakeWarm {
			fmt.Fprintf(w, "%d\n", d.Nanoseconds())
		}
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}

// parseStarts reads a child's times, rounds of them.
func parseStarts(out []byte, rounds int) ([]float64, error) {
	fields := strings.Fields(string(out))
	if len(fields) != rounds {
		return nil, fmt.Errorf("the copy of the program gave %d times, want %d", len(fields), rounds)
	}
	starts := make([]float64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || !(v >= 0 && v <= MaxCost) {
			return nil, fmt.Errorf("the copy of the program gave %q, not a time in nanoseconds", quote(f))
		}
		starts[i] = v
	}
	return starts, nil
}

// RoundAfterIdle is one round of wake_after_idle, on a program already on
// 2 Ps: it sleeps idle, makes a goroutine and computes idleWakeCompute,
// and returns the time from just before the go statement to the
// goroutine's first instruction. scripts/wakeafteridle runs the same
// rounds, more of them and with other idle times.
func RoundAfterIdle(idle time.Duration) time.Duration {
	started := make(chan time.Time, 1)
	time.Sleep(idle)
	t0 := time.Now()
	go func() { started <- time.Now() }()
	work := computeFor(idleWakeCompute)
	runtime.KeepAlive(work)
	return (<-started).Sub(t0)
}

// computeFor computes for d of the clock and returns what it computed.
func computeFor(d time.Duration) uint64 {
	var x uint64
	for t0 := time.Now(); time.Since(t0) < d; {
		for i := range 100 {
			x += uint64(i)
		}
	}
	return x
}

// idleWakeSample summarises the rounds after idle.
func idleWakeSample(idle time.Duration, starts []float64) IdleWakeSample {
	s := IdleWakeSample{Idle: float64(idle), Rounds: len(starts)}
	var late []float64
	for _, v := range starts {
		if v > float64(IdleWakeLateAfter) {
			late = append(late, v)
		}
	}
	if s.Late = len(late); s.Late > 0 {
		slices.Sort(late)
		s.LateMin, s.LateP10, s.LateMedian = late[0], Quantile(late, 0.1), Quantile(late, 0.5)
		s.LateP90, s.LateMax = Quantile(late, 0.9), late[len(late)-1]
	}
	return s
}

// idleWake is the model's Costs.IdleWake from the figure: at each idle
// time, the share of rounds that were late, late by their 10th to 90th
// percentiles.
func (f *IdleWakeFigure) idleWake() gmp.IdleWake {
	var w gmp.IdleWake
	for i, p := range f.Points {
		w[i].After = ns(p.Idle)
		if p.Late > 0 {
			w[i].Share = float64(p.Late) / float64(p.Rounds)
			w[i].Min, w[i].Max = ns(p.LateP10), ns(p.LateP90)
		}
	}
	return w
}

// validate checks the figure as Parse checks the others, each mistake at
// its field.
func (f *IdleWakeFigure) validate(v *validator, name string) {
	if v.present(name+".late_after_ns") && !(f.LateAfter >= 1 && f.LateAfter <= MaxCost) {
		v.fail(name+".late_after_ns", fmt.Sprintf("want 1 to %.0f ns, got %v", MaxCost, f.LateAfter))
	}
	if !v.present(name + ".points") {
		return
	}
	if n := len(f.Points); n < 1 || n > gmp.MaxIdleWakePoints {
		v.fail(name+".points", fmt.Sprintf("want 1 to %d points, got %d", gmp.MaxIdleWakePoints, n))
		return
	}
	for i, p := range f.Points {
		at := fmt.Sprintf("%s.points[%d]", name, i)
		if v.present(at+".idle_ns") && !(p.Idle >= 1 && p.Idle <= MaxCost) {
			v.fail(at+".idle_ns", fmt.Sprintf("want 1 to %.0f ns, got %v", MaxCost, p.Idle))
		} else if i > 0 && ns(p.Idle) <= ns(f.Points[i-1].Idle) {
			// Compared as the whole nanoseconds the model takes.
			v.fail(at+".idle_ns", fmt.Sprintf("%v is not after the point before's %v: want the idle times in ascending order, at least a nanosecond apart", p.Idle, f.Points[i-1].Idle))
		}
		if v.present(at+".rounds") && (p.Rounds < 1 || p.Rounds > MaxSamples) {
			v.fail(at+".rounds", fmt.Sprintf("want 1 to %d rounds, got %d", MaxSamples, p.Rounds))
		}
		if v.present(at+".late") && (p.Late < 0 || p.Late > p.Rounds) {
			v.fail(at+".late", fmt.Sprintf("want 0 to the %d rounds, got %d", p.Rounds, p.Late))
			continue
		}
		stats := [5]float64{p.LateMin, p.LateP10, p.LateMedian, p.LateP90, p.LateMax}
		if p.Late > 0 {
			v.statistics(at, "late_", "_ns", stats, MaxCost, "ns (1s)")
			continue
		}
		for j, s := range stats {
			if field := at + ".late_" + statNames[j] + "_ns"; v.present(field) && s != 0 {
				v.fail(field, fmt.Sprintf("no round was late, so want 0, got %v", s))
			}
		}
	}
}

// line is the figure for a person, one point after the other.
func (f *IdleWakeFigure) line() string {
	s := fmt.Sprintf("wake after idle (rounds over %s late):", dur(f.LateAfter))
	for i, p := range f.Points {
		if i > 0 {
			s += ";"
		}
		s += fmt.Sprintf(" %s idle, %d of %d", dur(p.Idle), p.Late, p.Rounds)
		if p.Late > 0 {
			s += fmt.Sprintf(" (%s–%s, median %s)", dur(p.LateP10), dur(p.LateP90), dur(p.LateMedian))
		}
	}
	return s
}

// share is a point's late rounds in percent, for the costs' line.
func share(w gmp.IdleWakePoint) string {
	return fmt.Sprintf("%.0f%%", math.Round(100*w.Share))
}
