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
// The machine keeps each live goroutine's last such events beside its
// slot in the goroutine table (gtable.causes): one 16-byte entry per g
// descriptor, reset when a new goroutine takes the descriptor. Every
// event these entries answer for names a live goroutine, so nothing of
// them need outlive it, and a run of ten million short goroutines keeps
// as many entries as it had goroutines alive at once, not ten million.
//
// Only a sink that reads Event.Cause needs them (the JSON lines, the UI,
// the Perfetto export); a run configured with NoCauses (the text trace,
// --format none, the benchmarks) skips the bookkeeping and leaves every
// Cause at -1.
type causes struct {
	on       bool
	lastPoll int32
}

// gcauses is one goroutine's last events of each sort.
type gcauses struct {
	ready, block, start, preempt int32
}

const noCause = -1

var noCauses = gcauses{noCause, noCause, noCause, noCause}

// causeOf records event e, number i, in the entries of gs, and returns
// the event that caused it.
func (c *causes) causeOf(gs *gtable, e *Event, i int32) int32 {
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
		gs.causes(e.G).ready = i
		if creator := e.Creator(); creator != NoG {
			return gs.causes(creator).start
		}
	case KindGoUnblock:
		g := gs.causes(e.G)
		g.ready = i
		switch waker := e.Waker(); {
		case waker != NoG:
			return gs.causes(waker).start
		case e.Rule == RuleNetpollRun || e.Rule == RuleInjectGlobal || e.Rule == RuleInjectLocal:
			return c.lastPoll
		}
		return g.block
	case KindGoStart:
		g := gs.causes(e.G)
		g.start = i
		return g.ready
	case KindGoStop:
		g := gs.causes(e.G)
		cause := g.start
		if e.Reason == ReasonPreempted {
			cause = g.preempt
		}
		g.ready = i
		return cause
	case KindGoBlock:
		gs.causes(e.G).block = i
	case KindSteal:
		g := gs.causes(e.G)
		cause := g.ready
		g.ready = i
		return cause
	case KindSysmon:
		if e.Rule == RuleSysmonPreempt {
			gs.causes(e.G).preempt = i
		}
	}
	return noCause
}
