package tui

import (
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// The pools panel shows, for a scenario that uses them, each pool and
// each semaphore as the model has them at the cursor. The model's pools
// decide with package pool's code (core/pool/decide); lockstep's tests hold
// real pools to them.

// poolRows is how many rows the pools panel wants: a title and a row per
// pool and semaphore, or none without them.
func poolRows(st *gmp.Machine) int {
	n := len(st.Pools()) + len(st.Sems())
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
	if len(pl.Waiters) > 0 {
		col = c.text(col, row, fmt.Sprintf(" · %d wait", len(pl.Waiters)), t.Warn)
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
