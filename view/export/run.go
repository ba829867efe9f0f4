package export

import "github.com/schedlab/schedlab/core/gmp"

// Exporter is what the exports have in common: a sink for a run's events,
// and its end.
type Exporter interface {
	Event(gmp.Event)
	End(*gmp.Machine) error
}

// stepper is an exporter that reads the machine's state after each step:
// the queues it shows are the machine's own, not worked out from the
// events.
type stepper interface{ AfterStep() }

// Run runs m to its end into x and returns how the run ended; x's End is
// the caller's to call. The events of m's start, which New made before
// any sink was set, reach x first.
func Run(m *gmp.Machine, x Exporter) gmp.End {
	m.SetSink(x.Event)
	s, steps := x.(stepper)
	if steps {
		s.AfterStep()
	}
	for {
		more := m.Step()
		if steps {
			s.AfterStep()
		}
		if !more {
			return m.End()
		}
	}
}

// Both is an exporter that hands a run to each of xs: one run of the
// model draws a handout and its timeline.
func Both(xs ...Exporter) Exporter { return both(xs) }

type both []Exporter

func (b both) Event(e gmp.Event) {
	for _, x := range b {
		x.Event(e)
	}
}

func (b both) AfterStep() {
	for _, x := range b {
		if s, ok := x.(stepper); ok {
			s.AfterStep()
		}
	}
}

// End ends each, and returns the first error.
func (b both) End(m *gmp.Machine) error {
	var first error
	for _, x := range b {
		if err := x.End(m); err != nil && first == nil {
			first = err
		}
	}
	return first
}
