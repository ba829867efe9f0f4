package gmp

// sysmonWords tells what sysmon does on its rounds.
var sysmonWords = words{
	RuleSysmonPreempt: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "sysmon asks %v on %v to stop: it has seen %v's slice (schedtick %d) for %v", e.G, e.P, e.P, e.Schedtick(), e.Seen())
	},
	RuleSysmonNetpoll: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "sysmon polls the network, which nobody did for 10ms: %s", plural(e.Ready(), "G is ready", "Gs are ready"))
	},
	RuleSysmonSleep: func(d *Describer, b []byte, e Event) []byte {
		if e.UntilTimer() {
			return appendf(b, "every P is idle: sysmon sleeps deeply until the next timer, in %v", e.Sleep())
		}
		return appendf(b, "every P is idle: sysmon sleeps deeply for up to %v", e.Sleep())
	},
	RuleSysmonWake: func(d *Describer, b []byte, e Event) []byte {
		if e.BySyscall() {
			return append(b, "a syscall wakes sysmon from its deep sleep; its back-off restarts at 20µs"...)
		}
		return append(b, "sysmon wakes from its deep sleep"...)
	},
}

// SysmonDid words sysmon's last decision, in a few words, for a panel.
func (d *Describer) SysmonDid(x SysmonDecision) string {
	switch x.Kind {
	case SysmonSlept:
		return "deep sleep: every P is idle"
	case SysmonPolled:
		return "polled the network"
	case SysmonRetook:
		return "retook " + x.P.String() + " from a syscall"
	case SysmonPreempted:
		return "asked " + x.G.String() + " on " + x.P.String() + " to stop"
	}
	return "nothing to do"
}
