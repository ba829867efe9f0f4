package gmp

import "time"

// The kernel's EEVDF (kernel/sched/fair.c since Linux 6.6): the zero-lag
// point of a CPU's queue, lag kept over a sleep, eligibility, virtual
// deadlines and the pick. cpus.go has the threads, the CPUs and when the
// kernel picks.

// lagLimit bounds a sleeper's lag (update_entity_lag): the larger of two
// slices and a tick.
func (c *cpuModel) lagLimit() time.Duration { return max(2*c.slice, schedTick) }

// loadWaitID stands for a waiting load thread in pickEEVDF's answer.
const loadWaitID = -3

// avgVR is CPU k's zero-lag point V (avg_vruntime): the mean vruntime of
// its runnable threads, skip left out, and how many there are; with none,
// the queue's minVR. The load's waiting threads count at the group's
// vruntime.
func (c *cpuModel) avgVR(k, skip int32) (time.Duration, int) {
	q := &c.cpus[k]
	var sum time.Duration
	n := 0
	add := func(v time.Duration, w int) {
		sum += v * time.Duration(w)
		n += w
	}
	if q.curr >= 0 && q.curr != skip {
		add(c.th[q.curr].vr, 1)
	}
	if q.incoming >= 0 && q.incoming != skip && q.incoming != q.curr {
		add(c.th[q.incoming].vr, 1)
	}
	waiting := int(q.nload)
	if q.curr == cpuLoad {
		add(q.loadRunVR, 1)
		waiting--
	}
	if waiting > 0 {
		add(q.loadVR, waiting)
	}
	for _, id := range q.queue {
		if id != skip {
			add(c.th[id].vr, 1)
		}
	}
	if n == 0 {
		return q.minVR, 0
	}
	return sum / time.Duration(n), n
}

// avgWith is V of CPU k with thread id counted once, wherever it is.
func (c *cpuModel) avgWith(k, id int32) time.Duration {
	V, n := c.avgVR(k, id)
	return (V*time.Duration(n) + c.th[id].vr) / time.Duration(n+1)
}

// lagOf is thread id's lag on CPU k, V less its vruntime: positive when
// it is owed service, negative when it has had more than its share.
func (c *cpuModel) lagOf(k int32, t *osThread, id int32) time.Duration {
	return c.avgWith(k, id) - t.vr
}

// running is what runs on CPU k for EEVDF: an M or cpuLoad, with its
// vruntime and where its deadline and protection are kept; cpuIdle and
// nils when nothing runs.
func (c *cpuModel) running(k int32) (id int32, vr time.Duration, dl, prot *time.Duration) {
	q := &c.cpus[k]
	switch {
	case q.curr >= 0:
		t := &c.th[q.curr]
		return q.curr, t.vr, &t.dl, &t.prot
	case q.curr == cpuLoad:
		return cpuLoad, q.loadRunVR, &q.loadRunDL, &q.loadProt
	}
	return cpuIdle, 0, nil, nil
}

// boundedLag is thread id's lag on CPU k as the kernel keeps it when the
// thread leaves the queue, within the lag limit (update_entity_lag).
func (c *cpuModel) boundedLag(k int32, t *osThread, id int32) time.Duration {
	lim := c.lagLimit()
	return min(max(c.lagOf(k, t, id), -lim), lim)
}

// protectedFor is how much of its request the thread running on k has
// left under RUN_TO_PARITY, 0 if none.
func (c *cpuModel) protectedFor(k int32) time.Duration {
	if id, vr, _, prot := c.running(k); id != cpuIdle {
		return max(*prot-vr, 0)
	}
	return 0
}

// loadRequest gives q's running load thread its request, picked at
// its vruntime (set_next_entity).
func (c *cpuModel) loadRequest(q *cpuRQ) {
	q.loadRunDL = q.loadRunVR + c.slice
	q.loadProt = q.loadRunDL
}

// pickEEVDF is what CPU k runs next (pick_eevdf), with extra (a thread
// waking onto it, or -1) among the candidates: the running thread while
// it is eligible and its request protects it, else the eligible thread
// with the earliest deadline, the running one only if strictly earliest
// (entity_before). It returns an M, cpuLoad for the running load
// thread, loadWaitID for a waiting one, or cpuIdle for nothing. The load's
// next thread is the one that ran longest ago, taken as half a slice
// behind the group's vruntime, its deadline a slice after that.
func (c *cpuModel) pickEEVDF(k, extra int32) int32 {
	q := &c.cpus[k]
	var V time.Duration
	if extra >= 0 {
		V = c.avgWith(k, extra)
	} else {
		V, _ = c.avgVR(k, -1)
	}
	cur, curVR, curDL, curProt := c.running(k)
	if cur != cpuIdle && curVR <= V && curVR < *curProt {
		return cur
	}
	best, least := int32(cpuIdle), int32(cpuIdle)
	var bestDL, leastVR time.Duration
	consider := func(id int32, vr, dl time.Duration) {
		if least == cpuIdle || vr < leastVR {
			least, leastVR = id, vr
		}
		if vr <= V && (best == cpuIdle || dl < bestDL) {
			best, bestDL = id, dl
		}
	}
	if c.loadWaiting(q) {
		consider(loadWaitID, q.loadVR-c.slice/2, q.loadVR+c.slice/2)
	}
	for _, id := range q.queue {
		consider(id, c.th[id].vr, c.th[id].dl)
	}
	if extra >= 0 {
		consider(extra, c.th[extra].vr, c.th[extra].dl)
	}
	if cur != cpuIdle {
		consider(cur, curVR, *curDL)
	}
	if best == cpuIdle {
		return least // rounding left no one at or below V
	}
	return best
}

// reschedule is update_curr's test on CPU k: the running thread's request
// ran out, and it gets a new deadline a slice on (update_deadline), or its
// protection is over; with another thread runnable there, the CPU picks
// again.
func (c *cpuModel) reschedule(k int32) bool {
	id, vr, dl, prot := c.running(k)
	if id == cpuIdle {
		return false
	}
	if vr >= *dl {
		*dl = vr + c.slice
		return true
	}
	return vr >= *prot
}

// saveLag keeps a thread's lag as it leaves CPU k to sleep
// (update_entity_lag, bounded); with negative lag it stays in the queue
// at its vruntime until it is eligible (DELAY_DEQUEUE).
func (c *cpuModel) saveLag(k int32, t *osThread, id int32) {
	t.lag = c.boundedLag(k, t, id)
	t.delayed = t.lag < 0
	t.sleepVR = t.vr
}

// placeEntity sets the vruntime and deadline of a thread waking onto CPU
// k (place_entity): a new thread at V with half a request
// (PLACE_DEADLINE_INITIAL); a thread still delayed in k's queue where it
// was, or at V once V has passed it (its lag gone, DELAY_ZERO); any other
// at V less its lag, the lag inflated so that it survives the thread's
// own weight in the new average (PLACE_LAG), unless the queue is empty.
func (c *cpuModel) placeEntity(k int32, t *osThread, id int32, fresh bool) {
	V, n := c.avgVR(k, id)
	switch {
	case fresh:
		t.vr = V
		t.dl = t.vr + c.slice/2
		return
	case t.delayed && t.cpu == k:
		t.vr = max(t.sleepVR, V)
	case n == 0:
		t.vr = V
	default:
		t.vr = V - t.lag*time.Duration(n+1)/time.Duration(n)
	}
	t.delayed = false
	t.dl = t.vr + c.slice
}

// migrate moves waiting thread id from CPU from to CPU to, keeping its
// lag and how far its deadline is (PLACE_REL_DEADLINE).
func (c *cpuModel) migrate(t *osThread, id, from, to int32) {
	lag := c.boundedLag(from, t, id)
	rel := t.dl - t.vr
	V, _ := c.avgVR(to, id)
	t.vr = V - lag
	t.dl = t.vr + rel
}
