package gmp

import (
	"strconv"
	"strings"
)

// SchedTrace formats the state the way GODEBUG=schedtrace prints it from
// sysmon (proc.go schedtrace), so the simulation can be held next to a
// real program's output. The milliseconds count from the first line
// printed, as in the runtime. detail adds the scheddetail=1 lines.
func (s *Machine) SchedTrace(detail bool) string {
	var b strings.Builder
	ms := int64(0)
	if s.mon.traced {
		ms = int64(s.now-s.mon.traceStart) / 1e6
	}
	w := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	itoa := strconv.Itoa
	w("SCHED ", strconv.FormatInt(ms, 10), "ms: gomaxprocs=", itoa(len(s.ps)),
		" idleprocs=", itoa(s.sched.Npidle), " threads=", itoa(len(s.ms)),
		" spinningthreads=", itoa(s.sched.Nmspinning), " needspinning=", itoa(boolInt(s.sched.Needspinning)),
		" idlethreads=", itoa(s.sched.Nmidle), " runqueue=", itoa(s.sched.runq.len()))
	if detail {
		w(" gcwaiting=false nmidlelocked=0 stopwait=0 sysmonwait=", strconv.FormatBool(s.sched.SysmonWait), "\n")
		for i := range s.ps {
			pp := &s.ps[i]
			m := "nil"
			if pp.M != NoM {
				m = itoa(int(pp.M))
			}
			w("  P", itoa(i), ": status=", itoa(int(pp.Status)), " schedtick=", itoa(int(pp.Schedtick)),
				" syscalltick=", itoa(int(pp.Syscalltick)), " m=", m, " runqsize=", itoa(pp.runq.len()),
				" gfreecnt=", itoa(len(pp.GFree)), " timerslen=", itoa(pp.timers.len()), "\n")
		}
		for _, mp := range s.ms {
			p, curg := "nil", "nil"
			if mp.P != NoP {
				p = itoa(int(mp.P))
			}
			if mp.CurG != NoG {
				curg = itoa(int(mp.CurG))
			}
			w("  M", itoa(int(mp.ID)), ": p=", p, " curg=", curg, " mallocing=0 throwing=0 preemptoff= locks=0 dying=0 spinning=",
				strconv.FormatBool(mp.Spinning), " blocked=", strconv.FormatBool(mp.State == MIdle || mp.State == MNetpoll),
				" lockedg=nil\n")
		}
		for id := GID(1); int(id) < s.gs.len(); id++ {
			g := s.gs.current(id)
			if g == nil || g.Status == Gdead {
				continue
			}
			m := "nil"
			if g.M != NoM {
				m = itoa(int(g.M))
			}
			w("  G", itoa(int(id)), ": status=", itoa(int(g.Status)), "(", g.WaitReason.String(), ") m=", m, " lockedm=nil\n")
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	for i := range s.ps {
		b.WriteByte(' ')
		if i == 0 {
			b.WriteString("[ ")
		}
		b.WriteString(itoa(s.ps[i].runq.len()))
		if i == len(s.ps)-1 {
			b.WriteString(" ]")
		}
	}
	b.WriteString(" schedticks=[ ")
	for i := range s.ps {
		b.WriteString(itoa(int(s.ps[i].Schedtick)))
		b.WriteByte(' ')
	}
	b.WriteString("]")
	return b.String()
}
