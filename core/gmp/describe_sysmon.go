package gmp

// sysmonWords tells what sysmon does on its rounds.
var sysmonWords = words{
	RuleSysmonPreempt: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "sysmon asks %v on %v to stop: it has seen %v's slice (schedtick %d) for %v", e.G, e.P, e.P, e.Schedtick(), e.Seen())
		spins := e.Op != nil && e.Op.Kind == OpLoop
		switch {
		case e.NoSignal() && spins:
			b = append(b, "; but it spins in a loop that calls no function, which never checks the request, and without a signal (what-if cooperative, Go before 1.14) nothing stops it"...)
		case e.NoSignal():
			b = append(b, "; with no signal (what-if cooperative, Go before 1.14), it stops only at its next function call"...)
		case spins:
			b = append(b, "; it spins in a loop that calls no function, so only the signal can stop it"...)
		}
		return b
	},
	RuleSysmonNetpoll: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "sysmon polls the network, which nobody did for 10ms: %s", plural(e.Ready(), "G is ready", "Gs are ready"))
	},
	RuleSysmonSleep: func(d *Describer, b []byte, e *Event) []byte {
		if e.UntilTimer() {
			return appendf(b, "every P is idle: sysmon sleeps deeply until the next timer, in %v", e.Sleep())
		}
		return appendf(b, "every P is idle: sysmon sleeps deeply for up to %v", e.Sleep())
	},
	RuleSysmonWake: func(d *Describer, b []byte, e *Event) []byte {
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
