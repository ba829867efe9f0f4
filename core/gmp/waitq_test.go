package gmp

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// The wait queue every parking object shares (waitq.go), on its own and
// through the objects that use it.

func gidsOf(q *WaitQ) []GID { return q.GIDs() }

// FIFO insertion queues at the tail, LIFO at the head (semaRoot.queue's
// lifo, which sync.Mutex uses for a woken waiter that lost the lock); a
// grant takes the front off the line but keeps it, granted, until detach
// (ready) takes it out.
func TestWaitQOrderGrantDetach(t *testing.T) {
	var q WaitQ
	q.push(Sudog{G: 1})
	q.push(Sudog{G: 2})
	q.pushFront(Sudog{G: 3, Since: 7})
	q.push(Sudog{G: 4})
	if got, want := gidsOf(&q), []GID{3, 1, 2, 4}; !slices.Equal(got, want) {
		t.Fatalf("line %v, want %v", got, want)
	}
	if q.first().Since != 7 {
		t.Errorf("the waiter put at the front lost its waiting time: %+v", *q.first())
	}
	w := q.grant()
	if w.G != 3 || q.Len() != 3 || !slices.Equal(q.Granted(), []GID{3}) {
		t.Fatalf("grant gave %v, left %v, granted %v", w.G, gidsOf(&q), q.Granted())
	}
	// Detach finds a G anywhere in the line (select takes a woken G off
	// every other queue it sat in), and a granted one.
	if !q.detach(2) || !q.detach(3) {
		t.Fatal("detach missed a waiter")
	}
	if q.detach(3) || q.detach(9) {
		t.Error("detach found a G that is not there")
	}
	if got, want := gidsOf(&q), []GID{1, 4}; !slices.Equal(got, want) || len(q.Granted()) != 0 {
		t.Errorf("after detach: line %v granted %v, want %v and none", got, q.Granted(), want)
	}
	// A clone is a queue of its own.
	c := q.clone()
	c.push(Sudog{G: 5})
	c.grant()
	if q.Len() != 2 || len(q.Granted()) != 0 {
		t.Errorf("changing a clone changed the original: %v %v", gidsOf(&q), q.Granted())
	}
}

// The invariant check holds a queue's goroutines to the place they
// believe they are in: a queued G whose Where names another place is a
// violation, and so is one queued twice.
func TestWaitQCheckFindsAStrayWaiter(t *testing.T) {
	r := simulate(t, 1, 0, []ChanDecl{{Name: "c"}}, goN(1, recv(0)), sleep(time.Millisecond), send(0), waitKids())
	if r.m.End().Reason != MainReturned {
		t.Fatalf("end %v", r.m.End())
	}
	m := r.m
	m.chans[0].RecvQ.push(Sudog{G: 1}) // main is not receiving
	err := m.CheckInvariants()
	if err == nil || !strings.Contains(err.Error(), "recvq of c") {
		t.Fatalf("a stray waiter went unnoticed: %v", err)
	}
}

// What a goroutine waits on is worded once (waitsOn): the park sentence
// and the deadlock report say the same thing of the same wait.
func TestParkAndDeadlockWordAWaitAlike(t *testing.T) {
	for _, tc := range []struct {
		name string
		main []Op
	}{
		{"receive", []Op{recv(0)}},
		{"send", []Op{send(0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := simulate(t, 1, 0, []ChanDecl{{Name: "c"}}, tc.main...)
			if r.m.End().Reason != Deadlock {
				t.Fatalf("end %v", r.m.End())
			}
			var park string
			for _, e := range r.events {
				if e.Kind == KindGoBlock {
					park = r.d.Describe(e)
				}
			}
			what, ok := strings.CutPrefix(park, "G1 blocks ")
			if !ok {
				t.Fatalf("park sentence %q", park)
			}
			what = strings.ReplaceAll(what, "channel c", `channel "c"`) // the report quotes names
			if why := r.m.BlockedAtEnd()[0].Why; why != "G1 is blocked "+what {
				t.Errorf("the deadlock says %q, the park sentence %q", why, park)
			}
		})
	}
}
