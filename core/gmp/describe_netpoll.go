package gmp

// netpollWords tells of the network poller: netpoll blocking and returning,
// netpollBreak, and injectglist.
var netpollWords = words{
	RuleInjectGlobal: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "%v's read is ready: injectglist puts it on the global queue", e.G)
	},
	RuleInjectLocal: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "%v's read is ready: injectglist puts it on %v's ring", e.G, e.P)
	},
	RuleNetpollBlock: func(d *Describer, b []byte, e Event) []byte {
		waiting := plural(e.Waiting(), "G waits", "Gs wait")
		if e.HasTimeout() {
			return appendf(b, "%v blocks in netpoll for %v, until the next timer (%s on the network)", e.M, e.Timeout(), waiting)
		}
		return appendf(b, "%v blocks in netpoll with no timeout (%s on the network)", e.M, waiting)
	},
	RuleNetpollReturn: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "%v returns from netpoll with %s", e.M, plural(e.Ready(), "ready G", "ready Gs"))
	},
	RuleNetpollBreak: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "netpollBreak wakes %v out of netpoll: a timer is due before it would wake", e.M)
	},
	RuleNetReady: func(d *Describer, b []byte, e Event) []byte {
		if e.M != NoM {
			return appendf(b, "%v's network read is ready: %v, blocked in netpoll, returns", e.G, e.M)
		}
		return appendf(b, "%v's network read is ready; it stays parked until some M polls the network", e.G)
	},
}
