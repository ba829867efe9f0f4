package bench

import "time"

// Sampling periods. A millisecond is fine enough to see raw's pile of
// goroutines (a goroutine lives at least as long as its task is queued) and
// coarse enough that the sampler's own wake-ups stay a small share of the
// scheduler's work.
const (
	sampleEvery   = time.Millisecond
	progressEvery = 200 * time.Millisecond // "a few times a second"
)

// sampler is the goroutine that keeps the peaks of a gauge during a run,
// and calls tick every progressEvery so the caller can show progress
// without a goroutine of its own.
type sampler struct {
	stop   chan struct{}
	result chan level
}

// startSampler starts the sampler goroutine. It counts in
// runtime.NumGoroutine from here on, before it has run.
func startSampler(tick func()) *sampler {
	s := &sampler{stop: make(chan struct{}), result: make(chan level, 1)}
	go s.loop(tick)
	return s
}

func (s *sampler) loop(tick func()) {
	g := newGauge()
	peak := g.read()
	t := time.NewTicker(sampleEvery)
	defer t.Stop()
	lastTick := time.Now()
	for {
		select {
		case <-s.stop:
			peak.raise(g.read())
			s.result <- peak
			return
		case now := <-t.C:
			peak.raise(g.read())
			if tick != nil && now.Sub(lastTick) >= progressEvery {
				tick()
				lastTick = now
			}
		}
	}
}

// finish stops the sampler and returns the peaks it saw, its last reading
// included. tick is not called after finish returns.
func (s *sampler) finish() level {
	close(s.stop)
	return <-s.result
}
