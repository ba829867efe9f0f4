package gmp_test

import (
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
)

// Valid programs the random soak once answered wrongly.
func TestRightAnswers(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      gmp.EndReason
		check     func(t *testing.T, evs []gmp.Event)
	}{
		// errgroup.Go defers done, and Goexit runs deferred calls: Wait
		// returns.
		{"goexit in an errgroup task", "procs: 1\nmain:\n  - group: {count: 1, do: [exit]}\n", gmp.MainReturned, nil},
		{"goexit in a limited errgroup", "procs: 1\nmain:\n  - group: {limit: 1, count: 3, do: [{cpu: 1ms}, exit, {cpu: 1ms}]}\n", gmp.MainReturned, nil},
		// count: 0 submits nothing.
		{"submit count 0", "procs: 1\npools: {p: {size: 2}}\nmain:\n  - submit: {pool: p, count: 0, do: [{cpu: 1ms}]}\n  - wait: children\n",
			gmp.MainReturned, func(t *testing.T, evs []gmp.Event) {
				for _, e := range evs {
					if e.Kind == gmp.KindPoolDispatch || e.Kind == gmp.KindGoCreate {
						t.Errorf("count: 0 submitted a task: %v", e.Rule.Doc())
					}
				}
			}},
		// SetLimit(0) lets no goroutine start: every Go blocks.
		{"errgroup limit 0", "procs: 1\nmain:\n  - group: {limit: 0, count: 2, do: [{cpu: 1ms}]}\n", gmp.Deadlock, nil},
		// No limit written: no limit.
		{"errgroup without a limit", "procs: 1\nmain:\n  - group: {count: 50, do: [{cpu: 1ms}]}\n", gmp.MainReturned,
			func(t *testing.T, evs []gmp.Event) {
				for _, e := range evs {
					if e.Kind == gmp.KindGoBlock && e.G == 1 && e.Reason == gmp.ReasonChanSend {
						t.Error("Go blocked in a group without a limit")
					}
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := parse(t, c.src)
			cfg := sc.Config()
			cfg.Check = true
			m, err := gmp.New(cfg, sc.Program())
			if err != nil {
				t.Fatal(err)
			}
			var evs []gmp.Event
			m.SetSink(func(e gmp.Event) { evs = append(evs, e) })
			if end := m.Run(); end.Reason != c.want {
				t.Fatalf("ended %v (%v), want %v", end.Reason, end.Err, c.want)
			}
			if c.check != nil {
				c.check(t, evs)
			}
		})
	}
}
