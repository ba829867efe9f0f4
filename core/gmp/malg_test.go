package gmp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// goCreateGaps runs 40 go statements on one P with NewG 1µs and fresh,
// and returns the time from each go-create to the next (gaps[i] ends at
// the (i+2)-th) and the run's length.
func goCreateGaps(t *testing.T, fresh gmp.FreshSpans) ([]time.Duration, time.Duration) {
	t.Helper()
	sc := parse(t, `procs: 1
main:
  - go: {count: 40, do: [{cpu: 10us}]}
  - wait: children
`)
	cfg := sc.Config()
	cfg.Costs = gmp.DefaultCosts()
	cfg.Costs.NewG = time.Microsecond
	cfg.Costs.FreshSpans = fresh
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var creates []time.Duration
	m.SetSink(func(e gmp.Event) {
		if e.Kind == gmp.KindGoCreate {
			creates = append(creates, e.T.D())
		}
	})
	if e := m.Run(); !sc.AsExpected(e) {
		t.Fatalf("the run ended with %v: %v", e.Reason, e.Err)
	}
	var gaps []time.Duration
	for i := 1; i < len(creates); i++ {
		gaps = append(gaps, creates[i]-creates[i-1])
	}
	return gaps, m.Now().D()
}

// With a FreshSpans, a fresh descriptor costs its Base share of NewG,
// and the one that begins a span of stacks or of gs pays that lump on
// top, the first span of gs FirstG more: with stacks' spans from the 9th
// go statement and gs' from the 3rd, every 16th, the 3rd, 19th and 35th
// and the 9th and 25th pause. The run differs from one with NewG on every
// statement by the shares' sum less one a statement, and by nothing
// more: the shape moves NewG, it does not add to it.
func TestFreshSpansPutNewGInLumps(t *testing.T) {
	fresh := gmp.FreshSpans{Base: 0.25, Stack: 9, G: 3, FirstG: 2, StackAt: 9, GAt: 3}
	flat, flatEnd := goCreateGaps(t, gmp.FreshSpans{})
	gaps, end := goCreateGaps(t, fresh)
	step := flat[0] - time.Microsecond // the statement's cost beside NewG
	for i, gap := range gaps {
		n := i + 2 // the go statement whose go-create ends the gap
		want := step + time.Microsecond/4
		switch {
		case n == 3:
			want += 5 * time.Microsecond
		case n == 19 || n == 35:
			want += 3 * time.Microsecond
		case n == 9 || n == 25:
			want += 9 * time.Microsecond
		}
		if gap != want {
			t.Errorf("go statement %d created its goroutine %v after the one before, want %v", n, gap, want)
		}
	}
	// 40 statements hold two spans of stacks' lumps (the 41st's is not
	// reached), three of gs' and FirstG: 39 shares of NewG against the
	// flat run's 40.
	shares := 40*fresh.Base + 2*fresh.Stack + 3*fresh.G + fresh.FirstG
	if got, want := end-flatEnd, time.Duration((shares-40)*float64(time.Microsecond)); got != want {
		t.Errorf("the run with lumps ends %v after the flat one, want %v (%.2f shares of NewG against 40)", got, want, shares)
	}
}

// A shape that would change NewG's mean, or put a lump past the first
// span, is refused with what is wrong.
func TestFreshSpansRefusedWhenTheyMoveTheMean(t *testing.T) {
	for _, c := range []struct {
		fresh gmp.FreshSpans
		want  string
	}{
		{gmp.FreshSpans{Base: 1, Stack: 16, StackAt: 1, GAt: 1}, "average to NewG"},
		{gmp.FreshSpans{Base: 0.5, Stack: 8, StackAt: 17, GAt: 3}, "must begin at go statement 1 to 16"},
		{gmp.FreshSpans{Base: -0.5, Stack: 24, StackAt: 1, GAt: 1}, "from 0 to 16"},
	} {
		cfg := gmp.Config{Procs: 1, Costs: gmp.DefaultCosts()}
		cfg.Costs.FreshSpans = c.fresh
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want an error saying %q", c.fresh, err, c.want)
		}
	}
}
