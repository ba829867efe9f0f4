package pool

import "embed"

// Source is this package's code without its tests. schedlab real builds it
// into the programs it generates from scenarios, so that a real run submits
// to the very pool whose rules the model follows. A test checks that every
// file of the package is listed.
//
//go:embed decide/decide.go chain.go clock.go core.go doc.go errors.go hooks.go idle.go lock.go multipool.go options.go pool.go pool_func.go purge.go release.go snapshot.go stats.go taskqueue.go waiter.go worker.go worker_loop_queue.go worker_stack.go
var Source embed.FS
