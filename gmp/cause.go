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
// The machine keeps, per goroutine, the last such events. They matter
// only while the goroutine lives (nothing readies, starts or steals a
// dead one), so they are kept by g descriptor, like the goroutine table's
// slots: the table stays as small as the most goroutines alive at once,
// and warm in the caches, where one entry per goroutine id would grow by
// 16 bytes with every goroutine ever created. Each entry names its
// goroutine; a goroutine that takes a descriptor over starts with no
// causes, as a fresh entry would.
type causes struct {
	descs    [][]gcauses // by descriptor, in blocks like gtable.slots
	lastPoll int32
}

// gcauses is one goroutine's last events of each sort.
type gcauses struct {
	g                            GID
	ready, block, start, preempt int32
}

const noCause = -1

// of returns goroutine g's entry, on descriptor desc, making it g's if
// it belonged to the descriptor's earlier goroutine.
func (c *causes) of(g GID, desc int32) *gcauses {
	for int(desc)/gChunk >= len(c.descs) {
		c.descs = append(c.descs, make([]gcauses, gChunk))
	}
	r := &c.descs[desc/gChunk][desc%gChunk]
	if r.g != g {
		*r = gcauses{g: g, ready: noCause, block: noCause, start: noCause, preempt: noCause}
	}
	return r
}

func (c *causes) clone() causes {
	d := make([][]gcauses, len(c.descs))
	for i, b := range c.descs {
		d[i] = append([]gcauses(nil), b...)
	}
	return causes{descs: d, lastPoll: c.lastPoll}
}

// causeOf records event e, number i, and returns the event that caused
// it. gs gives the descriptors of the goroutines e names.
func (c *causes) causeOf(e *Event, i int32, gs *gtable) int32 {
	if e.G == NoG {
		if e.Rule == RuleNetpollReturn || e.Rule == RuleSysmonNetpoll {
			c.lastPoll = i
		}
		return noCause
	}
	// One switch, each case finding its own entry: the kind of the next
	// event is a guess the CPU often gets wrong, so it should guess once.
	switch e.Kind {
	case KindGoCreate:
		c.of(e.G, gs.desc(e.G)).ready = i
		if e.G2 != NoG {
			return c.of(e.G2, gs.desc(e.G2)).start
		}
	case KindGoUnblock:
		g := c.of(e.G, gs.desc(e.G))
		g.ready = i
		switch {
		case e.G2 != NoG:
			return c.of(e.G2, gs.desc(e.G2)).start
		case e.Rule == RuleNetpollRun || e.Rule == RuleInjectGlobal || e.Rule == RuleInjectLocal:
			return c.lastPoll
		}
		return g.block
	case KindGoStart:
		g := c.of(e.G, gs.desc(e.G))
		g.start = i
		return g.ready
	case KindGoStop:
		g := c.of(e.G, gs.desc(e.G))
		cause := g.start
		if e.Reason == ReasonPreempted {
			cause = g.preempt
		}
		g.ready = i
		return cause
	case KindGoBlock:
		c.of(e.G, gs.desc(e.G)).block = i
	case KindSteal:
		g := c.of(e.G, gs.desc(e.G))
		cause := g.ready
		g.ready = i
		return cause
	case KindSysmon:
		if e.Rule == RuleSysmonPreempt {
			c.of(e.G, gs.desc(e.G)).preempt = i
		}
	}
	return noCause
}
