package tui

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/gmp"
	"github.com/schedlab/schedlab/pool"
)

// The pools panel shows, for a scenario that uses them, each pool as the
// real pool (package pool, driven in lockstep on a fake clock) sees it
// after the current event, and each semaphore as the model has it.

// poolRows is how many rows the pools panel wants: a title and a row per
// pool and semaphore, or none without them.
func poolRows(a *App) int {
	st := a.sess.State()
	n := len(st.Pools()) + len(st.Sems())
	if n == 0 {
		return 0
	}
	return 1 + n
}

// drawPools writes the pools panel: a title, then a row per pool and per
// semaphore, as many as fit.
func drawPools(c canvas, a *App) {
	if c.h == 0 {
		return
	}
	t := a.theme
	st := a.sess.State()
	snaps, _ := a.sess.RealPools()
	name, detail := "pools", "the real pool (package pool) on a clock driven by the run · idle workers: idle for / expiry, next first"
	switch {
	case len(st.Pools()) == 0:
		name, detail = "semaphores", "golang.org/x/sync/semaphore: who holds what, and who waits in line"
	case len(st.Sems()) > 0:
		detail = "pools: the real pool (package pool) on a clock driven by the run · then the semaphores"
	}
	if err := a.sess.PoolDisagreement(); err != nil {
		col := c.text(0, 0, " "+name+" ", t.Title)
		c.text(col+1, 0, truncate("the real pool disagrees with the model: "+err.Error(), c.w-col-1), t.Warn)
	} else {
		panelTitle(c, a, name, detail, -1)
	}
	row := 1
	for i := range st.Pools() {
		if row >= c.h {
			return
		}
		if i < len(snaps) {
			drawRealPool(c, a, row, st.Pools()[i].Decl.Name, &snaps[i])
		}
		row++
	}
	for i := range st.Sems() {
		if row >= c.h {
			return
		}
		drawSem(c, a, row, &st.Sems()[i])
		row++
	}
}

// drawRealPool writes one pool's row: capacity and running, the waiting
// submitters, the idle stack in reuse order with each worker's idle time
// against the expiry, the next purge, and the counters. The idle workers
// come first when room is short; the counters go when it is shorter.
func drawRealPool(c canvas, a *App, row int, name string, s *pool.Snapshot) {
	t := a.theme
	col := c.text(0, row, name+" ", t.Title)
	capacity := "∞"
	if s.Capacity >= 0 {
		capacity = fmt.Sprintf("%d", s.Capacity)
	}
	col = c.text(col, row, fmt.Sprintf("%d/%s run", s.Running, capacity), t.Base)
	if len(s.Waiters) > 0 {
		col = c.text(col, row, fmt.Sprintf(" · %d wait", len(s.Waiters)), t.Warn)
	}
	col = c.text(col, row, fmt.Sprintf(" · %d busy", len(s.Busy)), t.Dim)
	var tail string
	if !s.NextPurge.IsZero() {
		if due := s.NextPurge.Sub(s.At); due > 0 {
			tail = " · purge in " + short(due)
		} else {
			// The timer has fired; its goroutine has yet to run.
			tail = " · purge due " + short(-due) + " ago"
		}
	}
	counters := fmt.Sprintf(" · started %d reused %d purged %d", s.Stats.WorkersStarted, s.Stats.WorkersReused, s.Stats.WorkersPurged)
	if c.w >= wideWidth {
		tail += counters
	}
	limit := max(c.w-width(tail), col)
	col = c.text(col, row, fmt.Sprintf(" · idle %d", len(s.Idle)), t.Dim)
	if len(s.Idle) > 0 {
		col = c.text(col, row, ":", t.Dim)
		for i, w := range s.Idle {
			age := s.At.Sub(w.LastUsed)
			label := fmt.Sprintf(" w%d %s/%s", w.ID, short(age), short(s.Expiry))
			if col+width(label) > limit-4 && i < len(s.Idle)-1 {
				col = c.text(col, row, fmt.Sprintf(" +%d", len(s.Idle)-i), t.Dim)
				break
			}
			style := t.Base
			if age >= s.Expiry*3/4 {
				style = t.Note // close to its purge
			}
			col = c.text(col, row, truncate(label, limit-col), style)
		}
	}
	c.text(col, row, truncate(tail, c.w-col), t.Dim)
}

// drawSem writes one semaphore's row: how much is taken, and the line of
// waiters with what each wants.
func drawSem(c canvas, a *App, row int, sm *gmp.Sem) {
	t := a.theme
	col := c.text(0, row, sm.Decl.Name+" ", t.Title)
	col = c.text(col, row, fmt.Sprintf("semaphore %d/%d taken", sm.Cur, sm.Decl.Size), t.Base)
	if len(sm.Waiters) == 0 && len(sm.Stuck) == 0 {
		c.text(col, row, " · nobody waits", t.Dim)
		return
	}
	var ws []string
	for i, w := range sm.Waiters {
		if i == 8 {
			ws = append(ws, fmt.Sprintf("+%d", len(sm.Waiters)-8))
			break
		}
		ws = append(ws, fmt.Sprintf("%v(%d)", w.G, w.N))
	}
	s := fmt.Sprintf(" · %d waiting, first in line first: %s", len(sm.Waiters), strings.Join(ws, " "))
	if len(sm.Stuck) > 0 {
		s += fmt.Sprintf(" · %d ask more than it holds and wait forever", len(sm.Stuck))
	}
	c.text(col, row, truncate(s, c.w-col), t.Warn)
}
