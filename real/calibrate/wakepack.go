package calibrate

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// wake_pack, format 12's figure: how often the kernel puts a woken thread
// beside its waker, on a busy CPU, rather than on an idle one (gmp's
// wakepack.go says what the model does with it; scripts/vcpupack measures
// the same, one case at a time, with more rounds). PackRounds times the
// rounds: for each share of computing of the waker (a row) and each sleep
// (a column), the share of rounds whose thread was woken on the waker's
// CPU, when it last ran there (beside) and when it last ran on the other
// CPU (away). Upstream Linux gives about none away and, beside, all
// rounds whose thread slept under its migration cost, 0.5ms; a kernel
// that packs, such as this project's machine's, far more.

// wakePackSleeps and wakePackBusy are the figure's columns and rows: the
// sleeps and the waker's shares of computing it is measured at, where
// the project's machine's packing changes most. It falls from nearly all
// to none between a waker computing 60% and one computing 75% of each
// millisecond (scripts/vcpupack, ten runs a share: 92.5, 37.5, 0, 0 and
// 0% of the rounds away packed at 60, 70, 75, 80 and 90%), so the last
// row is 75%, past the edge, and the model's table is flat beyond it: a
// row of a waker that always computes, formats 12's first, put the edge
// at 100% and packed half of the threads woken by a waker three quarters
// busy, which the kernel packs none of.
var (
	wakePackSleeps = [gmp.WakePackSleeps]time.Duration{500 * time.Microsecond, 2 * time.Millisecond, 8 * time.Millisecond}
	wakePackBusy   = [gmp.WakePackUtils]int{30, 60, 75}
)

const (
	// maxWakePackRounds bounds the rounds of each case: a round lasts
	// its sleep and about 0.1ms more, and each copy's waker keeps to its
	// share for packSettle before each sleep's rounds, so 40 rounds of
	// the six cases in four copies take about 12 seconds.
	maxWakePackRounds = 40
	// wakePackCopies is how many fresh copies of the program share a
	// case's rounds: one process's placements can stray far from the
	// next one's (scripts/vcpupack's runs beside a waker computing 60%
	// of the time packed 2% to 88% of their rounds), as the threads'
	// history settles them, and three calibrations with two copies each
	// found 0-80% there.
	wakePackCopies = 4
	// wakePackEnv marks a copy of the program that wakePack started: its
	// value is "AWAY,BUSY,ROUNDS".
	wakePackEnv = "SCHEDLAB_CALIBRATE_WAKE_PACK"
)

// WakePackFigure is wake_pack: the sleeps and one row per share of
// computing of the waker. A machine with fewer than two CPUs has no rows.
type WakePackFigure struct {
	Rounds int           `json:"rounds"`
	Sleeps []float64     `json:"sleeps_ns"`
	Rows   []WakePackRow `json:"rows"`
}

// WakePackRow is one share of computing of the waker, asked (Busy, in
// percent) and done (Util, from 0 to 1: the waker's sleeps last longer
// than asked), and the shares of rounds woken beside the waker, one per
// sleep.
type WakePackRow struct {
	Busy   int       `json:"busy_percent"`
	Util   float64   `json:"util"`
	Beside []float64 `json:"beside"`
	Away   []float64 `json:"away"`
}

// PackDuty is how the waker of PackRounds computes: Busy percent (10 to
// 100) of each Period, sleeping the rest, for Settle before the first
// round. Calibrate's waker computes in periods of a millisecond after
// 100ms (WakerDuty).
type PackDuty struct {
	Busy           int
	Period, Settle time.Duration
}

// WakerDuty is calibrate's duty for a waker that computes busy percent of
// the time.
func WakerDuty(busy int) PackDuty {
	return PackDuty{Busy: busy, Period: packPeriod, Settle: packSettle}
}

// The waker's settings calibrate uses, and the bounds of any.
const (
	// packSettle is how long the waker keeps to its share of computing
	// before the first round: three of the kernel's 32ms half-lives, for
	// its CPU's utilisation to come near that share.
	packSettle = 100 * time.Millisecond
	// packPeriod is the waker's period of computing and sleeping.
	packPeriod = time.Millisecond
	// Bounds of a duty's period and settling time.
	minPackPeriod = 100 * time.Microsecond
	maxPackPeriod = time.Second
	maxPackSettle = 10 * time.Second
)

// Check says what is wrong with d, if anything.
func (d PackDuty) Check() error {
	if d.Busy < 10 || d.Busy > 100 || d.Period < minPackPeriod || d.Period > maxPackPeriod || d.Settle < 0 || d.Settle > maxPackSettle {
		return fmt.Errorf("the waker's busy share must be 10 to 100%%, its period %v to %v and its settling time 0 to %v, got %d%% of %v after %v",
			minPackPeriod, maxPackPeriod, maxPackSettle, d.Busy, d.Period, d.Settle)
	}
	return nil
}

// PackRound is one round of PackRounds: whether the woken thread ran on
// the waker's CPU, and how long after the write it ran.
type PackRound struct {
	Packed bool
	Wait   time.Duration
}

// wakePack measures the figure, rounds rounds (at most
// maxWakePackRounds) of each case, in wakePackCopies fresh copies of this
// program each (BecomeMeasuringChild), which run with the runtime's
// preemption signals off.
func wakePack(ctx context.Context, rounds int) (*WakePackFigure, error) {
	rounds = min(rounds, maxWakePackRounds)
	f := &WakePackFigure{Rounds: rounds}
	for _, d := range wakePackSleeps {
		f.Sleeps = append(f.Sleeps, float64(d))
	}
	if a, _ := twoCPUs(); a < 0 {
		return f, nil // one CPU: nothing to pack onto
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("wake_pack runs a copy of this program: %w", err)
	}
	for _, busy := range wakePackBusy {
		row := WakePackRow{Busy: busy}
		var computed []float64
		for _, away := range []bool{false, true} {
			packed := make([]int, len(wakePackSleeps))
			for c := range wakePackCopies {
				n := roundShare(rounds, c, wakePackCopies)
				if n == 0 {
					continue
				}
				got, share, err := childPacks(ctx, exe, away, busy, n)
				if err != nil {
					return nil, fmt.Errorf("wake_pack at %d%% busy: %w", busy, err)
				}
				for j := range packed {
					packed[j] += got[j]
				}
				computed = append(computed, share)
			}
			shares := make([]float64, len(packed))
			for j, k := range packed {
				shares[j] = float64(k) / float64(rounds)
			}
			if away {
				row.Away = shares
			} else {
				row.Beside = shares
			}
		}
		// The share the waker computed, which its sleeps' slack makes
		// less than asked; kept above the row before's, as the model
		// reads the rows, should a busy machine have run the waker late.
		row.Util = float64(busy) / 100
		if busy < 100 {
			row.Util = min(median(computed)/100, row.Util)
		}
		if i := len(f.Rows); i > 0 {
			row.Util = max(row.Util, min(f.Rows[i-1].Util+0.01, float64(busy)/100))
		}
		f.Rows = append(f.Rows, row)
	}
	return f, nil
}

// childPacks runs a copy of the program exe for rounds rounds of each
// sleep, and returns how many of each sleep's were packed and the share
// of the time the waker computed, in percent.
func childPacks(ctx context.Context, exe string, away bool, busy, rounds int) ([]int, float64, error) {
	out, err := runCopy(ctx, exe, fmt.Sprintf("%s=%d,%d,%d", wakePackEnv, boolDigit(away), busy, rounds), "GODEBUG=asyncpreemptoff=1")
	if err != nil {
		return nil, 0, err
	}
	return parsePacks(out, rounds)
}

// parsePacks reads a child's lines: per sleep, the rounds packed; then
// the share the waker computed.
func parsePacks(out []byte, rounds int) ([]int, float64, error) {
	fields := strings.Fields(string(out))
	if len(fields) != len(wakePackSleeps)+1 {
		return nil, 0, fmt.Errorf("the copy of the program gave %d figures, want %d", len(fields), len(wakePackSleeps)+1)
	}
	packed := make([]int, len(wakePackSleeps))
	for j := range packed {
		k, err := strconv.Atoi(fields[j])
		if err != nil || k < 0 || k > rounds {
			return nil, 0, fmt.Errorf("the copy of the program gave %q, not a count of 0 to %d rounds", quote(fields[j]), rounds)
		}
		packed[j] = k
	}
	share, err := strconv.ParseFloat(fields[len(packed)], 64)
	if err != nil || !(share >= 0 && share <= 100) {
		return nil, 0, fmt.Errorf("the copy of the program gave %q, not a share in percent", quote(fields[len(packed)]))
	}
	return packed, share, nil
}

// wakePackChild, in a copy of the program wakePack started, runs the
// rounds of each sleep and writes how many were packed, then the share
// the waker computed over them all.
func wakePackChild(v string, stdout, stderr io.Writer) int {
	parts := strings.Split(v, ",")
	bad := len(parts) != 3
	var away, busy, rounds int
	if !bad {
		var e1, e2, e3 error
		away, e1 = strconv.Atoi(parts[0])
		busy, e2 = strconv.Atoi(parts[1])
		rounds, e3 = strconv.Atoi(parts[2])
		bad = e1 != nil || e2 != nil || e3 != nil || away < 0 || away > 1 || busy < 10 || busy > 100 || rounds < 1 || rounds > maxWakePackRounds
	}
	if bad {
		fmt.Fprintf(stderr, "%s=%q: want AWAY,BUSY,ROUNDS, AWAY 0 or 1, BUSY 10 to 100 and 1 to %d rounds\n", wakePackEnv, v, maxWakePackRounds)
		return 2
	}
	w := bufio.NewWriter(stdout)
	var shares []float64
	for _, d := range wakePackSleeps {
		got, share, err := PackRounds(away == 0, d, WakerDuty(busy), rounds)
		if err != nil {
			fmt.Fprintf(stderr, "wake_pack: %v\n", err)
			return 1
		}
		packed := 0
		for _, r := range got {
			if r.Packed {
				packed++
			}
		}
		fmt.Fprintf(w, "%d\n", packed)
		shares = append(shares, share)
	}
	fmt.Fprintf(w, "%.1f\n", median(shares))
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}

func boolDigit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wakePack is the model's Costs.WakePack from the figure; none from a
// figure without rows.
func (f *WakePackFigure) wakePack() gmp.WakePack {
	var w gmp.WakePack
	if len(f.Rows) != gmp.WakePackUtils {
		return w
	}
	for j, d := range f.Sleeps {
		w.Sleeps[j] = ns(d)
	}
	for i, r := range f.Rows {
		w.Utils[i] = r.Util
		copy(w.Beside[i][:], r.Beside)
		copy(w.Away[i][:], r.Away)
	}
	return w
}

// validate checks the figure as Parse checks the others, each mistake at
// its field.
func (f *WakePackFigure) validate(v *validator, name string) {
	if v.present(name+".rounds") && (f.Rounds < 1 || f.Rounds > MaxSamples) {
		v.fail(name+".rounds", fmt.Sprintf("want 1 to %d rounds, got %d", MaxSamples, f.Rounds))
	}
	if v.present(name + ".sleeps_ns") {
		if len(f.Sleeps) != gmp.WakePackSleeps {
			v.fail(name+".sleeps_ns", fmt.Sprintf("want %d sleeps, got %d", gmp.WakePackSleeps, len(f.Sleeps)))
		} else {
			for j, d := range f.Sleeps {
				if !(d >= 1 && d <= MaxCost) || j > 0 && ns(d) <= ns(f.Sleeps[j-1]) {
					v.fail(name+".sleeps_ns", fmt.Sprintf("want %d sleeps of 1 to %.0f ns in ascending order, got %v", gmp.WakePackSleeps, MaxCost, f.Sleeps))
					break
				}
			}
		}
	}
	if !v.present(name + ".rows") {
		return
	}
	if n := len(f.Rows); n != 0 && n != gmp.WakePackUtils {
		v.fail(name+".rows", fmt.Sprintf("want %d rows, or none for a machine of one CPU, got %d", gmp.WakePackUtils, n))
		return
	}
	for i, r := range f.Rows {
		at := fmt.Sprintf("%s.rows[%d]", name, i)
		if v.present(at+".busy_percent") && (r.Busy < 1 || r.Busy > 100 || i > 0 && r.Busy <= f.Rows[i-1].Busy) {
			v.fail(at+".busy_percent", fmt.Sprintf("want 1 to 100, above the row before's, got %d", r.Busy))
		}
		if v.present(at+".util") && (!(r.Util > 0 && r.Util <= 1) || i > 0 && r.Util <= f.Rows[i-1].Util) {
			v.fail(at+".util", fmt.Sprintf("want a utilisation in (0, 1], above the row before's, got %v", r.Util))
		}
		for _, side := range []struct {
			field  string
			shares []float64
		}{{"beside", r.Beside}, {"away", r.Away}} {
			if !v.present(at + "." + side.field) {
				continue
			}
			if len(side.shares) != gmp.WakePackSleeps {
				v.fail(at+"."+side.field, fmt.Sprintf("want %d shares, one per sleep, got %d", gmp.WakePackSleeps, len(side.shares)))
				continue
			}
			for _, s := range side.shares {
				if !(s >= 0 && s <= 1) {
					v.fail(at+"."+side.field, fmt.Sprintf("want shares from 0 to 1, got %v", side.shares))
					break
				}
			}
		}
	}
}

// line is the figure for a person: per share of computing, the rounds
// woken beside the waker at each sleep.
func (f *WakePackFigure) line() string {
	if len(f.Rows) == 0 {
		return "wake pack: not measured (one CPU)"
	}
	var sleeps []string
	for _, d := range f.Sleeps {
		sleeps = append(sleeps, dur(d))
	}
	s := fmt.Sprintf("wake pack (woken on the waker's CPU after %s asleep, having last run there / on the other CPU):", strings.Join(sleeps, ", "))
	for i, r := range f.Rows {
		if i > 0 {
			s += ";"
		}
		s += fmt.Sprintf(" waker busy %.0f%% %s / %s", 100*r.Util, percents(r.Beside), percents(r.Away))
	}
	return s
}

func percents(shares []float64) string {
	p := make([]string, len(shares))
	for i, s := range shares {
		p[i] = strconv.FormatFloat(math.Round(100*s), 'f', 0, 64)
	}
	return strings.Join(p, " ") + "%"
}
