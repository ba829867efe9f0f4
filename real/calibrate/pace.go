package calibrate

import (
	"sync"

	"github.com/schedlab/schedlab/real/verify"
)

// paceSamples is how many samples each figure of a pace probe takes: a
// few milliseconds in all, against the seconds of a calibration.
const paceSamples = 100

// paceWarm runs a process's first probe, which is thrown away: the first
// in a process ran 15% slower than the next (341ns against 280–284ns, a
// hand-off in fifteen probes in a row), its channels and goroutines new.
var paceWarm sync.Once

// MeasurePace probes this machine's pace now (verify.Pace): the median of
// paceSamples samples of the hand-off and of the mutex's spin, measured as
// Measure measures handoff and mutex_spin. It is quick, for verify to take
// around each real run and set beside the profile's (Profile.Pace). ok is
// false where calibrate does not measure (outside Linux).
func MeasurePace() (p verify.Pace, ok bool) {
	if !measured {
		return verify.Pace{}, false
	}
	paceWarm.Do(func() { probePace() })
	return probePace(), true
}

func probePace() verify.Pace {
	handoff := summarise(onOneP(func() []float64 { return pingPong(paceSamples, hopRounds, false) }))
	spin := summarise(mutexSpin(paceSamples))
	return verify.Pace{Handoff: ns(handoff.Median), Spin: ns(spin.Median)}
}

// Pace is the pace p measured (verify.Pace): its hand-off's median and
// its spin's. ok is false for a profile of a format before the spin was
// measured.
func (p *Profile) Pace() (pace verify.Pace, ok bool) {
	if p.Figures.MutexSpin == nil {
		return verify.Pace{}, false
	}
	return verify.Pace{Handoff: ns(p.Figures.Handoff.Median), Spin: ns(p.Figures.MutexSpin.Median)}, true
}
