package manualclock_test

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/pool"
	"github.com/schedlab/schedlab/core/pool/manualclock"
)

var start = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// log collects what the timers' callbacks saw.
type log struct {
	clock *manualclock.Clock
	lines []string
}

func (l *log) at(name string) func() {
	return func() { l.lines = append(l.lines, name+"@"+l.clock.Now().Sub(start).String()) }
}

func TestAdvanceRunsDueTimersInOrderAtTheirTimes(t *testing.T) {
	c := manualclock.New(start)
	l := &log{clock: c}
	c.AfterFunc(3*time.Second, l.at("c"))
	c.AfterFunc(time.Second, l.at("a"))
	c.AfterFunc(3*time.Second, l.at("d")) // same time as c, scheduled later
	c.AfterFunc(2*time.Second, l.at("b"))
	c.AfterFunc(5*time.Second, l.at("e"))
	if due, ok := c.NextDue(); !ok || due != start.Add(time.Second) {
		t.Fatalf("NextDue = %v, %v", due, ok)
	}
	c.Advance(3 * time.Second)
	if want := []string{"a@1s", "b@2s", "c@3s", "d@3s"}; !slices.Equal(l.lines, want) {
		t.Fatalf("ran %v, want %v", l.lines, want)
	}
	if c.Now() != start.Add(3*time.Second) || c.Pending() != 1 {
		t.Fatalf("Now %v, %d pending", c.Now().Sub(start), c.Pending())
	}
	c.Advance(time.Hour)
	if c.Now() != start.Add(time.Hour+3*time.Second) || c.Pending() != 0 {
		t.Fatalf("Now %v, %d pending", c.Now().Sub(start), c.Pending())
	}
	if _, ok := c.NextDue(); ok {
		t.Fatal("NextDue with nothing pending")
	}
}

func TestTimersScheduledByACallbackRunInTheSameAdvance(t *testing.T) {
	c := manualclock.New(start)
	l := &log{clock: c}
	c.AfterFunc(time.Second, func() {
		l.at("first")()
		c.AfterFunc(time.Second, l.at("second"))
		c.AfterFunc(time.Hour, l.at("later"))
	})
	c.Advance(5 * time.Second)
	if want := []string{"first@1s", "second@2s"}; !slices.Equal(l.lines, want) {
		t.Fatalf("ran %v, want %v", l.lines, want)
	}
}

func TestStopAndReset(t *testing.T) {
	c := manualclock.New(start)
	l := &log{clock: c}
	stopped := c.AfterFunc(time.Second, l.at("stopped"))
	moved := c.AfterFunc(time.Second, l.at("moved"))
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop should report true once, then false")
	}
	if !moved.Reset(4 * time.Second) {
		t.Fatal("Reset of a pending timer should report true")
	}
	c.Advance(3 * time.Second)
	if len(l.lines) != 0 {
		t.Fatalf("ran %v", l.lines)
	}
	c.Advance(time.Second)
	if moved.Reset(time.Second) { // fired: no longer pending, but runs again
		t.Fatal("Reset of a fired timer should report false")
	}
	c.Advance(time.Second)
	if want := []string{"moved@4s", "moved@5s"}; !slices.Equal(l.lines, want) {
		t.Fatalf("ran %v, want %v", l.lines, want)
	}
}

func TestTimersDueNowRunAtTheNextAdvance(t *testing.T) {
	c := manualclock.New(start)
	l := &log{clock: c}
	c.AfterFunc(0, l.at("zero"))
	c.AfterFunc(-time.Second, l.at("negative"))
	if len(l.lines) != 0 {
		t.Fatal("AfterFunc ran its callback itself")
	}
	c.Advance(-time.Minute) // counts as zero
	if want := []string{"negative@0s", "zero@0s"}; !slices.Equal(l.lines, want) {
		t.Fatalf("ran %v, want %v", l.lines, want)
	}
	c.AdvanceTo(start.Add(-time.Hour)) // the past: time does not go back
	if c.Now() != start {
		t.Fatalf("time went back to %v", c.Now())
	}
}

func TestSetMovesTimeWithoutRunningTimers(t *testing.T) {
	c := manualclock.New(start)
	l := &log{clock: c}
	c.AfterFunc(time.Second, l.at("a"))
	c.AfterFunc(2*time.Second, l.at("b"))
	c.AfterFunc(time.Hour, l.at("later"))
	c.Set(start.Add(3 * time.Second))
	if len(l.lines) != 0 || c.Now() != start.Add(3*time.Second) {
		t.Fatalf("Set ran %v; Now %v", l.lines, c.Now().Sub(start))
	}
	c.Set(start) // never backwards
	if c.Now() != start.Add(3*time.Second) {
		t.Fatalf("Set went back to %v", c.Now().Sub(start))
	}
	c.AdvanceTo(c.Now()) // the overdue timers run, late, in due order
	if want := []string{"a@3s", "b@3s"}; !slices.Equal(l.lines, want) {
		t.Fatalf("ran %v, want %v", l.lines, want)
	}
}

func TestClockIsSafeForConcurrentUse(t *testing.T) {
	c := manualclock.New(start)
	// Advance runs callbacks before it returns, so once every goroutine
	// is done and one more Advance has passed every due time, each timer
	// has either fired once or been stopped: counted, nothing to wait for.
	var fired, stopped atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range 200 {
				tm := c.AfterFunc(time.Duration(i)*time.Millisecond, func() { fired.Add(1) })
				if i%3 == 0 && tm.Stop() {
					stopped.Add(1)
				}
				c.Advance(time.Millisecond)
				_ = c.Now()
				c.NextDue()
			}
		})
	}
	wg.Wait()
	c.Advance(time.Hour)
	if got := fired.Load() + stopped.Load(); got != 8*200 {
		t.Errorf("%d timers fired and %d were stopped: %d of %d accounted for", fired.Load(), stopped.Load(), got, 8*200)
	}
	if n := c.Pending(); n != 0 {
		t.Errorf("%d timers still pending after every due time passed", n)
	}
}

// A manual clock must satisfy pool.Clock.
var _ pool.Clock = (*manualclock.Clock)(nil)
