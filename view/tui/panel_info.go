package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
)

// infoItem is one labelled part of the info panel.
type infoItem struct {
	label string
	draw  func(c canvas, col, row, limit int) int
}

// infoPanel writes the global queue, the Ms, the netpoller, timers, sysmon,
// channels and, when one is found, the goroutine looked for. Narrow
// screens pair the short items on a row; wide ones give each its own.
type infoPanel struct{}

// rows are three, or six on a screen wide and tall enough.
func (infoPanel) rows(f frame, _ int) int {
	if f.wide && f.h >= tallHeight {
		return 6
	}
	return 3
}

// least is the queues' row and the Ms'.
func (infoPanel) least(_ frame, want int) int { return min(want, 2) }

func (p infoPanel) draw(c canvas, f frame) {
	it := infoItems(f)
	var rows [][]infoItem
	if it.found != nil {
		rows = append(rows, []infoItem{*it.found})
	}
	if p.rows(f, 0) >= 6 {
		rows = append(rows, []infoItem{it.global}, []infoItem{it.ms}, []infoItem{it.sysmon},
			[]infoItem{it.netpoll, it.timers}, []infoItem{it.chans})
	} else {
		rows = append(rows, []infoItem{it.global, it.timers, it.netpoll}, []infoItem{it.ms}, []infoItem{it.sysmon})
	}
	for row, items := range rows[:min(len(rows), c.h)] {
		col := 0
		for i, item := range items {
			// Share the row: each item but the last gets an equal part.
			limit := c.w
			if i < len(items)-1 {
				limit = col + (c.w-col)/(len(items)-i) - 3
			}
			if i > 0 {
				col = c.text(col, row, " │ ", f.theme.Dim)
			}
			col = c.text(col, row, item.label+" ", f.theme.Title)
			end := item.draw(c, col, row, limit)
			if i < len(items)-1 {
				col = max(end, limit)
			}
		}
	}
}

// globalPanel is the one row of queues a split pane has room for: the
// global run queue.
type globalPanel struct{}

func (globalPanel) rows(frame, int) int { return 1 }

func (globalPanel) draw(c canvas, f frame) {
	t := f.theme
	q := f.state.Sched()
	col := c.text(0, 0, "global ", t.Title)
	col = c.text(col, 0, strconv.Itoa(q.RunqLen())+" ", t.Dim)
	gList(c, f, col, 0, c.w, q.RunqHead(12), q.RunqLen())
}

type infoSet struct {
	found                                      *infoItem
	global, ms, sysmon, netpoll, timers, chans infoItem
}

func infoItems(f frame) infoSet {
	t := f.theme
	st := f.state
	var it infoSet
	if f.found > 0 && int(f.found) < st.NumG() {
		it.found = &infoItem{label: "found", draw: func(c canvas, col, row, limit int) int {
			return c.text(col, row, truncate(describeG(st, f.desc, f.found)+" · n/N: its events · esc: clear", limit-col), t.Found)
		}}
	}
	text := func(label string, f func() string) infoItem {
		return infoItem{label: label, draw: func(c canvas, col, row, limit int) int {
			return c.text(col, row, truncate(f(), limit-col), t.Base)
		}}
	}
	it.global = infoItem{label: "global", draw: func(c canvas, col, row, limit int) int {
		q := st.Sched()
		n := q.RunqLen()
		col = c.text(col, row, fmt.Sprintf("%d ", n), t.Dim)
		if n == 0 {
			return c.text(col, row, "empty", t.Dim)
		}
		return gList(c, f, col, row, limit, q.RunqHead(24), n)
	}}
	it.ms = infoItem{label: "Ms", draw: func(c canvas, col, row, limit int) int {
		return drawMs(c, f, col, row, limit)
	}}
	it.sysmon = text("sysmon", func() string { return sysmonText(st, f.desc) })
	it.netpoll = text("netpoll", func() string { return netpollText(st) })
	it.timers = text("timers", func() string { return timersText(st) })
	it.chans = text("chans", func() string { return chansText(st) })
	return it
}

// drawMs lists the threads and what each is doing; when they do not fit,
// it counts them by state instead.
func drawMs(c canvas, f frame, col, row, limit int) int {
	t := f.theme
	st := f.state
	var parts []string
	count := map[string]int{}
	for i := range st.NumM() {
		m := st.M(gmp.MID(i))
		var s, kind string
		switch {
		case m.State == gmp.MSysmon:
			s, kind = m.ID.String()+" sysmon", "sysmon"
		case m.State == gmp.MRunning:
			s, kind = fmt.Sprintf("%v %v·%v", m.ID, m.P, m.CurG), "running"
		case m.State == gmp.MSyscall:
			s, kind = fmt.Sprintf("%v syscall·%v", m.ID, m.CurG), "syscall"
		case m.State == gmp.MScheduler && m.Picked != gmp.NoG:
			s, kind = fmt.Sprintf("%v %v→%v", m.ID, m.P, m.Picked), "scheduling"
		case m.State == gmp.MScheduler && m.Spinning:
			s, kind = fmt.Sprintf("%v %v spin", m.ID, m.P), "spinning"
		case m.State == gmp.MScheduler && m.P == gmp.NoP:
			s, kind = fmt.Sprintf("%v no P", m.ID), "scheduling"
		case m.State == gmp.MScheduler:
			s, kind = fmt.Sprintf("%v %v sched", m.ID, m.P), "scheduling"
		case m.State == gmp.MIdle:
			s, kind = m.ID.String()+" idle", "idle"
		case m.State == gmp.MNetpoll:
			s, kind = m.ID.String()+" netpoll", "netpoll"
		case m.State == gmp.MStarting:
			s, kind = fmt.Sprintf("%v waking→%v", m.ID, m.NextP), "waking"
		}
		// With CPUs modelled, where the kernel has the thread: a thread
		// that could run but waits for a CPU holds up its P.
		switch cpu, on := st.ThreadCPU(m.ID); on {
		case gmp.CPURunning:
			s += fmt.Sprintf(" cpu%d", cpu)
		case gmp.CPUWaiting:
			s += " off-CPU"
			count["off-CPU"]++
		}
		parts = append(parts, s)
		count[kind]++
	}
	full := strings.Join(parts, "  ")
	if col+width(full) <= limit {
		return c.text(col, row, full, t.Base)
	}
	var sum []string
	for _, kind := range []string{"running", "spinning", "scheduling", "syscall", "netpoll", "waking", "idle", "sysmon"} {
		if count[kind] > 0 {
			sum = append(sum, fmt.Sprintf("%d %s", count[kind], kind))
		}
	}
	line := fmt.Sprintf("%d: %s", st.NumM(), strings.Join(sum, ", "))
	if n := count["off-CPU"]; n > 0 {
		// Off-CPU is where the kernel has a thread, not another state:
		// those threads are counted above too.
		line += fmt.Sprintf(" (%d of them off-CPU)", n)
	}
	return c.text(col, row, truncate(line, limit-col), t.Base)
}

func sysmonText(st *gmp.Machine, d *gmp.Describer) string {
	mon := st.SysmonState()
	if mon.Deep {
		return fmt.Sprintf("deep sleep (every P idle) until %v", mon.NextPass)
	}
	idle := plural(mon.Idle, "idle pass", "idle passes")
	if mon.InPass {
		// The pass is under way: its sleep starts when it ends.
		return fmt.Sprintf("pass at %v: %s · then sleeps %s (%s)", mon.LastPass, d.SysmonDid(mon.Did), short(mon.Delay), idle)
	}
	last := "no pass yet"
	if mon.Passes > 0 {
		last = fmt.Sprintf("last pass %v: %s", mon.LastPass, d.SysmonDid(mon.Did))
	}
	return fmt.Sprintf("sleeps %s (%s) · %s · next %v", short(mon.Delay), idle, last, mon.NextPass)
}

// plural writes "1 idle pass" or "3 idle passes".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func netpollText(st *gmp.Machine) string {
	sch := st.Sched()
	who := ""
	if sch.NetpollBlocked != gmp.NoM {
		who = sch.NetpollBlocked.String() + " blocked in it"
		if sch.PollUntil != 0 {
			who += " until " + sch.PollUntil.String()
		}
		who += " · "
	}
	waiters := st.NetWaiters()
	if len(waiters) == 0 {
		if who == "" {
			return "idle"
		}
		return who + "no waiters"
	}
	var ws []string
	for _, w := range waiters {
		if w.Ready {
			ws = append(ws, w.G.String()+" ready")
		} else {
			ws = append(ws, fmt.Sprintf("%v at %v", w.G, w.ReadyAt))
		}
	}
	return fmt.Sprintf("%s%d waiting: %s", who, len(waiters), strings.Join(ws, ", "))
}

// timersShown is how many timers per P the timers line names; the rest
// are counted.
const timersShown = 4

// timersText names each P's earliest timers. It asks the heap for those
// alone: sorting every P's whole heap for four names each was most of a
// frame's cost with 100k goroutines asleep.
func timersText(st *gmp.Machine) string {
	var parts []string
	var buf [timersShown]gmp.Timer
	for i := range st.Procs() {
		p := st.P(gmp.PID(i))
		n := p.TimerCount()
		if n == 0 {
			continue
		}
		var gs []string
		for _, tm := range p.EarliestTimers(timersShown, buf[:0]) {
			if tm.Purge != 0 {
				gs = append(gs, fmt.Sprintf("purge:%s@%v", st.Pools()[tm.Purge-1].Decl.Name, tm.When))
				continue
			}
			if tm.Zombie {
				gs = append(gs, fmt.Sprintf("%v@%v zombie", tm.G, tm.When))
				continue
			}
			gs = append(gs, fmt.Sprintf("%v@%v", tm.G, tm.When))
		}
		if n > timersShown {
			gs = append(gs, fmt.Sprintf("+%d", n-timersShown))
		}
		parts = append(parts, p.ID.String()+": "+strings.Join(gs, " "))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " · ")
}

func chansText(st *gmp.Machine) string {
	if len(st.Chans()) == 0 {
		return "none"
	}
	var parts []string
	for _, ch := range st.Chans() {
		s := fmt.Sprintf("%s %d/%d", ch.Name, ch.Buf, ch.Cap)
		if ch.Closed {
			s += " closed"
		}
		if ch.RecvQ.Len() > 0 {
			s += fmt.Sprintf(" recvq %v", gids(ch.RecvQ.GIDs()))
		}
		if ch.SendQ.Len() > 0 {
			s += fmt.Sprintf(" sendq %v", gids(ch.SendQ.GIDs()))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}

func gids(gs []gmp.GID) string {
	var b strings.Builder
	for i, g := range gs {
		if i == 6 {
			fmt.Fprintf(&b, " +%d", len(gs)-6)
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.String())
	}
	return b.String()
}

// waitingWhere says where a waiting goroutine waits, in the sentences'
// words, and the trace's reason for it where the place does not already
// say it: "in channel results (chan receive)", "for its children".
func waitingWhere(d *gmp.Describer, g *gmp.G) string {
	if g.Where.Kind == gmp.LocWait {
		return "for its children"
	}
	where := "in " + d.Place(g.Where)
	if reason := g.WaitReason.String(); !strings.Contains(d.Loc(g.Where), reason) {
		where += " (" + reason + ")"
	}
	return where
}

// describeG says where goroutine id is and what it is doing in st, in
// d's words.
func describeG(st *gmp.Machine, d *gmp.Describer, id gmp.GID) string {
	g := st.G(id)
	var where string
	switch g.Status {
	case gmp.Gdead:
		where = "exited"
	case gmp.Grunning:
		where = "running on " + g.Where.P().String()
	case gmp.Gsyscall:
		where = "in a syscall on " + g.M.String()
	case gmp.Grunnable:
		where = "runnable in " + d.Loc(g.Where)
	case gmp.Gwaiting:
		where = "waiting " + waitingWhere(d, g)
	}
	s := fmt.Sprintf("%v %s", id, where)
	if g.Parent != gmp.NoG {
		s += fmt.Sprintf(" · created by %v at %v", g.Parent, st.Created(id))
	}
	if op := st.OpOf(g); op != nil && op.Pos.Line > 0 && g.Status != gmp.Gdead {
		s += fmt.Sprintf(" · %s at line %d", st.Program().OpName(op), op.Pos.Line)
	}
	return s
}
