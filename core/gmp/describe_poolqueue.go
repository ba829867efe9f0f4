package gmp

// poolQueueWords tells the decisions of a pool with a queue
// (pool.WithQueue), which package core/pool/decide makes too.
var poolQueueWords = words{
	RulePoolEnqueue: func(d *Describer, b []byte, e Event) []byte {
		name := d.poolName(int(e.Obj))
		return appendf(b, "pool %s has no idle worker and no room (%s running): %v puts task %d in its queue (%d queued) and goes on; the next worker to finish will take it", name, d.capOf(int(e.Obj), e.N3), e.G, e.N2, e.N)
	},
	RulePoolTakeQueued: func(d *Describer, b []byte, e Event) []byte {
		name := d.poolName(int(e.Obj))
		return appendf(b, "worker w%d (%v) of pool %s finishes its task and takes task %d, queued %v ago by %v, instead of parking (%d left in the queue)", e.N, e.G, name, e.N2, e.D, e.G2, e.N3)
	},
	RulePoolServeQueued: func(d *Describer, b []byte, e Event) []byte {
		name := d.poolName(int(e.Obj))
		return appendf(b, "a worker of pool %s is gone and there is room: worker w%d (%v) is started for task %d, queued %v ago", name, e.N, e.G2, e.N2, e.D)
	},
	RulePoolRefill: func(d *Describer, b []byte, e Event) []byte {
		name := d.poolName(int(e.Obj))
		return appendf(b, "the queue of pool %s has drained to half: %v, #%d in line for %v, moves its task into it as task %d (%d queued) and will be woken to return", name, e.G2, e.N, e.D, e.N2, e.N3)
	},
}
