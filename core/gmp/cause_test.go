package gmp_test

import (
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// On every built-in, each cause precedes its event and is of a kind that
// can cause it: a start follows what made its G runnable, a wake-up the
// waker's run (or the timer's park, or a poll), a preemption sysmon's
// request.
func TestCausesFollowTheRules(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		m, err := gmp.New(sc.Config(), sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var evs []gmp.Event
		m.SetSink(func(e gmp.Event) { evs = append(evs, e) })
		m.Run()
		starts, caused := 0, 0
		for i, e := range evs {
			if e.Cause < 0 {
				continue
			}
			caused++
			if int(e.Cause) >= i {
				t.Fatalf("%s: event %d (%v) is caused by later event %d", sc.Name, i, e.Kind, e.Cause)
			}
			c := evs[e.Cause]
			ok := true
			switch e.Kind {
			case gmp.KindGoStart:
				starts++
				ok = c.G == e.G && (c.Kind == gmp.KindGoCreate || c.Kind == gmp.KindGoUnblock || c.Kind == gmp.KindGoStop || c.Kind == gmp.KindSteal)
			case gmp.KindGoUnblock:
				switch {
				case e.G2 != gmp.NoG:
					ok = c.Kind == gmp.KindGoStart && c.G == e.G2
				case c.Kind == gmp.KindGoBlock:
					ok = c.G == e.G
				default:
					ok = c.Kind == gmp.KindNetpoll || c.Kind == gmp.KindSysmon
				}
			case gmp.KindGoCreate:
				ok = c.Kind == gmp.KindGoStart && c.G == e.G2
			case gmp.KindGoStop:
				if e.Reason == gmp.ReasonPreempted {
					ok = c.Kind == gmp.KindSysmon && c.Rule == gmp.RuleSysmonPreempt && c.G == e.G
				} else {
					ok = c.Kind == gmp.KindGoStart && c.G == e.G
				}
			case gmp.KindSteal:
				ok = c.G == e.G
			}
			if !ok {
				t.Errorf("%s: event %d (%v of %v, %s) is caused by event %d (%v of %v, %s)",
					sc.Name, i, e.Kind, e.G, e.Rule.Fn(), e.Cause, c.Kind, c.G, c.Rule.Fn())
			}
		}
		// Only main's start has no cause; a run where nothing else
		// starts (done-flag: main returns first) has no other.
		others := 0
		for _, e := range evs {
			if e.Kind == gmp.KindGoStart && e.G != 1 {
				others++
			}
		}
		if starts == 0 && others > 0 {
			t.Errorf("%s: no start has a cause", sc.Name)
		}
	}
}

// refCauses finds causes as the machine did when it kept them by
// goroutine id, for every goroutine ever created: the reference the
// entries kept by descriptor, and reused with it, must agree with.
type refCauses struct {
	by       map[gmp.GID]*[4]int32 // ready, block, start, preempt
	lastPoll int32
}

func (r *refCauses) of(g gmp.GID) *[4]int32 {
	c, ok := r.by[g]
	if !ok {
		c = &[4]int32{-1, -1, -1, -1}
		r.by[g] = c
	}
	return c
}

func (r *refCauses) causeOf(e gmp.Event, i int32) int32 {
	const ready, block, start, preempt = 0, 1, 2, 3
	if e.G == gmp.NoG {
		if e.Rule == gmp.RuleNetpollReturn || e.Rule == gmp.RuleSysmonNetpoll {
			r.lastPoll = i
		}
		return -1
	}
	g := r.of(e.G)
	switch e.Kind {
	case gmp.KindGoCreate:
		g[ready] = i
		if c := e.Creator(); c != gmp.NoG {
			return r.of(c)[start]
		}
	case gmp.KindGoUnblock:
		g[ready] = i
		switch w := e.Waker(); {
		case w != gmp.NoG:
			return r.of(w)[start]
		case e.Rule == gmp.RuleNetpollRun || e.Rule == gmp.RuleInjectGlobal || e.Rule == gmp.RuleInjectLocal:
			return r.lastPoll
		}
		return g[block]
	case gmp.KindGoStart:
		g[start] = i
		return g[ready]
	case gmp.KindGoStop:
		cause := g[start]
		if e.Reason == gmp.ReasonPreempted {
			cause = g[preempt]
		}
		g[ready] = i
		return cause
	case gmp.KindGoBlock:
		g[block] = i
	case gmp.KindSteal:
		cause := g[ready]
		g[ready] = i
		return cause
	case gmp.KindSysmon:
		if e.Rule == gmp.RuleSysmonPreempt {
			g[preempt] = i
		}
	}
	return -1
}

// Causes kept with the live goroutine, by descriptor, are the causes kept
// by goroutine id for all time, on every built-in, under every policy
// (descriptors are reused most where goroutines are short). A run with
// NoCauses has the same events, every Cause -1.
func TestCausesByDescriptorAreCausesByID(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	policies := []gmp.Policy{{}, {GlobalFIFO: true}}
	for _, sc := range all {
		for _, pol := range policies {
			cfg := sc.Config()
			cfg.Policy = pol
			var with, without []gmp.Event
			for _, no := range []bool{false, true} {
				cfg.NoCauses = no
				m, err := gmp.New(cfg, sc.Program())
				if err != nil {
					t.Fatal(err)
				}
				m.SetSink(func(e gmp.Event) {
					if no {
						without = append(without, e)
					} else {
						with = append(with, e)
					}
				})
				m.Run()
			}
			if len(with) != len(without) {
				t.Fatalf("%s %+v: %d events with causes, %d without", sc.Name, pol, len(with), len(without))
			}
			ref := refCauses{by: map[gmp.GID]*[4]int32{}}
			for i, e := range with {
				if want := ref.causeOf(e, int32(i)); e.Cause != want {
					t.Fatalf("%s %+v: event %d (%v of %v) has cause %d; by goroutine id it is %d", sc.Name, pol, i, e.Kind, e.G, e.Cause, want)
				}
				n := without[i]
				if n.Cause != -1 {
					t.Fatalf("%s %+v: event %d has cause %d without causes", sc.Name, pol, i, n.Cause)
				}
				// Each machine has its own copy of the program's actions.
				if (n.Op == nil) != (e.Op == nil) || n.Op != nil && (n.Op.Kind != e.Op.Kind || n.Op.Pos != e.Op.Pos) {
					t.Fatalf("%s %+v: event %d has another action without causes", sc.Name, pol, i)
				}
				n.Cause, n.Op = e.Cause, e.Op
				if n != e {
					t.Fatalf("%s %+v: event %d differs without causes:\n%+v\n%+v", sc.Name, pol, i, e, n)
				}
			}
		}
	}
}
