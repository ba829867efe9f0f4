package gmp_test

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// A sink set with SetEventSink sees the same events as one set with
// SetSink, the start's included, on every built-in; and a clone of a
// machine with such a sink hands the clone's events to no one until it
// is given a sink of its own.
func TestEventSinkSeesWhatSinkSees(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		run := func(byRef bool) []gmp.Event {
			m, err := gmp.New(sc.Config(), sc.Program())
			if err != nil {
				t.Fatal(err)
			}
			var evs []gmp.Event
			if byRef {
				m.SetEventSink(func(e *gmp.Event) { evs = append(evs, *e) })
			} else {
				m.SetSink(func(e gmp.Event) { evs = append(evs, e) })
			}
			m.Run()
			return evs
		}
		byValue, byRef := run(false), run(true)
		if len(byValue) == 0 || !reflect.DeepEqual(byValue, byRef) {
			t.Fatalf("%s: %d events by value, %d by pointer, or they differ", sc.Name, len(byValue), len(byRef))
		}
	}
}

func TestCloneDropsTheEventSink(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	sc := all[0]
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	m.SetEventSink(func(*gmp.Event) { n++ })
	m.Step()
	c := m.Clone()
	before := n
	c.Run()
	if n != before {
		t.Fatalf("the clone's run handed %d events to the original's sink", n-before)
	}
	m.Run()
	if n <= before {
		t.Fatal("the original's sink saw no events after the clone")
	}
}
