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
// The machine keeps, per goroutine id, the last such events: one 16-byte
// entry per goroutine, its four sorts in one cache line, in blocks of
// gChunk added as goroutines are created and never copied. Goroutines
// run roughly in the order they were created, so the entries are read
// and written in about that order, which the CPU's prefetcher follows;
// entries kept by descriptor, which the free lists hand out in no
// order, measured no better. New reserves the blocks a program says it
// needs along with the goroutine table's (presize.go).
type causes struct {
	ids      idBlocks[gcauses]
	lastPoll int32
}

// gcauses is one goroutine's last events of each sort.
type gcauses struct {
	ready, block, start, preempt int32
}

const noCause = -1

var noCauses = gcauses{noCause, noCause, noCause, noCause}

// of returns goroutine g's entry, adding blocks up to it.
func (c *causes) of(g GID) *gcauses {
	for int(g)/gChunk >= len(c.ids.blocks) {
		b := c.ids.add()
		for i := range b {
			b[i] = noCauses
		}
	}
	return &c.ids.blocks[g/gChunk][g%gChunk]
}

func (c *causes) clone() causes {
	d := make([][]gcauses, len(c.ids.blocks))
	for i, b := range c.ids.blocks {
		d[i] = append([]gcauses(nil), b...)
	}
	return causes{ids: idBlocks[gcauses]{blocks: d}, lastPoll: c.lastPoll}
}

// causeOf records event e, number i, and returns the event that caused
// it.
func (c *causes) causeOf(e *Event, i int32) int32 {
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
		c.of(e.G).ready = i
		if creator := e.Creator(); creator != NoG {
			return c.of(creator).start
		}
	case KindGoUnblock:
		g := c.of(e.G)
		g.ready = i
		switch waker := e.Waker(); {
		case waker != NoG:
			return c.of(waker).start
		case e.Rule == RuleNetpollRun || e.Rule == RuleInjectGlobal || e.Rule == RuleInjectLocal:
			return c.lastPoll
		}
		return g.block
	case KindGoStart:
		g := c.of(e.G)
		g.start = i
		return g.ready
	case KindGoStop:
		g := c.of(e.G)
		cause := g.start
		if e.Reason == ReasonPreempted {
			cause = g.preempt
		}
		g.ready = i
		return cause
	case KindGoBlock:
		c.of(e.G).block = i
	case KindSteal:
		g := c.of(e.G)
		cause := g.ready
		g.ready = i
		return cause
	case KindSysmon:
		if e.Rule == RuleSysmonPreempt {
			c.of(e.G).preempt = i
		}
	}
	return noCause
}
