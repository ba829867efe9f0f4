package gmp

// poolQueueWords tells the decisions of a pool with a queue
// (pool.WithQueue), which package core/pool/decide makes too.
var poolQueueWords = words{
	RulePoolEnqueue: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "pool %s has no idle worker and no room (%s running): %v puts task %d in its queue (%d queued) and goes on; the next worker to finish will take it",
			d.poolName(e.Pool()), d.capOf(e.Pool(), e.Running()), e.G, e.Task(), e.QueueLen())
	},
	RulePoolTakeQueued: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "worker w%d (%v) of pool %s finishes its task and takes task %d, queued %v ago by %v, instead of parking (%d left in the queue)",
			e.Worker(), e.G, d.poolName(e.Pool()), e.Task(), e.Waited(), e.Owner(), e.QueueLeft())
	},
	RulePoolServeQueued: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "a worker of pool %s is gone and there is room: worker w%d (%v) is started for task %d, queued %v ago",
			d.poolName(e.Pool()), e.Worker(), e.WorkerG(), e.Task(), e.Waited())
	},
	RulePoolRefill: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "the queue of pool %s has drained to half: %v, #%d in line for %v, moves its task into it as task %d (%d queued) and will be woken to return",
			d.poolName(e.Pool()), e.WaiterG(), e.WaiterNo(), e.Waited(), e.Task(), e.InQueue())
	},
}
