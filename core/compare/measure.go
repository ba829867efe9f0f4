package compare

import (
	"cmp"
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
	// goroutine start and every wait still open at the end: its median
	// and 99th percentile.
	LatencyP50, LatencyP99 time.Duration
	Starts                 int
	// LongestWait is the longest any goroutine waited runnable before it
	// ran, or has waited when the run ended: the fairness a policy gives
	// the unluckiest goroutine.
	LongestWait time.Duration
	// OpenWaits are the goroutines still runnable when the run ended: a
	// wait cut short by the end, known only to be at least as long
	// (censored). It counts among the latencies as that lower bound, and
	// the AtLeast flags say a figure is one: the true figure is no less.
	OpenWaits                              int
	P50AtLeast, P99AtLeast, LongestAtLeast bool
	// NeverRan counts the goroutines made that never ran at all.
	NeverRan int
	// IdleWhileRunnable is the time Ps spent idle while runnable
	// goroutines waited in a queue, summed over Ps (work conservation).
	IdleWhileRunnable time.Duration
	// The pools' figures, summed over the scenario's pools (pool mode).
	Pool gmp.PoolStats
	// TasksStarted is how many of the submitted tasks started: those a
	// pool gave a worker, or the goroutines the other modes start for
	// them. HasTasks says the workload submits any: what-if policies
	// over a scenario without a pool have none to count.
	TasksStarted int
	HasTasks     bool
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
	r.Mode, r.Label, r.HasTasks = mode, mode.String(), true
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
	r.Mode, r.Label, r.HasTasks = taskmode.Pool, policy.String(), Submits(prog)
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
	var latencies []wait
	started := map[gmp.GID]bool{}
	m.SetSink(func(e gmp.Event) {
		switch e.Kind {
		case gmp.KindGoCreate:
			if e.Op != nil && tasks[e.Op.Pos] {
				r.TasksStarted++
			}
		case gmp.KindGoStart:
			latencies = append(latencies, wait{d: e.Waited()})
			started[e.G] = true
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
	// A goroutine still runnable at the end has waited since it became
	// runnable, and would have waited on: its wait counts as at least
	// that, rather than not at all.
	for id := gmp.GID(1); int(id) < m.NumG(); id++ {
		g := m.G(id)
		if !started[id] {
			r.NeverRan++
		}
		if g.Status == gmp.Grunnable {
			r.OpenWaits++
			latencies = append(latencies, wait{d: m.Now().Sub(g.Runnable), open: true})
		}
	}
	var p50, p99, longest wait
	p50, p99, longest = percentile(latencies, 50), percentile(latencies, 99), percentile(latencies, 100)
	r.LatencyP50, r.P50AtLeast = p50.d, p50.open
	r.LatencyP99, r.P99AtLeast = p99.d, p99.open
	r.LongestWait, r.LongestAtLeast = longest.d, longest.open
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

// wait is a goroutine's time runnable before it ran; open when the run
// ended first, so that it is a lower bound (a censored observation).
type wait struct {
	d    time.Duration
	open bool
}

// percentile is the nearest-rank p-th percentile of ws (zero if empty).
// It is open, a lower bound, when an open wait is among the ranks up to
// it: the true waits of those are longer, which can only raise it; when
// none is, the figure is exact, as longer waits above it do not move it.
func percentile(ws []wait, p int) wait {
	if len(ws) == 0 {
		return wait{}
	}
	s := slices.Clone(ws)
	slices.SortStableFunc(s, func(a, b wait) int { return cmp.Compare(a.d, b.d) })
	rank := max((p*len(s)+99)/100, 1) // ceil(p/100 * n)
	out := s[rank-1]
	out.open = slices.ContainsFunc(s[:rank], func(w wait) bool { return w.open })
	return out
}
