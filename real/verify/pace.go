package verify

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Pace is how fast the machine ran the runtime's own work at one moment:
// the median of a quick probe (about 3ms) of two of the figures schedlab
// calibrate takes, an untraced hand-off on one P (calibrate's handoff) and
// a round of a mutex's spin (mutex_spin). A machine's costs move while its
// load average stays put: on a virtual machine the host's other work slows
// this one's CPUs, even a PAUSE instruction. The project's Intel Xeon VM,
// probed every 100 to 200ms for a minute at a load average of 0.2–0.6, ran
// at its profile's pace (a hand-off 242ns, a spin round 137ns) and at a
// slow one (320–432ns, 180–196ns) by turns, each for a tenth of a second
// to a few seconds, the slow one in a quarter to two thirds of the probes
// depending on the minute. A series of real runs of one scenario mixes the
// two, and its runs beside a slow probe took up to 17% longer. The fast
// pace is a CPU's just after idling: probes back to back were all slow,
// and after 1s asleep about half were fast, so a probe taken between runs
// finds it more often than a run of milliseconds keeps it. The load
// average shows none of it, and a probe does: verify probes the pace
// before each real run and after the last, and says how many runs had a
// probe off the profile's beside them (Report.notePace). It does not leave
// those runs out: judging only the runs at the pace brought neither the
// model nor a second series of real runs closer (docs/fidelity.md, "The
// machine's pace").
type Pace struct {
	Handoff time.Duration `json:"handoff_ns"`
	Spin    time.Duration `json:"spin_ns"`
}

// PaceOff is how far from the profile's a figure of the pace may be,
// as a ratio either way, before a probe is off it. On the Xeon, schedlab's
// probes in the fast state gave hand-offs of 241–250ns and spin rounds of
// 137ns, against the profile's 244ns and 137ns (a test binary's hand-offs
// ran at 280ns: the process matters, by less than this); the slow state
// took the hand-off 1.3–1.8× and the spin 1.3–1.45×.
const PaceOff = 1.2

// Valid says p is a pace a probe could measure: both figures positive and
// under a second.
func (p Pace) Valid() bool {
	return p.Handoff > 0 && p.Handoff < time.Second && p.Spin > 0 && p.Spin < time.Second
}

// String writes p as the report says it.
func (p Pace) String() string {
	return fmt.Sprintf("a hand-off %s, a spin round %s", shortDuration(p.Handoff), shortDuration(p.Spin))
}

// offFrom is how many times slower p is than the profile (less than 1:
// faster), by the figure further off.
func (p Pace) offFrom(profile Pace) float64 {
	ratio := 1.0
	for _, f := range [][2]time.Duration{{p.Handoff, profile.Handoff}, {p.Spin, profile.Spin}} {
		if f[0] <= 0 || f[1] <= 0 {
			continue
		}
		if r := float64(f[0]) / float64(f[1]); farther(r, ratio) {
			ratio = r
		}
	}
	return ratio
}

// farther says that ratio a is at least as far from 1 as b, either way.
func farther(a, b float64) bool {
	return max(a, 1/a) >= max(b, 1/b)
}

// atPace says that run's probes (either may be missing, not both) were
// within PaceOff of profile's on both figures; probed says it had one.
func atPace(run Observables, profile Pace) (at, probed bool) {
	at = true
	for _, p := range []*Pace{run.PaceBefore, run.PaceAfter} {
		if p == nil {
			continue
		}
		probed = true
		if farther(p.offFrom(profile), PaceOff) {
			at = false
		}
	}
	return at && probed, probed
}

// notePace describes the machine's pace around the real runs (r.Pace),
// from their probes, beside the profile's if there is one, counts the
// runs whose probes were off it (r.PaceOff), and notes them.
func (r *Report) notePace(real []Observables, profile *Pace) {
	// A run's probe after it is the next run's before, as RealRuns takes
	// them, and is counted once; a recording written by hand, or pooled
	// from series taken apart, may hold an after that is no before, and
	// it is a probe of its own: every probe a run is judged by (atPace)
	// is among these, so that the off ones below are never none.
	var probes []Pace
	for i, run := range real {
		if run.PaceBefore != nil {
			probes = append(probes, *run.PaceBefore)
		}
		if after := run.PaceAfter; after != nil && (i == len(real)-1 || real[i+1].PaceBefore == nil || *real[i+1].PaceBefore != *after) {
			probes = append(probes, *after)
		}
	}
	if len(probes) == 0 {
		return
	}
	handoffs, spins := paceFigures(probes)
	r.Pace = fmt.Sprintf("a hand-off %s and a spin round %s in %d probe%s around the real runs", spread(handoffs), spread(spins), len(probes), plural(len(probes)))
	if profile == nil || !profile.Valid() {
		return
	}
	for _, run := range real {
		if at, probed := atPace(run, *profile); probed {
			r.PaceProbed++
			if !at {
				r.PaceOff++
			}
		}
	}
	var off []Pace
	for _, p := range probes {
		if farther(p.offFrom(*profile), PaceOff) {
			off = append(off, p)
		}
	}
	r.Pace += fmt.Sprintf("; the profile's %s and %s", shortDuration(profile.Handoff), shortDuration(profile.Spin))
	if r.PaceOff == 0 {
		return
	}
	offH, offS := paceFigures(off)
	r.Notes = append(r.Notes, fmt.Sprintf("%d of the %d real runs had a probe of the machine's pace beside them off the profile's by %.0f%% or more (a hand-off %s, a spin round %s, against %s and %s): this machine changes pace within seconds while its load average stays put, and a run at another pace than the model's costs is slower or faster for it; but a probe after the machine idled finds a fast pace more often than a run of some milliseconds keeps it, so this says more of the machine between runs than of the runs (docs/fidelity.md, \"The machine's pace\")",
		r.PaceOff, r.PaceProbed, 100*(PaceOff-1), spread(offH), spread(offS), shortDuration(profile.Handoff), shortDuration(profile.Spin)))
}

// paceFigures is probes' hand-offs and spin rounds, each sorted.
func paceFigures(probes []Pace) (handoffs, spins []time.Duration) {
	for _, p := range probes {
		handoffs = append(handoffs, p.Handoff)
		spins = append(spins, p.Spin)
	}
	slices.Sort(handoffs)
	slices.Sort(spins)
	return handoffs, spins
}

// spread writes sorted durations as "241ns" when they are one, else as
// their range and median: "241ns–410ns (median 245ns)".
func spread(sorted []time.Duration) string {
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if shortDuration(lo) == shortDuration(hi) {
		return shortDuration(lo)
	}
	return fmt.Sprintf("%s–%s (median %s)", shortDuration(lo), shortDuration(hi), shortDuration(sorted[len(sorted)/2]))
}

// writePaceSummary says, under verify --all's count, how many real runs
// ran off the profile's pace (notePace), or nothing if none did.
func writePaceSummary(b *strings.Builder, reps []*Report) {
	probed, off, scenarios := 0, 0, 0
	for _, r := range reps {
		probed += r.PaceProbed
		off += r.PaceOff
		if r.PaceOff > 0 {
			scenarios++
		}
	}
	if off == 0 {
		return
	}
	fmt.Fprintf(b, "%d of the %d real runs probed, in %d of the %d scenarios, had a probe of the machine's pace off the profile's by %.0f%% or more beside them (each scenario's note gives the probes)\n",
		off, probed, scenarios, len(reps), 100*(PaceOff-1))
}
