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
