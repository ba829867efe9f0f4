package gmp

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func cwaitOp(c int) Op     { return Op{Kind: OpObj, Obj: c, Verb: condWait} }
func signalOp(c int) Op    { return Op{Kind: OpObj, Obj: c, Verb: condSignal} }
func broadcastOp(c int) Op { return Op{Kind: OpObj, Obj: c, Verb: condBroadcast} }

// condProg declares mutex mu and cond c on it.
func condProg(main ...Op) Program {
	return Program{Mutexes: []MutexDecl{{Name: "mu"}}, Objects: []ObjDecl{{Kind: 0, Name: "c", Ref: 0}}, Main: main}
}

// Three waiters lock mu and Wait; a Signal readies the one holding the
// first ticket, a Broadcast the other two, and a Signal with every ticket
// notified does nothing (notifyListNotifyOne's fast path).
var condSignalAll = microProg{procs: 1, prog: condProg(
	goN(3, lockOp(0), cwaitOp(0), unlockOp(0)), sleep(time.Millisecond),
	lockOp(0), signalOp(0), unlockOp(0), sleep(time.Millisecond),
	broadcastOp(0), sleep(time.Millisecond), signalOp(0), waitKids())}

// sync.Cond.Wait (sync/cond.go) is notifyListAdd, L.Unlock,
// notifyListWait, L.Lock (runtime/sema.go): each waiter takes a ticket
// in turn and parks with it; notifyListNotifyOne readies the waiter
// whose ticket is next, notifyListNotifyAll every parked one, in list
// order, each into the notifier's runnext; each woken waiter locks mu
// again before it returns.
func TestCondSignalAndBroadcast(t *testing.T) {
	r := simulateSync(t, 1, "", &condSignalAll.prog)
	if end := r.m.End(); end.Reason != MainReturned {
		t.Fatalf("end %v %v\n%s", end.Reason, end.Err, r.dump())
	}
	var tickets []int
	var readied []GID
	var notified [][2]int // woken, ticket
	for _, e := range r.events {
		switch e.Rule {
		case RuleCondAdd:
			tickets = append(tickets, e.Ticket())
		case RuleReadyCond:
			readied = append(readied, e.G)
		case RuleCondSignal, RuleCondBroadcast:
			notified = append(notified, [2]int{e.Woken(), e.Notified()})
		}
	}
	if !slices.Equal(tickets, []int{0, 1, 2}) {
		t.Errorf("tickets %v, want 0 1 2", tickets)
	}
	// G2 took ticket 0 (newproc puts the last created in runnext, so G4
	// runs first: it holds ticket 0).
	if len(readied) != 3 || !slices.Equal(notified, [][2]int{{1, 0}, {2, 1}, {0, -1}}) {
		t.Errorf("readied %v, notified %v\n%s", readied, notified, r.dump())
	}
	// Every woken waiter locked mu again: three Wait-ending locks plus
	// the three first ones, and main's.
	locks := 0
	for _, e := range r.events {
		if e.Kind == KindMutexLock && (e.Rule == RuleMutexLock || e.Rule == RuleMutexAcquire) {
			locks++
		}
	}
	if locks != 7 {
		t.Errorf("%d locks of mu, want 7\n%s", locks, r.dump())
	}
}

// A goroutine waiting on a cond nobody signals deadlocks, and the report
// says what Go's goroutine dump says: sync.Cond.Wait.
func TestCondDeadlockSaysCondWait(t *testing.T) {
	prog := condProg(lockOp(0), cwaitOp(0))
	r := simulateSync(t, 1, "", &prog)
	end := r.m.End()
	want := `fatal error: all goroutines are asleep - deadlock! G1 is blocked in sync.Cond.Wait on cond "c" (1 waiting)`
	if end.Reason != Deadlock || !strings.HasPrefix(end.Err.Error(), want) {
		t.Errorf("end %v %q, want %q", end.Reason, end.Err, want)
	}
	// Wait unlocked mu before it parked: the report names no holder.
	if strings.Contains(end.Err.Error(), "mutex") {
		t.Errorf("end %q: mu should be free", end.Err)
	}
}

// notifyListWait returns at once when a Signal reached the waiter's
// ticket while Wait was unlocking L: notifyListNotifyOne bumped the
// notify counter and found no sudog to ready (the waiter had not queued),
// and the waiter, finding its ticket below it, does not park. On 2 Ps,
// with the waiter stolen onto P1 (a second go statement kicks it from
// P0's runnext to its ring), some moment of main's Signal falls in that
// window; the run then ends normally instead of losing the wake-up.
func TestCondSignalBeforeThePark(t *testing.T) {
	for d := time.Duration(0); d < 60*time.Microsecond; d += 50 * time.Nanosecond {
		prog := condProg(goN(1, lockOp(0), cwaitOp(0), unlockOp(0)), goN(1, cpu(time.Microsecond)), cpu(d), signalOp(0), waitKids())
		r := simulateSync(t, 2, "", &prog)
		var signal Event
		for _, e := range r.events {
			if e.Rule == RuleCondSignal {
				signal = e
			}
			if e.Rule != RuleCondPark || e.Parks() {
				continue
			}
			if signal.Rule != RuleCondSignal || signal.Woken() != 0 || signal.Notified() != e.Ticket() {
				t.Fatalf("cpu %v: the wait returned at once with ticket %d, but the signal before it says %s\n%s", d, e.Ticket(), r.d.Describe(signal), r.dump())
			}
			if end := r.m.End(); end.Reason != MainReturned {
				t.Fatalf("cpu %v: end %v %v\n%s", d, end.Reason, end.Err, r.dump())
			}
			return
		}
	}
	t.Fatal("no moment of main's Signal fell between the waiter's ticket and its park")
}

// A clone taken while goroutines wait on a cond (the UI steps back and
// forks from clones) runs on as the original does: the notify list's
// counters, its queue and the tickets taken are the clone's own.
func TestCondCloneRunsOnAsTheOriginal(t *testing.T) {
	prog := condSignalAll.prog
	m, err := New(Config{Procs: 1, Seed: 1, Costs: DefaultCosts(), Check: true}, &prog)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDescriber(&prog)
	var tail []string
	m.SetSink(func(e Event) { tail = append(tail, d.Describe(e)) })
	for m.Step() && (len(m.Objects()) == 0 || m.Objects()[0].Q.Len() < 3) {
	}
	if m.Objects()[0].Q.Len() != 3 {
		t.Fatalf("never had 3 waiters:\n%s", strings.Join(tail, "\n"))
	}
	c := m.Clone()
	tail = nil
	m.Run()
	orig := tail
	tail = nil
	c.SetSink(func(e Event) { tail = append(tail, d.Describe(e)) })
	c.Run()
	if !slices.Equal(orig, tail) || len(orig) == 0 {
		t.Errorf("the clone ran\n%s\nthe original\n%s", strings.Join(tail, "\n"), strings.Join(orig, "\n"))
	}
	if m.Objects()[0].A != 3 || c.Objects()[0].B != 3 {
		t.Errorf("tickets handed out %d, notified %d; want 3 and 3", m.Objects()[0].A, c.Objects()[0].B)
	}
}
