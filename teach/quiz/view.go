package quiz

import (
	"slices"

	"github.com/schedlab/schedlab/core/gmp"
)

// view is what the events so far have shown, kept only to draw plausible
// wrong choices: which goroutines wait to run and where, the threads seen,
// each pool's idle workers, and the Ps taken from a system call.
type view struct {
	procs     int
	runnable  map[gmp.GID]gmp.Loc
	ms        []gmp.MID // sorted
	idle      map[int][]int
	maxWorker map[int]int
	retaken   map[gmp.PID]bool
	// locks follows each mutex: who took it last, who waits in line, who
	// spins.
	locks map[int]*lockView
}

// lockView is what the events have shown of one mutex.
type lockView struct {
	last     gmp.GID
	queued   []gmp.GID
	spinning []gmp.GID
}

func newView(procs int) *view {
	return &view{procs: procs, runnable: map[gmp.GID]gmp.Loc{}, idle: map[int][]int{},
		maxWorker: map[int]int{}, retaken: map[gmp.PID]bool{}, locks: map[int]*lockView{}}
}

// observe updates the view with e, the next event of the run.
func (v *view) observe(e *gmp.Event) {
	if e.M >= 0 {
		if i, found := slices.BinarySearch(v.ms, e.M); !found {
			v.ms = slices.Insert(v.ms, i, e.M)
		}
	}
	if e.G != gmp.NoG {
		switch e.To.Kind {
		case gmp.LocRunnext, gmp.LocRunq, gmp.LocGlobal:
			v.runnable[e.G] = e.To
		case gmp.LocNone:
		default:
			delete(v.runnable, e.G)
		}
		if e.Kind == gmp.KindGoStart || e.Kind == gmp.KindGoExit {
			delete(v.runnable, e.G)
		}
	}
	switch e.Kind {
	case gmp.KindProcSteal:
		v.retaken[e.P] = true
	case gmp.KindProcStart:
		delete(v.retaken, e.P)
	}
	pool := e.Pool()
	switch e.Rule {
	case gmp.RulePoolIdle:
		v.idle[pool] = append(v.idle[pool], e.Worker())
	case gmp.RulePoolDispatchIdle, gmp.RulePoolReadyStop, gmp.RulePoolWorkerLost:
		v.idle[pool] = slices.DeleteFunc(v.idle[pool], func(w int) bool { return w == e.Worker() })
	}
	if e.Rule == gmp.RulePoolDispatchNew || e.Rule == gmp.RulePoolIdle {
		v.maxWorker[pool] = max(v.maxWorker[pool], e.Worker())
	}
	v.observeLock(e)
}

// observeLock follows a mutex's contenders through its events.
func (v *view) observeLock(e *gmp.Event) {
	if e.Kind != gmp.KindMutexLock {
		return
	}
	l := v.locks[e.Mutex()]
	if l == nil {
		l = &lockView{}
		v.locks[e.Mutex()] = l
	}
	drop := func(gs []gmp.GID) []gmp.GID { return slices.DeleteFunc(gs, func(g gmp.GID) bool { return g == e.G }) }
	switch e.Rule {
	case gmp.RuleMutexSpin:
		if !slices.Contains(l.spinning, e.G) {
			l.spinning = append(l.spinning, e.G)
		}
	case gmp.RuleMutexQueue:
		l.spinning = drop(l.spinning)
		if !slices.Contains(l.queued, e.G) {
			l.queued = append(l.queued, e.G)
		}
	case gmp.RuleMutexLock, gmp.RuleMutexAcquire, gmp.RuleMutexHandedOff:
		l.spinning, l.queued = drop(l.spinning), drop(l.queued)
		l.last = e.G
	}
}

// contenders are the goroutines that might take mutex mu next: those in
// line, those spinning, and the one that had it last, in goroutine
// order.
func (v *view) contenders(mu int) []gmp.GID {
	l := v.locks[mu]
	if l == nil {
		return nil
	}
	out := slices.Concat(l.queued, l.spinning)
	if l.last != gmp.NoG && !slices.Contains(out, l.last) {
		out = append(out, l.last)
	}
	slices.Sort(out)
	return out
}

// runnableNames names the goroutines waiting to run, those on p first,
// then the global queue's, then the rest, in goroutine order; and g's
// neighbours when few wait.
func (v *view) runnableNames(p gmp.PID, g gmp.GID) []string {
	var local, global, other []gmp.GID
	for id, l := range v.runnable {
		switch {
		case l.Kind == gmp.LocGlobal:
			global = append(global, id)
		case l.P() == p:
			local = append(local, id)
		default:
			other = append(other, id)
		}
	}
	var out []string
	for _, ids := range [][]gmp.GID{local, global, other} {
		slices.Sort(ids)
		for _, id := range ids {
			if id != g {
				out = append(out, id.String())
			}
		}
	}
	return out
}

// maxM is the highest thread seen.
func (v *view) maxM() gmp.MID {
	if len(v.ms) == 0 {
		return 0
	}
	return v.ms[len(v.ms)-1]
}
