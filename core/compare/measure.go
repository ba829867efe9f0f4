package compare

import (
	"fmt"
	"slices"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/taskmode"
)

// StackSize is the stack each goroutine descriptor holds in the model:
// the runtime's starting stack (stackMin). Dead descriptors keep theirs on
// the free lists, so the simulated stack memory is 2 KiB per descriptor
// ever allocated.
const StackSize = 2 << 10

// Result is what one mode, or one policy, cost.
type Result struct {
	Mode taskmode.Mode
	// Label heads the result's column: the mode, or the policy.
	Label string
	// End says how the run ended; Err is set if it deadlocked, panicked or
	// broke an invariant, and the figures are then those of a failed run.
	End gmp.End
	// Makespan is when the run ended: main returned, or Until.
	Makespan time.Duration
	Events   int
	// Goroutines created, the most alive at once, and the stack memory
	// of every descriptor ever allocated (live or cached on free lists).
	Goroutines, PeakLive int
	StackBytes           int
	// The most Gs any P's ring held, and the global queue.
	PeakLocal, PeakGlobal int
	// Steals counts the steals of runqsteal (each takes half a ring);
	// Stolen the goroutines they took. Preemptions counts goroutines
	// stopped by sysmon's requests.
	Steals, Stolen, Preemptions int
	// Latency is scheduling latency, runnable to running, over every
	// goroutine start: its median and 99th percentile.
	LatencyP50, LatencyP99 time.Duration
	Starts                 int
	// LongestWait is the longest any goroutine waited runnable before it
	// ran: the fairness a policy gives the unluckiest goroutine.
	LongestWait time.Duration
	// IdleWhileRunnable is the time Ps spent idle while runnable
	// goroutines waited in a queue, summed over Ps (work conservation).
	IdleWhileRunnable time.Duration
	// The pools' figures, summed over the scenario's pools (pool mode).
	Pool gmp.PoolStats
	// TasksStarted is how many of the submitted tasks started: those a
	// pool gave a worker, or the goroutines the other modes start for
	// them.
	TasksStarted int
}

// ReuseRatio is the share of accepted tasks that went to a worker that had
// run one before; 0 when nothing was submitted.
func (r *Result) ReuseRatio() float64 {
	if r.Pool.Submitted == 0 {
		return 0
	}
	return float64(r.Pool.WorkersReused) / float64(r.Pool.Submitted)
}

// Run simulates prog, rewritten for mode, with cfg and measures it.
func Run(prog *gmp.Program, cfg gmp.Config, mode taskmode.Mode) (*Result, error) {
	p, err := Transform(prog, mode)
	if err != nil {
		return nil, err
	}
	r, err := measure(p, cfg, submitSites(prog.Main, nil))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mode, err)
	}
	r.Mode, r.Label = mode, mode.String()
	return r, nil
}

// submitSites collects the positions of prog's submit actions: the
// rewritten actions keep them, so a goroutine started at one runs a task.
func submitSites(ops []gmp.Op, into map[gmp.Pos]bool) map[gmp.Pos]bool {
	if into == nil {
		into = map[gmp.Pos]bool{}
	}
	for i := range ops {
		if ops[i].Kind == gmp.OpSubmit {
			into[ops[i].Pos] = true
		}
		submitSites(ops[i].Body, into)
		for _, c := range ops[i].Cases {
			submitSites(c.Body, into)
		}
	}
	return into
}

// RunPolicy simulates prog as written under policy and measures it.
func RunPolicy(prog *gmp.Program, cfg gmp.Config, policy gmp.Policy) (*Result, error) {
	cfg.Policy = policy
	r, err := measure(prog, cfg, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", policy, err)
	}
	r.Mode, r.Label = taskmode.Pool, policy.String()
	return r, nil
}

// measure runs p under cfg and takes its figures. tasks are the positions
// of the original submits, whose goroutines are tasks.
func measure(p *gmp.Program, cfg gmp.Config, tasks map[gmp.Pos]bool) (*Result, error) {
	cfg.MeasureIdle = true
	m, err := gmp.New(cfg, p)
	if err != nil {
		return nil, err
	}
	r := &Result{}
	var latencies []time.Duration
	m.SetSink(func(e gmp.Event) {
		switch e.Kind {
		case gmp.KindGoCreate:
			if e.Op != nil && tasks[e.Op.Pos] {
				r.TasksStarted++
			}
		case gmp.KindGoStart:
			latencies = append(latencies, e.Waited())
			r.LongestWait = max(r.LongestWait, e.Waited())
		case gmp.KindSteal:
			r.Steals++
			r.Stolen += e.Stolen()
		case gmp.KindGoStop:
			if e.Reason == gmp.ReasonPreempted {
				r.Preemptions++
			}
		}
	})
	r.End = m.Run()
	r.Makespan = m.Now().D()
	r.Events = m.Emitted()
	r.Goroutines = m.NumG() - 1
	r.PeakLive = m.PeakLive()
	r.StackBytes = m.Descriptors() * StackSize
	r.PeakLocal = m.PeakRunq()
	r.PeakGlobal = m.PeakGlobal()
	r.Starts = len(latencies)
	r.LatencyP50, r.LatencyP99 = percentile(latencies, 50), percentile(latencies, 99)
	r.IdleWhileRunnable = m.IdleWhileRunnable()
	for _, pl := range m.Pools() {
		s := pl.Stats
		r.Pool.Submitted += s.Submitted
		r.Pool.Completed += s.Completed
		r.Pool.Rejected += s.Rejected
		r.Pool.Blocked += s.Blocked
		r.Pool.WorkersStarted += s.WorkersStarted
		r.Pool.WorkersReused += s.WorkersReused
		r.Pool.WorkersPurged += s.WorkersPurged
		r.Pool.PeakRunning += s.PeakRunning
		r.Pool.Purges += s.Purges
	}
	if len(m.Pools()) > 0 {
		r.TasksStarted = r.Pool.Submitted
	}
	return r, nil
}

// percentile is the nearest-rank p-th percentile of ds (0 if empty).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := (p*len(s) + 99) / 100 // ceil(p/100 * n)
	return s[max(rank, 1)-1]
}
