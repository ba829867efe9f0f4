package tui

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// The pools panel shows, for a scenario that uses them, each pool, each
// semaphore, each mutex, each wait group and each object of a kind gmp
// registers (sync.Cond, …) as the model has them at the cursor. The model's pools
// decide with package pool's code (core/pool/decide); lockstep's tests hold
// real pools to them.

// poolRows is how many rows the pools panel wants: a title and a row per
// pool, semaphore, mutex, wait group and object, or none without them.
func poolRows(st *gmp.Machine) int {
	n := len(st.Pools()) + len(st.Sems()) + len(st.Mutexes()) + len(st.WaitGroups()) + len(st.Objects())
	if n == 0 {
		return 0
	}
	return 1 + n
}

// poolsPanel writes the pools panel: a title, then a row per pool and per
// semaphore, as many as fit.
type poolsPanel struct{}

// rows are a row each on a tall screen, and share two on a small one
// (the rest are counted in the title).
func (poolsPanel) rows(f frame, _ int) int {
	if f.h >= tallHeight {
		return min(poolRows(f.state), 7)
	}
	return min(poolRows(f.state), 3)
}

// least is the title and the first pool.
func (poolsPanel) least(_ frame, want int) int { return min(want, 2) }

// panePools is the pools panel in a split pane, which shares two rows
// whatever its height.
type panePools struct{ poolsPanel }

func (panePools) rows(f frame, _ int) int { return min(poolRows(f.state), 3) }

func (poolsPanel) draw(c canvas, f frame) {
	if c.h == 0 {
		return
	}
	st := f.state
	name, detail := "pools", "package pool's decisions · idle workers: idle for / expiry, next first"
	switch {
	case len(st.Pools())+len(st.Sems()) == 0:
		name, detail = "sync", syncDetail
	case len(st.Pools()) == 0:
		name, detail = "semaphores", "golang.org/x/sync/semaphore: who holds what, and who waits in line"
	case len(st.Sems()) > 0:
		detail = "pools (package pool's decisions), then the semaphores"
	}
	panelTitle(c, f, name, detail, -1)
	row := 1
	for i := range st.Pools() {
		if row >= c.h {
			return
		}
		drawPool(c, f.theme, row, &st.Pools()[i], st.Now())
		row++
	}
	for i := range st.Sems() {
		if row >= c.h {
			return
		}
		drawSem(c, f.theme, row, &st.Sems()[i])
		row++
	}
	for i := range st.Mutexes() {
		if row >= c.h {
			return
		}
		drawMutex(c, f.theme, row, &st.Mutexes()[i])
		row++
	}
	for i := range st.WaitGroups() {
		if row >= c.h {
			return
		}
		drawWaitGroup(c, f.theme, row, &st.WaitGroups()[i])
		row++
	}
	for i := range st.Objects() {
		if row >= c.h {
			return
		}
		drawObject(c, f.theme, row, &st.Objects()[i])
		row++
	}
}

// drawObject writes the row of an object of a registered kind: its name,
// its kind, what it holds in its kind's words, and who waits on it.
func drawObject(c canvas, t *Theme, row int, o *gmp.Obj) {
	k := gmp.KindOf(o)
	col := c.text(0, row, o.Decl.Name+" ", t.Title)
	col = c.text(col, row, k.GoType, t.Base)
	state := " · " + string(k.State(nil, o))
	if o.Q.Len() == 0 {
		c.text(col, row, truncate(state, c.w-col), t.Dim)
		return
	}
	c.text(col, row, truncate(state+": "+gids(o.Q.GIDs()), c.w-col), t.Warn)
}

// drawWaitGroup writes one wait group's row: its counter and who waits.
func drawWaitGroup(c canvas, t *Theme, row int, wg *gmp.WaitGroup) {
	col := c.text(0, row, wg.Decl.Name+" ", t.Title)
	col = c.text(col, row, fmt.Sprintf("wait group, counter %d", wg.Counter), t.Base)
	if wg.Sema.Len() == 0 {
		c.text(col, row, " · nobody waits", t.Dim)
		return
	}
	c.text(col, row, truncate(fmt.Sprintf(" · %d waiting: %s", wg.Sema.Len(), gids(wg.Sema.GIDs())), c.w-col), t.Warn)
}

// drawPool writes one pool's row at time now: capacity and running, the
// waiting submitters, the idle stack in reuse order with each worker's
// idle time against the expiry, the next purge, and the counters. The
// idle workers come first when room is short; the counters go when it is
// shorter.
func drawPool(c canvas, t *Theme, row int, pl *gmp.Pool, now sim.Time) {
	col := c.text(0, row, pl.Decl.Name+" ", t.Title)
	capacity := "∞"
	if pl.Cap >= 0 {
		capacity = fmt.Sprintf("%d", pl.Cap)
	}
	col = c.text(col, row, fmt.Sprintf("%d/%s run", pl.Running, capacity), t.Base)
	if pl.Waiters.Len() > 0 {
		col = c.text(col, row, fmt.Sprintf(" · %d wait", pl.Waiters.Len()), t.Warn)
	}
	idle := pl.Idle()
	col = c.text(col, row, fmt.Sprintf(" · %d busy", pl.Running-len(idle)), t.Dim)
	var tail string
	if pl.PurgeArmed {
		if due := pl.PurgeAt.Sub(now); due > 0 {
			tail = " · purge in " + short(due)
		} else {
			// The timer has fired; its goroutine has yet to run.
			tail = " · purge due " + short(-due) + " ago"
		}
	}
	counters := fmt.Sprintf(" · started %d reused %d purged %d", pl.Stats.WorkersStarted, pl.Stats.WorkersReused, pl.Stats.WorkersPurged)
	if c.w >= wideWidth {
		tail += counters
	}
	expiry := pl.Decl.Expiry
	if expiry == 0 {
		expiry = gmp.DefaultPoolExpiry
	}
	limit := max(c.w-width(tail), col)
	col = c.text(col, row, fmt.Sprintf(" · idle %d", len(idle)), t.Dim)
	if len(idle) > 0 {
		col = c.text(col, row, ":", t.Dim)
		for i, w := range idle {
			age := now.Sub(w.LastUsed)
			label := fmt.Sprintf(" w%d %s/%s", w.ID, short(age), short(expiry))
			if col+width(label) > limit-4 && i < len(idle)-1 {
				col = c.text(col, row, fmt.Sprintf(" +%d", len(idle)-i), t.Dim)
				break
			}
			style := t.Base
			if age >= expiry*3/4 {
				style = t.Note // close to its purge
			}
			col = c.text(col, row, truncate(label, limit-col), style)
		}
	}
	c.text(col, row, truncate(tail, c.w-col), t.Dim)
}

// drawSem writes one semaphore's row: how much is taken, and the line of
// waiters with what each wants.
func drawSem(c canvas, t *Theme, row int, sm *gmp.Sem) {
	col := c.text(0, row, sm.Decl.Name+" ", t.Title)
	col = c.text(col, row, fmt.Sprintf("semaphore %d/%d taken", sm.Cur, sm.Decl.Size), t.Base)
	if sm.Waiters.Len() == 0 && sm.Stuck.Len() == 0 {
		c.text(col, row, " · nobody waits", t.Dim)
		return
	}
	var ws []string
	for i, w := range sm.Waiters.All() {
		if i == 8 {
			ws = append(ws, fmt.Sprintf("+%d", sm.Waiters.Len()-8))
			break
		}
		ws = append(ws, fmt.Sprintf("%v(%d)", w.G, w.N))
	}
	s := fmt.Sprintf(" · %d waiting, first in line first: %s", sm.Waiters.Len(), strings.Join(ws, " "))
	if sm.Stuck.Len() > 0 {
		s += fmt.Sprintf(" · %d ask more than it holds and wait forever", sm.Stuck.Len())
	}
	c.text(col, row, truncate(s, c.w-col), t.Warn)
}

// drawMutex writes one mutex's row: who holds it, its mode, who spins on
// it, and its queue, first waiter first; for an rwmutex, the readers in
// and those waiting behind the writer too.
func drawMutex(c canvas, t *Theme, row int, mu *gmp.Mutex) {
	col := c.text(0, row, mu.Decl.Name+" ", t.Title)
	kind := "mutex"
	if mu.Decl.RW {
		kind = "rwmutex"
	}
	held := "free"
	switch {
	case mu.Holder != gmp.NoG && mu.WriterWaiting():
		held = fmt.Sprintf("writer %v waits for %d readers", mu.Holder, mu.Readers())
	case mu.Holder != gmp.NoG:
		held = "held by " + mu.Holder.String()
	case mu.Starving && mu.Waiters > mu.Sema.Len():
		held = "handed to a waiter"
	}
	col = c.text(col, row, kind+" "+held, t.Base)
	if mu.Decl.RW && mu.Readers() > 0 && !mu.WriterWaiting() {
		col = c.text(col, row, fmt.Sprintf(" · %d readers in", mu.Readers()), t.Base)
	}
	mode := " · normal"
	style := t.Dim
	if mu.Starving {
		mode, style = " · starving", t.Warn
	}
	col = c.text(col, row, mode, style)
	var s string
	if sp := mu.Spinning(); len(sp) > 0 {
		s += " · spinning " + gids(sp)
	}
	if mu.Sema.Len() > 0 {
		s += fmt.Sprintf(" · %d waiting, next first: %s", mu.Sema.Len(), gids(mu.Sema.GIDs()))
	}
	if mu.ReaderSem.Len() > 0 {
		s += fmt.Sprintf(" · %d readers wait: %s", mu.ReaderSem.Len(), gids(mu.ReaderSem.GIDs()))
	}
	c.text(col, row, truncate(s, c.w-col), t.Warn)
}

// syncDetail is the sync panel's title line: the mutexes' and wait
// groups' rows, then a clause for each kind of object gmp registers
// (objkinds.go), whose rows say what one holds and who waits.
var syncDetail = func() string {
	d := "sync.Mutex and RWMutex: who holds it, the mode, who spins and who waits; sync.WaitGroup: its counter and waiters"
	for _, k := range gmp.ObjKinds() {
		d += "; " + k.GoType + ": what it holds and who waits"
	}
	return d
}()
