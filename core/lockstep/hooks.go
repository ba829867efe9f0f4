package lockstep

import (
	"fmt"
	"sync"
	"time"

	"github.com/schedlab/schedlab/core/pool"
)

// hookKind names the pool hooks the driver follows.
type hookKind uint8

const (
	hookSubmit hookKind = iota + 1
	hookDispatch
	hookBlock
	hookReject
	hookIdle
	hookExit
	hookPurge
	hookQueued
)

var hookNames = [...]string{"", "submit", "dispatch", "block", "reject", "idle", "exit", "purge", "queue"}

func (k hookKind) String() string { return hookNames[k] }

// hookRecord is one hook call, with what the driver needs of it.
type hookRecord struct {
	kind     hookKind
	task     uint64
	worker   pool.WorkerID
	dispatch pool.DispatchKind
	waiter   uint64
	reason   pool.ExitReason
	workers  []pool.WorkerID
	err      error
}

func (h hookRecord) String() string {
	return fmt.Sprintf("%v(task %d, w%d, %v, waiter %d)", h.kind, h.task, h.worker, h.dispatch, h.waiter)
}

// hookQueue receives a pool's hook calls, from whichever goroutine makes
// them, in the order the pool makes its decisions.
type hookQueue struct {
	mu      sync.Mutex
	records []hookRecord
	arrived chan struct{} // signalled, without blocking, on each push
}

func (q *hookQueue) init() { q.arrived = make(chan struct{}, 1) }

func (q *hookQueue) push(h hookRecord) {
	q.mu.Lock()
	q.records = append(q.records, h)
	q.mu.Unlock()
	select {
	case q.arrived <- struct{}{}:
	default:
	}
}

// hooks returns the pool.Hooks that feed q. OnWorkerStart and OnUnblock
// are left out: they always come with a dispatch, which says the same.
func (q *hookQueue) hooks() pool.Hooks {
	return pool.Hooks{
		OnSubmit: func(e pool.SubmitEvent) { q.push(hookRecord{kind: hookSubmit, task: e.Task, waiter: e.Waiter}) },
		OnDispatch: func(e pool.DispatchEvent) {
			q.push(hookRecord{kind: hookDispatch, task: e.Task, worker: e.Worker, dispatch: e.Kind, waiter: e.Waiter})
		},
		OnBlock:      func(e pool.WaiterEvent) { q.push(hookRecord{kind: hookBlock, waiter: e.Waiter}) },
		OnQueue:      func(e pool.QueueEvent) { q.push(hookRecord{kind: hookQueued, task: e.Task, waiter: e.Waiter}) },
		OnReject:     func(e pool.RejectEvent) { q.push(hookRecord{kind: hookReject, err: e.Err, waiter: e.Waiter}) },
		OnWorkerIdle: func(e pool.WorkerEvent) { q.push(hookRecord{kind: hookIdle, worker: e.Worker}) },
		OnWorkerExit: func(e pool.WorkerExitEvent) {
			q.push(hookRecord{kind: hookExit, worker: e.Worker, reason: e.Reason})
		},
		OnPurge: func(e pool.PurgeEvent) {
			q.push(hookRecord{kind: hookPurge, workers: append([]pool.WorkerID(nil), e.Workers...)})
		},
	}
}

// next returns the next hook call, which must be of kind want, waiting
// for it if the pool has yet to make it.
func (q *hookQueue) next(want hookKind) (hookRecord, error) {
	deadline := time.NewTimer(hookTimeout)
	defer deadline.Stop()
	for {
		q.mu.Lock()
		if len(q.records) > 0 {
			h := q.records[0]
			q.records = q.records[1:]
			q.mu.Unlock()
			if h.kind != want {
				return h, fmt.Errorf("the model expects the real pool's %v hook next, but it called %v", want, h)
			}
			return h, nil
		}
		q.mu.Unlock()
		select {
		case <-q.arrived:
		case <-deadline.C:
			return hookRecord{}, fmt.Errorf("the real pool made no %v decision in %v", want, hookTimeout)
		}
	}
}
