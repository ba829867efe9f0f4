package gmp

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// selectTimeoutProg is the built-in select-timeout: a worker that takes
// two jobs from a select with a 5ms time.After each and gives up on the
// third. Each job leaves the select's timer behind, stopped.
func selectTimeoutProg() (chans []ChanDecl, main []Op) {
	exit := Op{Kind: OpExit}
	worker := loop(3, selectOp(caseRecv(0, cpu(time.Millisecond)), caseAfter(5*time.Millisecond, exit)))
	return []ChanDecl{{Name: "jobs"}}, []Op{
		goN(1, worker),
		send(0),
		sleep(3 * time.Millisecond),
		selectOp(caseSend(0), caseAfter(50*time.Millisecond)),
		waitKids(),
	}
}

// A select won by a channel lets go of its time.After timer in pass 3,
// which leaves it in its heap as a zombie (unblockTimerChan): an idle M
// then blocks in netpoll until the zombie's time, which its sentence
// names, and the zombie never fires. Real runs of select-timeout show
// the same: a probe on runtime.netpoll saw an idle M's delay end at the
// stopped timer's time in three runs of four (docs/fidelity.md).
func TestAStoppedTimerStaysInItsHeapAsAZombie(t *testing.T) {
	chans, main := selectTimeoutProg()
	r := simulate(t, 2, 0, chans, main...)
	if end := r.m.End(); end.Reason != MainReturned {
		t.Fatalf("end %v: %v", end.Reason, end.Err)
	}
	stopped := 0
	for _, e := range r.rule(RuleSelectResume) {
		if e.Stopped() > 0 {
			stopped++
			if got := r.d.Describe(e); !strings.Contains(got, "heap as a zombie") {
				t.Errorf("pass 3 says %q: want where the stopped timer stays", got)
			}
		}
	}
	// The first select finds main waiting to send in pass 1 and parks
	// no timer; the second waits and is won by main's second job.
	if stopped != 1 {
		t.Fatalf("%d selects let go of a timer, want the one a job won\n%s", stopped, r.dump())
	}
	var waits []Event
	for _, e := range r.rule(RuleNetpollBlock) {
		if e.ZombieOf() != NoG {
			waits = append(waits, e)
		}
	}
	if len(waits) == 0 {
		t.Fatalf("no idle M waited for a zombie\n%s", r.dump())
	}
	if got := r.d.Describe(waits[0]); !strings.Contains(got, "G2's stopped time.After, a zombie still in") {
		t.Errorf("the wait says %q: want it to name the zombie it waits for", got)
	}
	if fired := r.rule(RuleReadySelectTimer); len(fired) != 1 || fired[0].SelCase() != 1 {
		t.Errorf("timers fired %+v: want only the third select's, its after case", fired)
	}
}

// zombieMachine is a machine on procs Ps whose P0 holds the timers given,
// at time 0; the ones marked zombie are zombies. Nothing has run.
func zombieMachine(t *testing.T, procs int, timers ...Timer) *Machine {
	t.Helper()
	m, err := New(Config{Procs: procs, Seed: 1, Costs: DefaultCosts()}, &Program{Main: []Op{cpu(time.Millisecond)}})
	if err != nil {
		t.Fatal(err)
	}
	pp := m.p(0)
	for i, tm := range timers {
		tm.G, tm.sel = GID(100+i), 1
		pp.timers.push(tm)
		m.ntimers++
		if tm.Zombie {
			pp.timers.zombies++
		}
	}
	m.noteTimers(pp)
	return m
}

func ms(n int) sim.Time { return sim.Time(0).Add(time.Duration(n) * time.Millisecond) }

// whens lists a heap's timers in firing order, a zombie's time with a z.
func whens(h *timerHeap) string {
	c := h.clone()
	var out []string
	for c.len() > 0 {
		t := c.pop()
		s := time.Duration(t.When).String()
		if t.Zombie {
			s += "z"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// An add first drops zombies from the slice's last slot and from the
// top, until neither holds one (maybeAdd's cleanHead): a zombie the
// top's removal moves to the last slot goes too, one between stays. The
// heap is 4-ary, as the runtime's: the slices below are its layout.
func TestAnAddTakesZombiesFromTheEnds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		timers []Timer
		left   string
	}{
		// [1z 2 3z 4 9z]: 9z goes from the end, 1z from the top, which
		// brings 4 up and leaves 3z last, so it goes too.
		{"moved to the end", []Timer{{When: ms(1), Zombie: true}, {When: ms(2)}, {When: ms(3), Zombie: true}, {When: ms(4)}, {When: ms(9), Zombie: true}}, "2ms 4ms 5ms"},
		// [1z 2 3z 4 6]: 1z goes from the top, which brings 6 up and
		// leaves 4 last: 3z stays.
		{"between", []Timer{{When: ms(1), Zombie: true}, {When: ms(2)}, {When: ms(3), Zombie: true}, {When: ms(4)}, {When: ms(6)}}, "2ms 3msz 4ms 5ms 6ms"},
	} {
		m := zombieMachine(t, 1, tc.timers...)
		pp := m.p(0)
		m.addTimer(pp, Timer{When: ms(5), G: 1})
		if got := whens(&pp.timers); got != tc.left {
			t.Errorf("%s: after an add the heap is %s, want %s", tc.name, got, tc.left)
		}
		if z := strings.Count(tc.left, "z"); pp.timers.zombies != z || m.ntimers != pp.timers.len() {
			t.Errorf("%s: %d zombies of %d timers counted, want %d of %d", tc.name, pp.timers.zombies, m.ntimers, z, pp.timers.len())
		}
	}
}

// A check before the earliest timer is due does nothing, and reports the
// earliest, a zombie's time too (timers.check) - unless it is the M's own
// P and more than a quarter of its timers are zombies: then a zombie at
// the top goes, due or not, and after the run every zombie does
// (adjust with force).
func TestACheckTakesZombiesOutOnlyWhenDueOrTooMany(t *testing.T) {
	for _, tc := range []struct {
		name   string
		timers []Timer
		own    bool
		now    int
		next   string
		left   string
	}{
		{"another P's, not due", []Timer{{When: ms(1), Zombie: true}, {When: ms(5)}}, false, 0, "1ms", "1msz 5ms"},
		{"another P's, due", []Timer{{When: ms(1), Zombie: true}, {When: ms(2), Zombie: true}, {When: ms(5)}}, false, 1, "5ms", "5ms"},
		{"its own, a quarter", []Timer{{When: ms(1), Zombie: true}, {When: ms(5)}, {When: ms(6)}, {When: ms(7)}}, true, 0, "1ms", "1msz 5ms 6ms 7ms"},
		{"its own, more than a quarter", []Timer{{When: ms(1), Zombie: true}, {When: ms(5)}, {When: ms(6)}}, true, 0, "5ms", "5ms 6ms"},
		{"its own, one deep in the heap", []Timer{{When: ms(1)}, {When: ms(3), Zombie: true}, {When: ms(5)}}, true, 0, "1ms", "1ms 5ms"},
	} {
		m := zombieMachine(t, 2, tc.timers...)
		m.now = ms(tc.now)
		tp, runner := m.p(0), m.p(1)
		if tc.own {
			runner = tp
		}
		next, ran := m.runTimers(tp, runner, m.ms[0])
		if ran || next != ms(0).Add(mustParse(t, tc.next)) {
			t.Errorf("%s: the check reported %v (ran %v), want %s", tc.name, time.Duration(next), ran, tc.next)
		}
		if got := whens(&tp.timers); got != tc.left {
			t.Errorf("%s: the heap is %s after the check, want %s", tc.name, got, tc.left)
		}
		zombies := strings.Count(tc.left, "z")
		if tp.timers.zombies != zombies || m.ntimers != tp.timers.len() || m.work.wake[0] != tp.timers.wakeTime() {
			t.Errorf("%s: %d zombies, %d timers, work set at %v: the counts do not follow the heap %s",
				tc.name, tp.timers.zombies, m.ntimers, m.work.wake[0], tc.left)
		}
	}
}

func mustParse(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// selectLoopsProgram is four workers that each take jobs from two
// channels in a select with a time.After of 0.5-3ms, and two producers
// that send at random intervals: many selects won by a channel, so many
// zombies, on every P, taken out every way there is. The channels hold
// every job, so a producer never waits for workers that have finished.
func selectLoopsProgram() *Program {
	between := Op{Kind: OpCPU, Dur: Dur{Kind: DurUniform, A: 20 * time.Microsecond, B: 400 * time.Microsecond}}
	pause := Op{Kind: OpSleep, Dur: Dur{Kind: DurUniform, A: 50 * time.Microsecond, B: 2 * time.Millisecond}}
	wait := SelectCase{Dir: SelectAfter, Dur: Dur{Kind: DurUniform, A: 500 * time.Microsecond, B: 3 * time.Millisecond}}
	return &Program{
		Chans: []ChanDecl{{Name: "a", Cap: 40}, {Name: "b", Cap: 40}},
		Main: []Op{
			goN(4, loop(40, selectOp(caseRecv(0, between), caseRecv(1, between), wait))),
			goN(2, loop(20, pause, send(0), between, send(1))),
			waitKids(),
		},
	}
}

// Zombies hold the invariants (the checker counts them in each heap and
// every pending timer) at every step, over seeds and P counts, and a
// clone taken among them goes on as the original does.
func TestZombiesHoldTheInvariants(t *testing.T) {
	stopped, waited := 0, 0
	sentences := map[string]bool{}
	for _, procs := range []int{1, 2, 4} {
		for seed := uint64(1); seed <= 6; seed++ {
			cfg := Config{Procs: procs, Seed: seed, Costs: DefaultCosts(), Check: true, Noise: seed%2 == 0}
			prog := selectLoopsProgram()
			m, err := New(cfg, prog)
			if err != nil {
				t.Fatal(err)
			}
			d := NewDescriber(prog)
			var orig []Event
			m.SetSink(func(e Event) {
				orig = append(orig, e)
				if e.Rule == RuleSelectResume && e.Stopped() > 0 {
					stopped++
				}
				if e.Rule == RuleNetpollBlock && e.ZombieOf() != NoG {
					waited++
					sentences[d.Describe(e)] = true
				}
			})
			for m.Emitted() < 400 && m.Step() {
			}
			c := m.Clone()
			var fromClone []Event
			c.SetSink(func(e Event) { fromClone = append(fromClone, e) })
			cut := len(orig)
			if end := m.Run(); end.Reason != MainReturned {
				t.Fatalf("procs=%d seed=%d: %v: %v", procs, seed, end.Reason, end.Err)
			}
			c.Run()
			if !sameEvents(orig[cut:], fromClone) {
				t.Fatalf("procs=%d seed=%d: the clone diverged", procs, seed)
			}
		}
	}
	t.Logf("stopped %d waited %d", stopped, waited)
	short := false
	for sentence := range sentences {
		if !strings.Contains(sentence, "a zombie still in") || strings.Contains(sentence, ") (") {
			t.Errorf("an idle M's wait for a zombie reads %q", sentence)
		}
		short = short || strings.Contains(sentence, "at least 1, so it sleeps 1ms and the kernel's timer slack")
	}
	if !short {
		t.Errorf("no wait for a zombie due within a millisecond among %d sentences: that one is untested", len(sentences))
	}
	if stopped < 100 || waited == 0 {
		t.Errorf("%d selects stopped a timer and %d idle Ms waited for a zombie: the program does not exercise them", stopped, waited)
	}
}
