package gmp

// mutexWords tells of sync.Mutex (internal/sync/mutex.go over
// runtime/sema.go), sync.RWMutex and sync.WaitGroup.
var mutexWords = words{
	RuleMutexLock: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v locks %s on the fast path: one CAS, as it was free and nobody waited", e.G, d.lockPlace(e.Mutex()))
	},
	RuleMutexSpin: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "%v finds %s held by %v and spins, round %d of at most 4 (another P runs, %v's run queue is empty)", e.G, d.lockPlace(e.Mutex()), e.Holder(), e.Spin(), e.P)
		if e.SetsWoken() {
			b = append(b, "; it sets mutexWoken, so Unlock will wake nobody while it is about to take the lock"...)
		}
		return b
	},
	RuleMutexAcquire: func(d *Describer, b []byte, e *Event) []byte {
		lock := d.lockPlace(e.Mutex())
		switch {
		case e.Woke():
			return appendf(b, "%v, back from the queue after %v, finds %s free and takes it", e.G, e.Waited(), lock)
		case e.Spun() > 0:
			return appendf(b, "%v takes %s after spinning %s: the holder let go meanwhile", e.G, lock, plural(e.Spun(), "round", "rounds"))
		}
		return appendf(b, "%v finds %s free, though others wait or are woken for it, and takes it: one already running gets there first", e.G, lock)
	},
	RuleMutexQueue: func(d *Describer, b []byte, e *Event) []byte {
		lock := d.lockPlace(e.Mutex())
		if e.Lifo() {
			return appendf(b, "%v, woken after %v, loses %s to %s: back to the front of the queue (semacquire with lifo; %d waiting)", e.G, e.Waited(), lock, holder(e.Holder()), e.Waiters())
		}
		return appendf(b, "%v finds %s held by %s: it counts itself a waiter and parks on the semaphore, #%d in line (%d waiting)", e.G, lock, holder(e.Holder()), e.Position(), e.Waiters())
	},
	RuleMutexStarve: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v has waited %v, over 1ms, and lost %s again to %v: the mutex enters starvation mode, where Unlock hands it to the first waiter and newcomers queue at the tail", e.G, e.Waited(), d.lockPlace(e.Mutex()), e.Holder())
	},
	RuleMutexHandedOff: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "%v runs and owns %s, handed to it in starvation mode after waiting %v", e.G, d.lockPlace(e.Mutex()), e.Waited())
		switch {
		case !e.EndsStarvation():
			return appendf(b, "; starvation mode goes on (%d waiting)", e.Waiters())
		case e.Waited() <= starvationThreshold:
			return append(b, "; it waited under 1ms, so the mutex goes back to normal mode"...)
		}
		return append(b, "; nobody waits behind it, so the mutex goes back to normal mode"...)
	},
	RuleMutexUnlock: func(d *Describer, b []byte, e *Event) []byte {
		b = appendf(b, "%v unlocks %s", e.G, d.lockPlace(e.Mutex()))
		if e.WokenPending() {
			return appendf(b, ": a woken or spinning goroutine is on its way to it, so it wakes nobody (%d waiting)", e.Waiters())
		}
		return append(b, ": nobody waits"...)
	},
	RuleMutexWake: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v unlocks %s and wakes its first waiter, which must still win it against goroutines arriving running (normal mode; %d left queued)", e.G, d.lockPlace(e.Mutex()), e.Waiters())
	},
	RuleMutexHandoff: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v unlocks %s in starvation mode: it hands it straight to the first waiter and will yield its P to it (%d waiting, that one included)", e.G, d.lockPlace(e.Mutex()), e.Waiters())
	},
	RuleReadyMutex: func(d *Describer, b []byte, e *Event) []byte {
		if e.Handoff() {
			return appendf(b, "%v hands %s to %v, which waited %v: %v goes %s%s", e.Waker(), d.lockPlace(e.Mutex()), e.G, e.Waited(), e.G, d.into(e), kicked(e))
		}
		return appendf(b, "%v wakes %v, which waited %v for %s: %v goes %s%s, to compete for it", e.Waker(), e.G, e.Waited(), d.lockPlace(e.Mutex()), e.G, d.into(e), kicked(e))
	},
	RuleGoyield: func(d *Describer, b []byte, e *Event) []byte {
		if e.To.Kind == LocGlobal {
			return appendf(b, "%v yields its P after the handoff (goyield): it goes to the tail of the global queue (what-if global-fifo)", e.G)
		}
		return appendf(b, "%v yields %v after the handoff (goyield): it goes to the tail of the ring, and the waiter in runnext runs at once", e.G, e.P)
	},

	RuleRWRLock: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v read-locks rwmutex %s: no writer holds or waits for it (%s in)", e.G, d.mutexName(e.Mutex()), plural(e.Readers(), "reader", "readers"))
	},
	RuleRWRLockWait: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v wants to read rwmutex %s, but %s holds it or waits for it, so new readers wait: it parks on readerSem (#%d)", e.G, d.mutexName(e.Mutex()), writer(e.Holder()), e.Position())
	},
	RuleRWRUnlock: func(d *Describer, b []byte, e *Event) []byte {
		if e.WakesWriter() {
			return appendf(b, "%v read-unlocks rwmutex %s, the last reader its writer waited for: it wakes the writer", e.G, d.mutexName(e.Mutex()))
		}
		return appendf(b, "%v read-unlocks rwmutex %s (%s still in)", e.G, d.mutexName(e.Mutex()), plural(e.Readers(), "reader", "readers"))
	},
	RuleRWLock: func(d *Describer, b []byte, e *Event) []byte {
		if e.Waits() {
			return appendf(b, "%v holds the writer lock of rwmutex %s and shuts new readers out; %s inside, so it waits for them to leave (writerSem)", e.G, d.mutexName(e.Mutex()), plural(e.Readers(), "reader is", "readers are"))
		}
		return appendf(b, "%v write-locks rwmutex %s: no reader is inside", e.G, d.mutexName(e.Mutex()))
	},
	RuleRWUnlock: func(d *Describer, b []byte, e *Event) []byte {
		if e.Readers() == 0 {
			return appendf(b, "%v write-unlocks rwmutex %s: no reader queued behind it, so it unlocks the writer lock", e.G, d.mutexName(e.Mutex()))
		}
		return appendf(b, "%v write-unlocks rwmutex %s: it lets in the %s that queued behind it, then unlocks the writer lock", e.G, d.mutexName(e.Mutex()), plural(e.Readers(), "reader", "readers"))
	},
	RuleReadyRWReader: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's Unlock lets reader %v into rwmutex %s: %v goes %s%s", e.Waker(), e.G, d.mutexName(e.Mutex()), e.G, d.into(e), kicked(e))
	},
	RuleReadyRWWriter: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v, the last reader out of rwmutex %s, wakes writer %v: %v goes %s%s", e.Waker(), d.mutexName(e.Mutex()), e.G, e.G, d.into(e), kicked(e))
	},

	RuleWGAdd: func(d *Describer, b []byte, e *Event) []byte {
		name := d.wgName(e.Wg())
		switch {
		case e.Op != nil && e.Op.Kind == OpDone:
			b = appendf(b, "%v calls Done on wait group %s: the counter goes to %d", e.G, name, e.Counter())
		case e.Op != nil && e.Op.Kind == OpGo:
			b = appendf(b, "%v calls wg.Go on wait group %s: Add(1) makes the counter %d, then a go statement", e.G, name, e.Counter())
		default:
			b = appendf(b, "%v adds %d to wait group %s: the counter goes to %d", e.G, e.Delta(), name, e.Counter())
		}
		if n := e.Released(); n > 0 {
			b = appendf(b, "; at zero it releases %s", plural(n, "waiter", "waiters"))
		}
		return b
	},
	RuleWGWait: func(d *Describer, b []byte, e *Event) []byte {
		if e.Parks() {
			return appendf(b, "%v waits on wait group %s with the counter at %d: it counts itself a waiter and parks (%d waiting)", e.G, d.wgName(e.Wg()), e.Counter(), e.Waiters())
		}
		return appendf(b, "%v waits on wait group %s: the counter is zero, so Wait returns at once", e.G, d.wgName(e.Wg()))
	},
	RuleReadyWG: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v brings wait group %s to zero: %v returns from Wait and goes %s%s", e.Waker(), d.wgName(e.Wg()), e.G, d.into(e), kicked(e))
	},
}

// lockPlace names the lock a mutex event is about: a mutex, or an
// RWMutex's writer lock.
func (d *Describer) lockPlace(i int) placePhrase { return d.place(Loc{Kind: LocMutex, ID: int32(i)}) }

func (d *Describer) mutexName(i int) namePhrase {
	if i >= 0 && i < len(d.mutexes) {
		return namePhrase{name: d.mutexes[i].Name, quote: d.quote}
	}
	return namePhrase{prefix: "#", i: i}
}

func (d *Describer) isRW(i int) bool { return i >= 0 && i < len(d.mutexes) && d.mutexes[i].RW }

func (d *Describer) wgName(i int) namePhrase {
	if i >= 0 && i < len(d.wgs) {
		return namePhrase{name: d.wgs[i], quote: d.quote}
	}
	return namePhrase{prefix: "#", i: i}
}

// holder names who holds a mutex a goroutine queues on: nobody, in
// starvation mode, while it is handed to a waiter that has not run.
func holder(g GID) holderPhrase { return holderPhrase{g, "a waiter it was handed to"} }

// writer names the writer a reader waits behind.
func writer(g GID) holderPhrase { return holderPhrase{g, "a writer"} }

type holderPhrase struct {
	g    GID
	none string
}

func (h holderPhrase) appendTo(b []byte) []byte {
	if h.g == NoG {
		return append(b, h.none...)
	}
	return AppendG(b, h.g)
}
