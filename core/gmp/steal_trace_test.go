package gmp

import (
	"fmt"
	"hash/fnv"
	"testing"
	"time"
)

// traceHash runs prog on procs Ps and hashes every event but its Op
// pointer, which differs between processes.
func traceHash(t *testing.T, procs int, prog *Program) (hash uint64, steals, stolenTimers int) {
	t.Helper()
	m, err := New(Config{Procs: procs, Seed: 3, Costs: DefaultCosts(), MaxEvents: 1 << 40}, prog)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	m.SetSink(func(e Event) {
		e.Op = nil
		fmt.Fprintf(h, "%+v\n", e)
		if e.Kind == KindSteal {
			steals++
		}
		if e.Rule == RuleReadyTimer && e.P2 != e.P {
			stolenTimers++
		}
	})
	for m.Step() {
	}
	if m.End().Reason != MainReturned {
		t.Fatalf("procs=%d: %v", procs, m.End())
	}
	return h.Sum64(), steals, stolenTimers
}

// The steal passes visit only the Ps that can give something, in the
// enumeration's order; skipping the others must change no event. These
// hashes are those of the traces before the work set existed (commit
// 9cde5ed), at P counts the built-ins' goldens do not reach, with passes
// sparse and dense, runnext steals and timers run by thieves. They were
// taken again at 0c06e4e, the model before the work set once the rule table
// had lost a rule (the hash prints rules by number), and the work set
// gives them unchanged. Taken again when startm's events began to carry
// how long the M they wake was parked (D2, and D its lateness, which
// these runs without noise never have): with those two fields cleared,
// the new traces hash to the values before. Taken again when they began
// to carry the waker whose CPU the woken thread takes (M2, NoM in these
// runs without noise, where it had been 0): with M2 of startm's events
// set to 0, the new traces hash to the values before.
func TestStealTracesUnchangedAtManyPs(t *testing.T) {
	prog := &Program{Main: []Op{
		goN(3000, cpu(10*time.Microsecond), sleep(time.Millisecond), cpu(10*time.Microsecond), gosched(), cpu(3*time.Microsecond)),
		waitKids(),
	}}
	want := map[int]uint64{
		7: 0x9fb9d8ef2e8312b6, 64: 0x8775a7954ab26d2, 100: 0x377a7bae79455fd4, 256: 0xea75b6530408e770,
	}
	for _, procs := range []int{7, 64, 100, 256} {
		got, steals, timers := traceHash(t, procs, prog)
		t.Logf("procs=%d: %d steals, %d timers run by another P, hash %#x", procs, steals, timers, got)
		if steals == 0 || timers == 0 {
			t.Errorf("procs=%d: %d steals and %d timers run by another P: the passes are not exercised", procs, steals, timers)
		}
		if w, ok := want[procs]; ok && got != w {
			t.Errorf("procs=%d: the trace's hash is %#x, was %#x", procs, got, w)
		}
	}
}
