package gmp

// parkWords tells how goroutines block (gopark) and are readied (goready) by
// channels, timers and their children.
var parkWords = words{
	RulePark: func(d *Describer, b []byte, e *Event) []byte {
		b = d.park(b, e)
		if e.PreemptMoot() {
			b = append(b, "; the preemption request pending on it is lost: it parks holding it, and execute clears it when it next runs"...)
		}
		return b
	},
	RuleReadyChan: func(d *Describer, b []byte, e *Event) []byte {
		if e.Reason == ReasonChanRecv {
			return appendf(b, "%v sends on channel %s to %v, which was waiting to receive: %v goes %s%s", e.Waker(), d.chanName(e.Chan()), e.G, e.G, d.into(e), kicked(e))
		}
		return appendf(b, "%v receives on channel %s from %v, which was waiting to send: %v goes %s%s", e.Waker(), d.chanName(e.Chan()), e.G, e.G, d.into(e), kicked(e))
	},
	RuleReadyClose: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v closed channel %s: %v wakes %s%s", e.Waker(), d.chanName(e.Chan()), e.G, d.into(e), kicked(e))
	},
	RuleReadyTimer: func(d *Describer, b []byte, e *Event) []byte {
		// Appended piece by piece, not through appendf: see
		// scheduleWords.
		// "%v's sleep timer fires %v late, run by %v in findRunnable"
		b = appendDuration(append(AppendG(b, e.G), "'s sleep timer fires "...), e.Late())
		b = append(AppendP(append(b, " late, run by "...), e.P), " in findRunnable"...)
		if owner := e.TimerOwner(); owner != e.P {
			// ", stealing %v's timers"
			b = append(AppendP(append(b, ", stealing "...), owner), "'s timers"...)
		}
		// ": %v goes %s%s"
		b = append(AppendG(append(b, ": "...), e.G), " goes "...)
		return kicked(e).appendTo(d.into(e).appendTo(b))
	},
	RuleReadyChildren: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v, the last child of %v, exits: %v wakes %s%s", e.Waker(), e.G, e.G, d.into(e), kicked(e))
	},
}

func (d *Describer) park(b []byte, e *Event) []byte {
	if e.Reason == ReasonChanSend && e.To.Kind == LocChanSend && e.Op != nil && e.Op.Kind == opGroupSend {
		return appendf(b, "%v blocks in errgroup.Go: all %d slots of its group are taken (the limit channel is full)", e.G, e.Op.Limit)
	}
	if e.Reason == ReasonChanRecv && e.To.Kind == LocPoolIdle {
		return appendf(b, "worker w%d (%v) parks receiving on its task channel until a submitter sends it a task, or the purge closes it", e.WaitArg(), e.G)
	}
	if wp := placeOf(e.To.Kind); wp != nil {
		b = d.waitsOn(appendf(b, "%v blocks ", e.G), e.To)
		if wp.parked != nil {
			b = wp.parked(d, b, e)
		}
		return b
	}
	if e.To.Kind == LocSelect {
		return d.waitsOnSelect(appendf(b, "%v blocks ", e.G), e.Op)
	}
	switch e.Reason {
	case ReasonSleep:
		// "%v sleeps %v: parked, its timer goes into %v's heap", appended
		// piece by piece: see scheduleWords.
		b = appendDuration(append(AppendG(b, e.G), " sleeps "...), e.Duration())
		return append(AppendP(append(b, ": parked, its timer goes into "...), e.P), "'s heap"...)
	case ReasonNetwork:
		return appendf(b, "%v reads from the network and parks in the poller; its data arrives in %v", e.G, e.Duration())
	case ReasonChanSend, ReasonChanRecv:
		return d.waitsOn(appendf(b, "%v blocks ", e.G), e.To)
	case ReasonWait:
		if len(d.pools) > 0 {
			return appendf(b, "%v waits for %s (goroutines it started, pool tasks it submitted) to finish", e.G, plural(e.WaitArg(), "child", "children"))
		}
		return appendf(b, "%v waits for its %s to exit", e.G, plural(e.WaitArg(), "child", "children"))
	case ReasonWaitGroup: // errgroup.Wait; a sync.WaitGroup's is its waitPlace
		return appendf(d.waitsOn(appendf(b, "%v waits ", e.G), e.To), " for %s", plural(e.WaitArg(), "goroutine", "goroutines"))
	case ReasonSelect:
		switch e.To.Kind {
		case LocPoolWait:
			return appendf(b, "%v parks in Submit's select until a worker of pool %s takes its task (waiter #%d)", e.G, d.poolName(int(e.To.ID)), e.WaitArg())
		case LocSem:
			return appendf(b, "%v parks in Acquire's select until semaphore %s has room for %d", e.G, d.semName(int(e.To.ID)), e.WaitArg())
		}
	}

	return appendf(b, "%v parks (%v)", e.G, e.Reason)
}
