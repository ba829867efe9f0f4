package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

const us = time.Microsecond

// A hand-made run on two Ps. P0 runs the pair G1 and G2 from the trace's
// start. P1 starts at 10µs and stops 300ns later (a look that found
// nothing), starts again 400ns after that (the last look took it back)
// and stops 80µs on (a back-off); it starts 5µs later and G2, last on
// P0, runs on it 75µs on (a steal), then G1 follows it there. P0's
// thread keeps P0, running nothing, until G1 moves back onto it 2.3ms
// later: neither a hold nor a gap, a move onto a kept P.
func TestTallyOfHoldsAndGaps(t *testing.T) {
	tl := newTally()
	tl.begin()
	tl.procStart(0, 0, true)
	tl.goStart(1*us, 1, 0)
	tl.goStart(2*us, 2, 0)
	tl.procStart(10*us, 1, false)
	tl.procStop(10*us+300, 1)
	tl.procStart(10*us+700, 1, false)
	tl.procStop(90*us+700, 1)
	tl.procStart(95*us+700, 1, false)
	tl.goStart(170*us+700, 2, 1)
	tl.goStart(171*us, 1, 1)
	tl.goStart(2500*us, 1, 0)

	if tl.starts != 3 {
		t.Errorf("%d starts, want 3 (not the P running when the trace began)", tl.starts)
	}
	wantIdle := []int{1, 0, 1, 0}
	if got := holdBuckets.count(tl.idle); !slices.Equal(got, wantIdle) {
		t.Errorf("holds given back: %v, want %v", got, wantIdle)
	}
	if got := holdBuckets.count(tl.stole); !slices.Equal(got, []int{0, 0, 1, 0}) {
		t.Errorf("holds until a steal: %v, want one of 75µs", got)
	}
	if got := gapBuckets.count(tl.gaps); !slices.Equal(got, []int{1, 1, 0, 0, 0}) {
		t.Errorf("gaps: %v, want one of 400ns and one of 5µs", got)
	}
	if len(tl.quick) != 1 || tl.quick[0] != 400 {
		t.Errorf("quick starts %v, want [400ns]", tl.quick)
	}
	if tl.moved != 3 || tl.kept != 1 {
		t.Errorf("moved %d, kept %d: want 3 moves (G2 and G1 to P1, G1 back), one onto a kept P", tl.moved, tl.kept)
	}

	var b strings.Builder
	tl.report(&b, "real (1 trace)")
	for _, want := range []string{
		"real (1 trace): 3 P starts in 1 runs, 3.0 a run",
		"held, then given back with nothing run: 2 (under 5µs 1, 5µs-50µs 0, 50µs-130µs 1, 130µs or more 0)",
		"held until a goroutine from another P ran: 1 (under 5µs 0, 5µs-50µs 0, 50µs-130µs 1, 130µs or more 0)",
		"goroutines that moved to another P: 3, 1 of them onto a P whose thread had kept it, running nothing, for over 1ms",
		"from a P's stop to the next start: under 2µs 1, 2µs-10µs 1, 10µs-30µs 0, 30µs-100µs 0, 100µs or more 0",
		"the starts under 2µs after a stop came p10 400ns, median 400ns, p90 400ns after it",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// A new run starts afresh: a stop at the end of one run and a start at
// the beginning of the next are no gap.
func TestTallyRunsApart(t *testing.T) {
	tl := newTally()
	tl.begin()
	tl.procStart(10*us, 1, false)
	tl.procStop(20*us, 1)
	tl.begin()
	tl.procStart(1*us, 1, false)
	if len(tl.gaps) != 0 || tl.runs != 2 || tl.starts != 2 {
		t.Errorf("gaps %v, runs %d, starts %d: want no gap across runs, 2 runs, 2 starts", tl.gaps, tl.runs, tl.starts)
	}
}
