package bench

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schedlab/schedlab/core/taskmode"
)

// bench holds what the runs of one Run share: the settings, the calibrated
// work of a CPU task, and the tally of the run in progress.
type bench struct {
	cfg       Config
	spinIters int64 // iterations of spin in a CPU task

	// ran[i] counts the executions of task i in this run, so a lost or
	// repeated task is caught, not just a wrong total. Allocated once,
	// before any run, so it weighs on no run's allocations.
	ran  []atomic.Uint32
	done atomic.Int64 // tasks finished in this run, for the progress line
	// inTask is the gauge the run's first task to finish reads, in its
	// own goroutine, and atTask what it read: however short the run, the
	// peak then counts at least that goroutine, which a sampler looking
	// every millisecond can miss.
	inTask *gauge
	atTask atomic.Pointer[level]
}

func newBench(cfg Config, spinPerMicro float64) *bench {
	return &bench{
		cfg:       cfg,
		spinIters: spinIterations(spinPerMicro, cfg.TaskTime),
		ran:       make([]atomic.Uint32, cfg.Tasks),
		inTask:    newGauge(),
	}
}

// task is task number i: the same work whatever the mode.
func (b *bench) task(i int) {
	if b.cfg.Shape.computes(i) {
		spinSink.Store(spin(b.spinIters))
	} else {
		time.Sleep(b.cfg.TaskTime)
	}
	b.ran[i].Add(1)
	if b.done.Add(1) == 1 {
		l := b.inTask.read()
		b.atTask.Store(&l)
	}
}

// reset clears the tally for the next run.
func (b *bench) reset() {
	for i := range b.ran {
		b.ran[i].Store(0)
	}
	b.done.Store(0)
	b.atTask.Store(nil)
}

// checkRanOnce fails unless every task ran exactly once: a mode that loses
// or repeats tasks has no figures worth reporting.
func checkRanOnce(mode taskmode.Mode, ran []atomic.Uint32) error {
	var never, again, firstNever, firstAgain int
	var againTimes uint32
	for i := range ran {
		switch n := ran[i].Load(); {
		case n == 0:
			if never == 0 {
				firstNever = i
			}
			never++
		case n > 1:
			if again == 0 {
				firstAgain, againTimes = i, n
			}
			again++
		}
	}
	if never == 0 && again == 0 {
		return nil
	}
	var problems []string
	if never > 0 {
		problems = append(problems, fmt.Sprintf("%d of %d tasks never ran (the first: task %d)", never, len(ran), firstNever))
	}
	if again > 0 {
		problems = append(problems, fmt.Sprintf("%d of %d tasks ran more than once (the first: task %d, %d times)", again, len(ran), firstAgain, againTimes))
	}
	return fmt.Errorf("%s: %s", mode, strings.Join(problems, "; "))
}
