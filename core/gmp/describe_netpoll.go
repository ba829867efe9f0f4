package gmp

import "time"

// netpollWords tells of the network poller: netpoll blocking and returning,
// netpollBreak, and injectglist.
var netpollWords = words{
	RuleInjectGlobal: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's read is ready: injectglist puts it on the global queue", e.G)
	},
	RuleInjectLocal: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's read is ready: injectglist puts it on %v's ring", e.G, e.P)
	},
	RuleNetpollBlock: func(d *Describer, b []byte, e *Event) []byte {
		waiting := plural(e.Waiting(), "G waits", "Gs wait")
		if e.HasTimeout() {
			// epoll_pwait takes whole milliseconds, at least one, as the
			// model's epollTimeout does: the sentence says what is slept.
			due := e.Timeout()
			sleeps := max(due.Truncate(time.Millisecond), time.Millisecond)
			b = appendf(b, "%v blocks in netpoll ", e.M)
			if g := e.ZombieOf(); g != NoG {
				// The earliest timer is one nobody waits for (R8.8).
				b = appendf(b, "until %v's stopped time.After, a zombie still in %v's heap, is due in %v, to wake for nothing: ", g, e.ZombieOn(), due)
			} else if due == sleeps {
				return appendf(b, "for %v, until the next timer (%s on the network)", due, waiting)
			} else {
				b = appendf(b, "until the next timer, due in %v: ", due)
			}
			switch {
			case due < time.Millisecond && e.ZombieOf() != NoG:
				return appendf(b, "epoll's timeout is whole milliseconds, at least 1, so it sleeps %v and the kernel's timer slack (%s on the network)", sleeps, waiting)
			case due < time.Millisecond:
				return appendf(b, "epoll's timeout is whole milliseconds, at least 1, so it sleeps %v (and the kernel's timer slack) and the timer fires late (%s on the network)", sleeps, waiting)
			case due != sleeps:
				return appendf(b, "epoll's timeout is whole milliseconds, so it sleeps %v, wakes early and polls again (%s on the network)", sleeps, waiting)
			}
			return appendf(b, "it sleeps %v (%s on the network)", sleeps, waiting)
		}
		return appendf(b, "%v blocks in netpoll with no timeout (%s on the network)", e.M, waiting)
	},
	RuleNetpollReturn: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v returns from netpoll with %s", e.M, plural(e.Ready(), "ready G", "ready Gs"))
	},
	RuleNetpollBreak: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "netpollBreak wakes %v out of netpoll: a timer is due before it would wake", e.M)
	},
	RuleNetReady: func(d *Describer, b []byte, e *Event) []byte {
		if e.M != NoM {
			return appendf(b, "%v's network read is ready: %v, blocked in netpoll, returns", e.G, e.M)
		}
		return appendf(b, "%v's network read is ready; it stays parked until some M polls the network", e.G)
	},
}
