package gmp

// procWords tells how Ps and Ms pair up and part: acquirep, releasep,
// handoffp, wakep, startm and stopm.
var procWords = words{
	RuleAcquirep: func(d *Describer, b []byte, e *Event) []byte {
		if e.Spins() {
			return appendf(b, "%v acquires %v and spins looking for work", e.M, e.P)
		}
		return appendf(b, "%v acquires %v", e.M, e.P)
	},
	RuleReleasepIdle: func(d *Describer, b []byte, e *Event) []byte {
		if e.WasSpinning() {
			return appendf(b, "%v found nothing to run or steal: it puts %v on the idle list, stops spinning and checks everything once more", e.M, e.P)
		}
		return appendf(b, "%v found nothing to run: it puts %v on the idle list", e.M, e.P)
	},
	RuleHandoffIdle: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v has no work and others can pick up new work: handoffp puts it on the idle list", e.P)
	},
	RuleWakep: func(d *Describer, b []byte, e *Event) []byte {
		return lateStart(appendf(b, "wakep: %v is idle and no M is spinning, so %s %v to spin on it (%d spinning)", e.P, startedHow(e), e.M, e.Nmspinning()), e)
	},
	RuleHandoffWork: func(d *Describer, b []byte, e *Event) []byte {
		return lateStart(appendf(b, "handoffp: %v has queued work, so %s %v for it", e.P, startedHow(e), e.M), e)
	},
	RuleHandoffSpin: func(d *Describer, b []byte, e *Event) []byte {
		return lateStart(appendf(b, "handoffp: no P is idle and no M spins, so %s %v to spin on %v", startedHow(e), e.M, e.P), e)
	},
	RuleHandoffPoll: func(d *Describer, b []byte, e *Event) []byte {
		return lateStart(appendf(b, "handoffp: %v would be the last running P with nobody polling the network, so %s %v for it", e.P, startedHow(e), e.M), e)
	},
	RuleInjectStart: func(d *Describer, b []byte, e *Event) []byte {
		return lateStart(appendf(b, "injectglist: %s %v on idle %v for a G put on the global queue", startedHow(e), e.M, e.P), e)
	},
	RuleStopm: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v parks on the idle M list (%s)", e.M, plural(e.IdleMs(), "idle M", "idle Ms"))
	},
}

// lateStart tells, after startm's sentence, that the M it woke starts
// soon, taking its waker's CPU (Costs.WakePreempt, wakepreempt.go), or
// may start late: its thread was parked long, and this machine's kernel
// leaves such a thread waiting for a CPU (Costs.IdleWake, idlewake.go).
func lateStart(b []byte, e *Event) []byte {
	if w := e.TakesCPUOf(); w != NoM {
		return appendf(b, "; the kernel puts its thread beside %v's, whose CPU has room, and it takes that CPU at once, a few microseconds on (a wake-up preemption)", w)
	}
	if e.IdleWakeLate() <= 0 {
		return b
	}
	return appendf(b, "; its thread, parked %v, is queued on the busy CPU it last ran on, the waker's, for up to %v: until a scheduler tick, or until the waker's thread leaves that CPU (calibrate's wake_after_idle)",
		e.ParkedFor(), e.IdleWakeLate())
}

func startedHow(e *Event) string {
	if e.NewM() {
		return "it creates"
	}
	return "it wakes"
}
