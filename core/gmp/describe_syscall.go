package gmp

// syscallWords tells of system calls: entersyscall, entersyscallblock, the
// exitsyscall paths and sysmon's retake.
var syscallWords = words{
	RuleEntersyscall: func(d *Describer, b []byte, e *Event) []byte {
		if e.Op != nil && e.Op.Kind == OpPrint {
			return appendf(b, "%v's write of its line is a %v syscall; %v stays attached to %v", e.G, e.Duration(), e.P, e.M)
		}
		return appendf(b, "%v enters a %v syscall; %v stays attached to %v (Go 1.26 hands nothing off on entry)", e.G, e.Duration(), e.P, e.M)
	},
	RuleEntersyscallblock: func(d *Describer, b []byte, e *Event) []byte {
		if e.Kind == KindProcStop {
			return appendf(b, "%v gives up %v before blocking", e.M, e.P)
		}
		if e.HandoffPolicy() {
			return appendf(b, "%v enters a %v syscall and hands %v off at once (what-if syscall-handoff; Go 1.26 keeps the P attached and lets sysmon retake it)", e.G, e.Duration(), e.P)
		}
		return appendf(b, "%v enters a %v syscall known to block: entersyscallblock hands %v off at once", e.G, e.Duration(), e.P)
	},
	RuleExitsyscallFast: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's syscall returns and %v is still attached: it goes on without a new time slice%s", e.G, e.P, preemptArmed(e))
	},
	RuleExitsyscallOldP: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's syscall returns without a P; it takes its old %v back from %v, whose G is in a syscall", e.G, e.P, e.Thread())
	},
	RuleExitsyscallIdleP: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's syscall returns without a P; it takes idle %v and goes on", e.G, e.P)
	},
	RuleExitsyscallNoP: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's syscall returns without a P and none is idle: %v goes to the global queue and %v parks", e.G, e.G, e.M)
	},
	RuleRetake: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "sysmon takes %v from %v, whose %v is in a syscall: ", e.P, e.Thread(), e.G)
		switch e.RetakeCause() {
		case RetakeQueued:
			b = append(b, "Gs are queued on it, so there is no grace period"...)
		case RetakeNoHelper:
			b = append(b, "no P is idle and no M spins, so there is no grace period"...)
		case RetakeGraceOver:
			b = appendf(b, "nothing is queued, but sysmon first saw this syscall %v ago: its 10ms grace is over", e.Grace())
		case RetakeStaleSlice:
			b = appendf(b, "the time slice it runs in is 10ms old (sysretake), so sysmon measures the grace from its record of %v ago, which is over", e.Grace())
		}
		if e.FirstSyscall() {
			b = appendf(b, "; this is %v's first syscall, and with its syscalltick and sysmon's record both 0, sysmon never saw it as new", e.P)
		}
		return b
	},
	RuleTakeBackOldP: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v, back from a syscall, takes its old %v from %v, which is in a syscall with %v", e.M, e.P, e.Thread(), e.G)
	},
}

func preemptArmed(e *Event) string {
	if e.PreemptArmed() {
		return "; a preemption request stays armed"
	}
	return ""
}
