package gmp

// Causes. Every event that readies, starts, preempts or steals a goroutine
// names the event that caused it (Event.Cause, an index into the run's
// events, -1 for none), so a reader can ask what unblocked a goroutine and
// follow the chain back:
//
//   - a go-start: the event that made the G runnable (its creation, its
//     wake-up, its preemption or yield, the steal that moved it);
//   - a go-create: the start of the run of its creator;
//   - a go-unblock: the start of the waker's run (the send, close or
//     release happens in it); a timer's wake-up, the go-block that set the
//     timer; a network wake-up, the poll that found it;
//   - a go-stop that is a preemption: sysmon's request;
//   - a steal: the event that had made the stolen G runnable.
//
// The machine keeps, per goroutine, the last such events; the slices grow
// with the goroutine table.
type causes struct {
	ready, block, start, preempt []int32
	lastPoll                     int32
}

const noCause = -1

// at grows the tables to hold g and returns its index.
func (c *causes) at(g GID) int {
	for int(g) >= len(c.ready) {
		c.ready = append(c.ready, noCause)
		c.block = append(c.block, noCause)
		c.start = append(c.start, noCause)
		c.preempt = append(c.preempt, noCause)
	}
	return int(g)
}

func (c *causes) clone() causes {
	return causes{ready: append([]int32(nil), c.ready...), block: append([]int32(nil), c.block...),
		start: append([]int32(nil), c.start...), preempt: append([]int32(nil), c.preempt...), lastPoll: c.lastPoll}
}

// causeOf records event e, number i, and returns the event that caused it.
func (c *causes) causeOf(e *Event, i int32) int32 {
	if e.G == NoG {
		if e.Rule == RuleNetpollReturn || e.Rule == RuleSysmonNetpoll {
			c.lastPoll = i
		}
		return noCause
	}
	g := c.at(e.G)
	switch e.Kind {
	case KindGoCreate:
		c.ready[g] = i
		if e.G2 != NoG {
			return c.start[c.at(e.G2)]
		}
	case KindGoUnblock:
		c.ready[g] = i
		switch {
		case e.G2 != NoG:
			return c.start[c.at(e.G2)]
		case e.Rule == RuleNetpollRun || e.Rule == RuleInjectGlobal || e.Rule == RuleInjectLocal:
			return c.lastPoll
		}
		return c.block[g]
	case KindGoStart:
		c.start[g] = i
		return c.ready[g]
	case KindGoStop:
		cause := c.start[g]
		if e.Reason == ReasonPreempted {
			cause = c.preempt[g]
		}
		c.ready[g] = i
		return cause
	case KindGoBlock:
		c.block[g] = i
	case KindSteal:
		cause := c.ready[g]
		c.ready[g] = i
		return cause
	case KindSysmon:
		if e.Rule == RuleSysmonPreempt {
			c.preempt[g] = i
		}
	}
	return noCause
}
