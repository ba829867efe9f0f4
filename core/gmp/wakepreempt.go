package gmp

import (
	"fmt"
	"time"
)

// A thread woken by another often takes the waker's CPU at once. WakeM is
// a futex wake-up from one CPU to another (calibrate's futex_wake, taken
// between two threads held to two CPUs), and it is the slow way: on the
// project's machine, a KVM guest, the other CPU has to be woken from idle,
// 25-40µs. A Go program's threads seldom fill the CPUs, and Linux puts a
// woken thread beside its waker when the waker's CPU has room
// (select_task_rq_fair's wake-affine choice; wakepack.go models it where
// the model has CPUs). There the kernel's wake-up preemption
// (wakeup_preempt, check_preempt_wakeup_fair) mostly lets the woken thread
// run a few microseconds later, and the waker waits on its CPU for about
// as long as the woken thread runs before it sleeps.
//
// A kernel scheduler trace of nine 2-P scenarios' generated programs
// (perf record of sched_switch, sched_waking and sched_wakeup, read by
// go run ./scripts/wakeplace) shows that to be the common case, not the
// exception: 89-100% of each program's run time on one CPU (steal's 81%),
// and of the 2,039 wake-ups of a program's thread made in another of its
// threads, 1,573 took the CPU from a thread of the program running where
// the woken one was put, which stayed runnable, a median 6µs after the
// wake-up (p10 1-5µs, p90 7-19µs, by program); that thread ran again a
// median 8-13µs later. docs/fidelity.md, "Waking onto the waker's CPU",
// has the figures.
//
// Without a CPU model, with Config.Noise, a WakePreempt stands for it:
// when an M's step makes startm wake a parked M, and the wake-up is not
// one of Costs.IdleWake's late ones (the woken thread queued behind a
// waker that computes on), the woken M takes the waker's CPU with Share
// as its chance, and starts After to After+Spread later instead of
// WakeM's. The waker's thread pays Costs.WakeCall, as for any wake-up:
// calibrate measures that call across CPUs (7-8µs here), and the cheaper
// call beside the waker with the CPU time the waker then lends (the
// traces' median 8µs) comes to about as much; drawing the traces' wait in
// its place moved verify's counts by nothing but noise. The zero value
// has no share, and the generator is not drawn from, so every run but
// verify's on several Ps is as before.
//
// Two threads on one CPU take turns when both have work: the kernel runs
// one until its slice is used (RUN_TO_PARITY) and a tick finds it, and
// the other waits. The same traces show 65 preempted threads of the
// programs waiting over 1ms to run again, p10 1.51ms, median 3.48ms, p90
// 5.72ms, 61 of them on the CPU they waited on; in pingpong-2p's the
// goroutine pair moved from one thread and P to the other at the turns,
// each thread holding its P throughout, so that no idle P's thread looked
// for work meanwhile. WakePreempt's Turn stands for it: an M that took
// its waker's CPU shares it with the waker until either sleeps (parks, or
// blocks in netpoll), and when it steals from the waker's P and runs what
// it took while the waker is in the scheduler without a goroutine, the
// waker waits Turn to Turn+TurnSpread before it goes on, its P held. A
// waker that runs a goroutine is left alone: that goroutine holds up the
// stolen one, the stealer soon sleeps and gives the CPU back, and a turn
// there too kept pingpong-2p's P use 4 points above the real runs'.

// WakePreempt is the chance that a thread woken by a running one takes
// its CPU at once, and how soon it runs then.
type WakePreempt struct {
	// Share is the chance, from 0 to 1.
	Share float64
	// After and Spread: the woken thread runs After to After+Spread after
	// the waker's startm, drawn evenly.
	After, Spread time.Duration
	// Turn and TurnSpread: when a woken thread that took its waker's CPU
	// steals from the waker's P and runs what it took while the waker is
	// in the scheduler without a goroutine, the waker waits Turn to
	// Turn+TurnSpread, drawn evenly, for the kernel's next turn. No turn
	// if Turn is zero.
	Turn, TurnSpread time.Duration
}

// maxWakePreempt bounds After+Spread: a wake-up preemption that takes
// longer than a tick is no quicker than the ways it stands in for.
const maxWakePreempt = 4 * time.Millisecond

// maxTurn bounds Turn+TurnSpread: a few ticks, past the longest turns
// the traces show but for a handful.
const maxTurn = 20 * time.Millisecond

// validate says what is wrong with w, if anything.
func (w *WakePreempt) validate() error {
	switch {
	case !(w.Share >= 0 && w.Share <= 1):
		return fmt.Errorf("wake preempt: its share must be from 0 to 1, got %v", w.Share)
	case w.After < 0 || w.Spread < 0 || w.After+w.Spread > maxWakePreempt:
		return fmt.Errorf("wake preempt: want a start from 0 to %v after the wake-up, got %v plus up to %v", maxWakePreempt, w.After, w.Spread)
	case w.Turn < 0 || w.TurnSpread < 0 || w.Turn+w.TurnSpread > maxTurn:
		return fmt.Errorf("wake preempt: want a turn from 0 to %v, got %v plus up to %v", maxTurn, w.Turn, w.TurnSpread)
	}
	return nil
}

// wakePreempts says whether the M that startm wakes now, for s.acting,
// takes the waker's CPU at once, and if so how soon it runs. late is its
// Costs.IdleWake lateness: a late thread waits behind its waker instead.
func (s *Machine) wakePreempts(late time.Duration) (time.Duration, bool) {
	w := &s.cfg.Costs.WakePreempt
	if w.Share <= 0 || !s.cfg.Noise || s.cpu != nil || s.acting == NoM || late > 0 {
		return 0, false
	}
	if s.rng.Float64() >= w.Share {
		return 0, false
	}
	return s.late(w.After, w.Spread), true
}

// share records that m and w share a CPU: m woke onto w's.
func (s *Machine) share(m, w *M) {
	s.unshare(m)
	s.unshare(w)
	m.beside, w.beside = w.ID, m.ID
}

// unshare ends what m shares: it sleeps, and wakes wherever the kernel
// puts it next.
func (s *Machine) unshare(m *M) {
	if m.beside != NoM {
		s.m(m.beside).beside = NoM
		m.beside = NoM
	}
}

// takeTurn follows m's start of a goroutine it stole from pp: if the
// thread it shares its CPU with holds pp and has no goroutine, that
// thread waits for the CPU until the kernel's next turn.
func (s *Machine) takeTurn(m *M, pp *P) {
	if m.beside == NoM || pp.M != m.beside {
		return
	}
	w := s.m(m.beside)
	wp := &s.cfg.Costs.WakePreempt
	if wp.Turn <= 0 || w.CurG != NoG || !s.needsCPU(w) {
		return
	}
	s.wakeMAt(w, w.wakeAt.Add(s.late(wp.Turn, wp.TurnSpread)), w.next)
}
