package gmp_test

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// A go statement whose goroutine finds no dead one's descriptor to reuse
// costs its creator Costs.NewG more (newproc1 allocates a g and a stack);
// one that reuses a descriptor does not. Two waves of three goroutines on
// one P: the first wave's go statements allocate, the second's reuse the
// first wave's descriptors. With NewG at 1µs the run is 3µs longer, and
// with NewG 0, the default, it is as before.
func TestNewGCostsOnlyAFreshDescriptor(t *testing.T) {
	sc := parse(t, `procs: 1
main:
  - loop:
      times: 2
      do:
        - go: {count: 3, do: [{cpu: 10us}]}
        - wait: children
`)
	end := func(newG time.Duration) (time.Duration, int) {
		t.Helper()
		cfg := sc.Config()
		cfg.Costs = gmp.DefaultCosts()
		cfg.Costs.NewG = newG
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		reused := 0
		m.SetSink(func(e gmp.Event) {
			if e.Kind == gmp.KindGoCreate && e.N2 != int(gmp.NoG) {
				reused++
			}
		})
		if e := m.Run(); !sc.AsExpected(e) {
			t.Fatalf("the run ended with %v: %v", e.Reason, e.Err)
		}
		return m.Now().D(), reused
	}
	base, reused := end(0)
	if reused != 3 {
		t.Fatalf("%d go statements reused a descriptor, want the second wave's 3", reused)
	}
	if got, _ := end(time.Microsecond); got-base != 3*time.Microsecond {
		t.Errorf("with NewG 1µs the run ends %v later, want 3µs: the first wave's three go statements", got-base)
	}
}

// The runtime's go-create comes at the end of newproc1, after malg has
// allocated the g and its stack: with NewG, a go statement on a fresh
// descriptor creates its goroutine NewG after the statement began, and
// one that reuses a descriptor at once; the creator goes on Newproc after
// either. The second wave's go statements follow a wait, so each begins
// when main resumes.
func TestAFreshGoroutineIsCreatedAfterItsAllocation(t *testing.T) {
	sc := parse(t, `procs: 1
main:
  - cpu: 10us
  - go: {count: 2, do: [{cpu: 10us}]}
  - wait: children
  - go: {do: [{cpu: 10us}]}
  - wait: children
`)
	cfg := sc.Config()
	cfg.Costs = gmp.DefaultCosts()
	cfg.Costs.NewG = 700 * time.Nanosecond
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var creates []gmp.Event
	var mainStarts []time.Duration
	m.SetSink(func(e gmp.Event) {
		switch {
		case e.Kind == gmp.KindGoCreate:
			creates = append(creates, e)
		case e.Kind == gmp.KindGoStart && e.G == 1:
			mainStarts = append(mainStarts, e.T.D())
		}
	})
	if e := m.Run(); !sc.AsExpected(e) {
		t.Fatalf("the run ended with %v: %v", e.Reason, e.Err)
	}
	if len(creates) != 3 || len(mainStarts) != 3 {
		t.Fatalf("%d go-creates and %d starts of main, want 3 and 3", len(creates), len(mainStarts))
	}
	k := cfg.Costs
	// main's first go statement begins after its 10µs of work.
	first := mainStarts[0] + k.Execute + 10*time.Microsecond
	want := []time.Duration{first + k.NewG, first + k.NewG + k.Newproc + k.NewG}
	for i, w := range want {
		if got := creates[i].T.D(); got != w {
			t.Errorf("go-create %d at %v, want %v (each a fresh descriptor: NewG %v, then Newproc %v to the next statement)", i+1, got, w, k.NewG, k.Newproc)
		}
		if creates[i].N2 != int(gmp.NoG) {
			t.Errorf("go-create %d reused G%d's descriptor, want a fresh one", i+1, creates[i].N2)
		}
	}
	// After the first wave's wait, main's go statement reuses a dead
	// goroutine's descriptor: created as it begins.
	if got, w := creates[2].T.D(), mainStarts[1]+k.Execute; got != w || creates[2].N2 == int(gmp.NoG) {
		t.Errorf("the second wave's go-create at %v reusing G%d's descriptor, want at %v reusing one", got, creates[2].N2, w)
	}
}
