package gmp

// selectWords tells of select statements (select.go): pass 1's pick or
// default, the wake-ups of a parked select, pass 3, and the stale sudogs
// a partner drops.
var selectWords = words{
	RuleSelectPick: func(d *Describer, b []byte, e *Event) []byte {
		b = d.pollOrder(appendf(b, "%v's select ", e.G), e)
		b = d.appendCase(append(b, " and takes "...), e.Op, e.SelCase())
		c := d.selectCase(e.Op, e.SelCase())
		switch e.How() {
		case ReadyPartner:
			if c.Dir == SelectSend {
				return appendf(b, ": %v waits to receive from it", e.Partner())
			}
			return appendf(b, ": %v waits to send on it", e.Partner())
		case ReadyBuffer:
			if c.Dir == SelectSend {
				return append(b, ": its buffer has room"...)
			}
			return append(b, ": its buffer holds a value"...)
		case ReadyClosed:
			if c.Dir == SelectSend {
				return append(b, ": the channel is closed, so the send panics"...)
			}
			return append(b, ": the channel is closed, so the receive returns at once"...)
		case ReadyTimer:
			return append(b, ": its timer has already expired"...)
		}
		return b
	},
	RuleSelectDefault: func(d *Describer, b []byte, e *Event) []byte {
		if e.Polled() == 0 {
			return appendf(b, "%v's select has only a default: it runs it", e.G)
		}
		b = d.pollOrder(appendf(b, "%v's select ", e.G), e)
		if e.Polled() == 1 {
			return append(b, ": it cannot go on, so the select takes its default instead of blocking"...)
		}
		return append(b, ": none is ready, so it takes its default instead of blocking"...)
	},
	RuleSelectResume: func(d *Describer, b []byte, e *Event) []byte {
		b = d.appendCase(appendf(b, "%v resumes in its select with case ", e.G), e.Op, e.SelCase())
		switch n, t := e.Dequeued(), e.Stopped(); {
		case n > 0 && t > 0:
			b = appendf(appendSudogsOff(append(b, ", takes "...), n), " and lets go of %s", plural(t, "timer", "timers"))
			b = appendZombies(b, t, e.TimersOn())
		case n > 0:
			b = appendSudogsOff(append(b, " and takes "...), n)
		case t > 0:
			b = appendf(b, " and lets go of %s", plural(t, "timer", "timers"))
			b = appendZombies(b, t, e.TimersOn())
		default:
			b = append(b, ": partners already dropped its other sudogs"...)
		}
		b = append(b, " (selectgo's pass 3)"...)
		if e.Closed() {
			b = append(b, "; a close woke its send, so it panics"...)
		}
		return b
	},
	RuleSelectSkip: func(d *Describer, b []byte, e *Event) []byte {
		if e.ByTimer() {
			b = d.appendCase(appendf(b, "%v's timer for case ", e.G), e.Op, e.SelCase())
			return append(b, " fires, but another case already won its select: the value goes into the timer's channel, which nobody reads"...)
		}
		b = d.appendCase(appendf(b, "%v finds %v's sudog for case ", e.Partner(), e.G), e.Op, e.SelCase())
		return appendf(b, " first in line, but another case already won %v's select (selectDone): it drops the sudog and looks at the next", e.G)
	},
	RuleReadySelect: func(d *Describer, b []byte, e *Event) []byte {
		if e.Reason == ReasonChanRecv {
			b = appendf(b, "%v sends on channel %s to %v, which waits in a select (case ", e.Waker(), d.chanName(e.Chan()), e.G)
		} else {
			b = appendf(b, "%v receives on channel %s from %v, which waits in a select (case ", e.Waker(), d.chanName(e.Chan()), e.G)
		}
		b = d.appendCase(b, e.Op, e.SelCase())
		return appendf(b, "): the select is won, and %v goes %s%s", e.G, d.into(e), kicked(e))
	},
	RuleReadySelectClose: func(d *Describer, b []byte, e *Event) []byte {
		b = d.appendCase(appendf(b, "%v closed channel %s: %v, waiting in a select (case ", e.Waker(), d.chanName(e.Chan()), e.G), e.Op, e.SelCase())
		return appendf(b, "), wakes %s%s", d.into(e), kicked(e))
	},
	RuleReadySelectTimer: func(d *Describer, b []byte, e *Event) []byte {
		b = d.appendCase(appendf(b, "%v's timer (case ", e.G), e.Op, e.SelCase())
		b = appendf(b, ") fires %v late, run by %v in findRunnable", e.Late(), e.P)
		if owner := e.TimerOwner(); owner != e.P {
			b = appendf(b, ", stealing %v's timers", owner)
		}
		return appendf(b, ": its send wakes the select, and %v goes %s%s", e.G, d.into(e), kicked(e))
	},
}

// appendSudogsOff says how many sudogs pass 3 takes off their queues.
func appendSudogsOff(b []byte, n int) []byte {
	if n == 1 {
		return append(b, "its other sudog off its channel's queue"...)
	}
	return appendf(b, "its %d other sudogs off their channels' queues", n)
}

// pollOrder appends how pass 1 went through the cases of e's select.
func (d *Describer) pollOrder(b []byte, e *Event) []byte {
	n, enc := e.Polled(), e.PollOrder()
	if n == 1 {
		return d.appendCase(append(b, "tries "...), e.Op, polledAt(enc, 0))
	}
	b = append(b, "polls "...)
	for k := range min(n, MaxSelectCases) {
		if k > 0 {
			b = append(b, ", "...)
		}
		b = d.appendCase(b, e.Op, polledAt(enc, k))
	}
	return append(b, " in that order (a random permutation: selectgo's cheaprandn)"...)
}

// selectCase returns case i of a select, or a zero case when op is not
// one (an event from elsewhere).
func (d *Describer) selectCase(op *Op, i int) SelectCase {
	if op == nil || i < 0 || i >= len(op.Cases) {
		return SelectCase{}
	}
	return op.Cases[i]
}

// CaseName names case i of select op as a scenario writes it: "recv
// jobs", "send out", "after 5ms", "default".
func (d *Describer) CaseName(op *Op, i int) string { return string(d.appendCase(nil, op, i)) }

func (d *Describer) appendCase(b []byte, op *Op, i int) []byte {
	c := d.selectCase(op, i)
	switch c.Dir {
	case SelectRecv, SelectSend:
		return d.chanName(c.Chan).appendTo(append(append(b, c.Dir.String()...), ' '))
	case SelectAfter:
		return appendDur(append(b, "after "...), c.Dur)
	case SelectDefault:
		return append(b, "default"...)
	}
	return appendf(b, "case %d", i)
}

// waitsOnSelect appends, after a verb, what a goroutine parked in select
// op waits on: "in select on jobs (recv), out (send) and a 5ms timer".
// The park sentence and checkdead's report both read it, as waitsOn for
// every other wait: a select's wait needs its cases, which the place
// alone does not name.
func (d *Describer) waitsOnSelect(b []byte, op *Op) []byte {
	var polled []int
	if op != nil {
		for i, c := range op.Cases {
			if c.Dir != SelectDefault {
				polled = append(polled, i)
			}
		}
	}
	switch {
	case len(polled) == 0:
		return append(b, "in select {} for ever (a select with no cases)"...)
	case len(polled) == 1 && op.Cases[polled[0]].Dir == SelectAfter:
		return append(appendDur(append(b, "receiving from the channel of time.After("...), op.Cases[polled[0]].Dur), ')')
	}
	b = append(b, "in select on "...)
	for k, i := range polled {
		switch {
		case k == 0:
		case k == len(polled)-1:
			b = append(b, " and "...)
		default:
			b = append(b, ", "...)
		}
		c := op.Cases[i]
		if c.Dir == SelectAfter {
			if c.Dur.Kind == DurFixed {
				b = append(appendDur(append(b, "a "...), c.Dur), " timer"...)
			} else {
				b = appendDur(append(b, "a timer of "...), c.Dur)
			}
			continue
		}
		b = append(append(append(d.chanName(c.Chan).appendTo(b), " ("...), c.Dir.String()...), ')')
	}
	return b
}

// appendDur appends d as Dur.String writes it, without making the string.
func appendDur(b []byte, d Dur) []byte {
	switch d.Kind {
	case DurUniform:
		return append(appendDuration(append(appendDuration(append(b, "uniform["...), d.A), ','), d.B), ']')
	case DurExp:
		return append(appendDuration(append(b, "exp("...), d.A), ')')
	}
	return appendDuration(b, d.A)
}

// appendZombies says where a select's stopped timers stay (R8.8).
func appendZombies(b []byte, n int, on PID) []byte {
	if n == 1 {
		return appendf(b, ", which stays in %v's heap as a zombie", on)
	}
	return appendf(b, ", which stay in %v's heap as zombies", on)
}
