package gmp

import (
	"strings"
	"testing"
	"time"
)

// A small builder for programs in tests, so rules can be checked without
// going through scenario files.

func cpu(d time.Duration) Op     { return Op{Kind: OpCPU, Dur: Fixed(d)} }
func sleep(d time.Duration) Op   { return Op{Kind: OpSleep, Dur: Fixed(d)} }
func syscall(d time.Duration) Op { return Op{Kind: OpSyscall, Dur: Fixed(d)} }
func netread(d time.Duration) Op { return Op{Kind: OpNet, Dur: Fixed(d)} }
func gosched() Op                { return Op{Kind: OpGosched} }
func waitKids() Op               { return Op{Kind: OpWait} }
func goN(n int, body ...Op) Op   { return Op{Kind: OpGo, Count: n, Body: body} }
func loop(n int, body ...Op) Op  { return Op{Kind: OpLoop, Count: n, Body: body} }
func send(c int) Op              { return Op{Kind: OpSend, Chan: c} }
func recv(c int) Op              { return Op{Kind: OpRecv, Chan: c} }
func closeCh(c int) Op           { return Op{Kind: OpClose, Chan: c} }
func lockOp(mu int) Op           { return Op{Kind: OpLock, Mutex: mu} }
func unlockOp(mu int) Op         { return Op{Kind: OpUnlock, Mutex: mu} }
func rlockOp(mu int) Op          { return Op{Kind: OpRLock, Mutex: mu} }
func runlockOp(mu int) Op        { return Op{Kind: OpRUnlock, Mutex: mu} }
func addOp(wg, n int) Op         { return Op{Kind: OpAdd, WG: wg + 1, N: n} }
func doneOp(wg int) Op           { return Op{Kind: OpDone, WG: wg + 1} }
func waitOp(wg int) Op           { return Op{Kind: OpWait, WG: wg + 1} }

// wgGo is count wg.Go calls, each running body.
func wgGo(wg, count int, body ...Op) Op {
	return Op{Kind: OpGo, WG: wg + 1, Count: count, Body: body}
}

type run struct {
	m      *Machine
	events []Event
	d      *Describer
}

// simulate runs main on procs Ps with invariant checks after every step.
func simulate(t *testing.T, procs int, until time.Duration, chans []ChanDecl, main ...Op) *run {
	t.Helper()
	prog := &Program{Name: t.Name(), Chans: chans, Main: main}
	m, err := New(Config{Procs: procs, Seed: 1, Until: until, Costs: DefaultCosts(), Check: true}, prog)
	if err != nil {
		t.Fatal(err)
	}
	r := &run{m: m, d: NewDescriber(prog)}
	m.SetSink(func(e Event) { r.events = append(r.events, e) })
	end := m.Run()
	if end.Reason == Invariant {
		t.Fatalf("invariant broken: %v\n%s", end.Err, r.tail(40))
	}
	return r
}

func (r *run) tail(n int) string {
	var b strings.Builder
	start := max(0, len(r.events)-n)
	for _, e := range r.events[start:] {
		b.WriteString(e.T.String() + " " + e.Kind.String() + " " + r.d.Describe(e) + "\n")
	}
	return b.String()
}

func (r *run) dump() string { return r.tail(len(r.events)) }

func (r *run) count(k Kind) int {
	n := 0
	for _, e := range r.events {
		if e.Kind == k {
			n++
		}
	}
	return n
}

func TestSmoke(t *testing.T) {
	r := simulate(t, 2, 0, nil,
		goN(8, cpu(time.Millisecond)),
		waitKids(),
	)
	if r.m.End().Reason != MainReturned {
		t.Fatalf("end %v %v\n%s", r.m.End().Reason, r.m.End().Err, r.dump())
	}
	t.Log("\n" + r.dump())
}
