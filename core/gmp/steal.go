package gmp

import "time"

// stealWork and runqsteal/runqgrab (R3.6-R3.8).

const (
	// stealTries is the number of passes over all Ps (proc.go stealWork).
	stealTries = 4
	// runnextBackoff is runqgrab's usleep(3) before taking a runnext, so
	// that a P about to run its own runnext gets the chance.
	runnextBackoff = 3 * time.Microsecond
)

type stealResult uint8

const (
	stealNone    stealResult = iota
	stealFound               // a G was stolen (or readied by a stolen timer)
	stealWaiting             // the M sleeps in runqgrab's back-off
)

// stealWork makes up to four passes over all other Ps in a random order.
// Only the last pass runs other Ps' timers and may take a runnext. It
// resumes where it stopped when the M comes back from the back-off. The
// Ps that cannot give anything are passed over without a look
// (workset.go).
func (s *Machine) stealWork(m *M) (pick, stealResult) {
	st := &m.fr
	pp := s.p(m.P)
	if st.phase == phaseBackoff {
		st.phase = phaseSteal
		if pk, res := s.runqsteal(m, pp, s.p(st.victim), true, st.next); res != stealNone {
			return pk, res
		}
		st.enum.next()
	}
	for ; st.pass < stealTries; st.pass++ {
		last := st.pass == stealTries-1
		if !st.started {
			st.enum = s.stealOrder.start(s.rng.Uint32())
			st.started = true
		}
		// Only the Ps with queued Gs, or timers on the last pass, can
		// give anything (workset.go); visiting the others did nothing,
		// so skipping them keeps the order and the outcome.
		if steps, dense := s.victimsAhead(&st.enum, pp, last); !dense {
			for len(steps) > 0 {
				// The earliest step left: the list is not sorted,
				// since the first victim nearly always gives
				// something, and sorting them all was a tenth of
				// the steal's cost.
				j := 0
				for i := 1; i < len(steps); i++ {
					if steps[i] < steps[j] {
						j = i
					}
				}
				k := steps[j]
				steps[j] = steps[len(steps)-1]
				steps = steps[:len(steps)-1]
				st.enum.seek(int(k))
				if last && s.foldWake(m, st.enum.pos) {
					continue
				}
				if pk, res := s.stealFrom(m, pp, s.p(PID(st.enum.pos)), last); res != stealNone {
					return pk, res
				}
			}
			st.enum.finish()
		}
		for ; !st.enum.done(); st.enum.next() {
			if s.victimWord(st.enum.pos>>6, pp, last)&(1<<(st.enum.pos&63)) == 0 {
				continue
			}
			if last && s.foldWake(m, st.enum.pos) {
				continue
			}
			if pk, res := s.stealFrom(m, pp, s.p(PID(st.enum.pos)), last); res != stealNone {
				return pk, res
			}
		}
		st.started = false
	}
	return pick{}, stealNone
}

// stealFrom is one step of a steal pass by pp: on the last pass, p2's
// timers run, and then half of p2's ring, or on the last pass its
// runnext, may be taken.
func (s *Machine) stealFrom(m *M, pp, p2 *P, last bool) (pick, stealResult) {
	st := &m.fr
	if last && p2.timers.len() > 0 {
		w, ran := s.runTimers(p2, pp, m)
		if w != 0 && (st.stealPoll == 0 || w < st.stealPoll) {
			st.stealPoll = w
		}
		if ran {
			// The timers readied Gs into this P: run one now.
			if pk, ok := s.runqget(pp); ok {
				return pk, stealFound
			}
			st.ranTimer = true
		}
	}
	if !p2.Idle && !s.cfg.Policy.NoSteal {
		return s.runqsteal(m, pp, p2, last, NoG)
	}
	return pick{}, stealNone
}

// runqsteal takes half (rounded up) of victim's ring into pp's ring and
// returns the last G taken to run (R3.8). With an empty ring on the last
// pass it may take victim's runnext, after the back-off if the victim is
// running a G that is not in a syscall. expect is the runnext seen before
// the back-off (NoG when not coming back from one).
func (s *Machine) runqsteal(m *M, pp, victim *P, stealRunNext bool, expect GID) (pick, stealResult) {
	if expect != NoG {
		// Back from the sleep: the CAS on runnext succeeds only if
		// it still holds the G seen before; otherwise look again.
		if victim.Runnext == expect {
			return s.stealRunnext(m, pp, victim, true), stealFound
		}
	}
	n := victim.runq.len()
	if !s.cfg.Policy.StealAll {
		n -= n / 2
	}
	if n > 0 {
		g := victim.runq.at(n - 1) // the last taken runs
		if !s.counted() {
			s.emit(&Event{Kind: KindSteal, Rule: RuleRunqsteal, G: g, P: pp.ID, M: m.ID,
				From: at(LocRunq, victim.ID), To: at(LocRunning, pp.ID), P2: victim.ID, N: n,
				N2: victim.runq.len() - n, Flag: s.cfg.Policy.StealAll})
		}
		for range n - 1 {
			g := victim.runq.pop()
			pp.runq.push(g)
			s.g(g).Where = at(LocRunq, pp.ID)
		}
		victim.runq.pop()
		s.noteQueue(pp)
		s.noteQueue(victim)
		return pick{g: g, rule: RuleStolenRun, from: at(LocRunq, victim.ID), victim: victim.ID, n: n}, stealFound
	}
	next := victim.Runnext
	if !stealRunNext || next == NoG {
		return pick{}, stealNone
	}
	if victim.Status == Prunning && victim.M != NoM {
		if vm := s.m(victim.M); vm.CurG == NoG || s.g(vm.CurG).Status != Gsyscall {
			m.fr.phase = phaseBackoff
			m.fr.victim = victim.ID
			m.fr.next = next
			m.Backoff = true
			m.fr.backoff = s.usleep(m.ID, runnextBackoff)
			s.wakeMAt(m, s.after(m.fr.backoff), stepStealResume)
			return pick{}, stealWaiting
		}
	}
	return s.stealRunnext(m, pp, victim, false), stealFound
}

// stealRunnext takes victim's runnext to run on pp. After a back-off the
// event carries the wait the M was put to sleep for, the one drawn then:
// drawing another here would tell a wait that never happened and move
// the run's random sequence on.
func (s *Machine) stealRunnext(m *M, pp, victim *P, afterBackoff bool) pick {
	g := victim.Runnext
	var waited time.Duration
	if afterBackoff {
		waited = m.fr.backoff
	}
	s.emit(&Event{Kind: KindSteal, Rule: RuleRunqstealNext, G: g, P: pp.ID, M: m.ID,
		From: at(LocRunnext, victim.ID), To: at(LocRunning, pp.ID), P2: victim.ID, N: 1,
		D: waited, Flag: afterBackoff})
	victim.Runnext = NoG
	s.noteQueue(victim)
	return pick{g: g, rule: RuleStolenRun, from: at(LocRunnext, victim.ID), victim: victim.ID, n: 1}
}

// randomOrder enumerates all Ps in a pseudo-random order: a random start
// and a random stride coprime with the count visit each P exactly once
// (proc.go randomOrder, R3.7).
type randomOrder struct {
	count    int
	coprimes []int
	// inverses[i] is coprimes[i]'s inverse modulo count: it turns a P
	// back into the step that visits it (randomEnum.stepOf).
	inverses []int
}

type randomEnum struct {
	i, count, pos, inc int
	start, inv         int
}

func newRandomOrder(count int) randomOrder {
	o := randomOrder{count: count}
	for i := 1; i <= count; i++ {
		if gcd(i, count) == 1 {
			o.coprimes = append(o.coprimes, i)
			o.inverses = append(o.inverses, inverseMod(i, count))
		}
	}
	return o
}

func (o randomOrder) start(r uint32) randomEnum {
	c := int(r/uint32(o.count)) % len(o.coprimes)
	pos := int(r % uint32(o.count))
	return randomEnum{count: o.count, pos: pos, inc: o.coprimes[c], start: pos, inv: o.inverses[c]}
}

func (e *randomEnum) done() bool { return e.i == e.count }

// next steps to the next P. pos < count and inc <= count, so one
// subtraction wraps pos: no division on a path taken for every P of
// every steal pass.
func (e *randomEnum) next() {
	e.i++
	e.pos += e.inc
	if e.pos >= e.count {
		e.pos -= e.count
	}
}

// finish ends the enumeration.
func (e *randomEnum) finish() { e.i = e.count }

// stepOf is the step at which the enumeration visits P p: the k with
// start + k*inc = p modulo count.
func (e *randomEnum) stepOf(p int) int {
	d := p - e.start
	if d < 0 {
		d += e.count
	}
	return d * e.inv % e.count
}

// seek moves the enumeration to step k.
func (e *randomEnum) seek(k int) {
	e.i = k
	e.pos = (e.start + k*e.inc) % e.count
}

// inverseMod is a's inverse modulo n, for a coprime with n (extended
// Euclid); 0 when n is 1, where every step is 0.
func inverseMod(a, n int) int {
	t, newT, r, newR := 0, 1, n, a%n
	for newR != 0 {
		q := r / newR
		t, newT = newT, t-q*newT
		r, newR = newR, r-q*newR
	}
	if t < 0 {
		t += n
	}
	return t % n
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
