// Package realbench answers "is a pool better than just writing go?" on the
// Go runtime of this machine, where package compare answers it in the
// simulated scheduler. It runs the same tasks four ways:
//
//	raw        a goroutine per task (sync.WaitGroup.Go)
//	pool       package pool, of size Concurrency (Submit, then a WaitGroup)
//	semaphore  semaphore.Weighted(Concurrency): Acquire(1) before go,
//	           Release(1) when the task ends, Acquire(Concurrency) to wait
//	errgroup   errgroup.Group with SetLimit(Concurrency), then Wait
//
// and measures, for each, what the runtime itself can tell.
//
// # What is measured, and how
//
// Wall time runs from the first submit (the pool's New included) to the
// last task's end; releasing the pool and letting goroutines exit come
// after it. A CPU task is a fixed number of iterations of a busy loop,
// calibrated once before the first run (iterations per microsecond over
// about 50ms), so every mode does the same work, however the scheduler
// slices it; a time-based spin would instead stretch or shrink the work
// with the delays the scheduler adds. A sleep task is a time.Sleep.
//
// A sampler goroutine reads, every millisecond, runtime.NumGoroutine() and
// the runtime/metrics gauges /memory/classes/heap/objects:bytes and
// /memory/classes/heap/stacks:bytes (cheap reads, no stop-the-world), and
// keeps the maxima. The submitting goroutine takes one more sample when it
// has submitted everything, which is when raw has the most goroutines, and
// the first task to finish one in its own goroutine, so that a run shorter
// than the sampler's millisecond still counts a task's goroutine. Peak
// goroutines leave out the goroutines alive just before the run (the
// harness: the caller's, and the sampler), which the report states.
//
// Around each run the counters /gc/heap/allocs:bytes,
// /gc/heap/allocs:objects and /gc/cycles/total:gc-cycles are read, and the
// differences reported. The runtime counts small allocations a span at a
// time, when the span leaves a P's cache, so the harness flushes the caches
// (runtime.ReadMemStats, a brief stop-the-world, outside the timed part)
// before each of the two reads; the heap gauge has no such flush and may
// lag by the partly used spans in the caches, a few KiB per size class and
// P. The scheduling latency comes from the runtime's
// own histogram, /sched/latencies:seconds (the time goroutines spend
// runnable before they run): the difference of its bucket counts after and
// before the run gives p50 and p99. The runtime samples about one
// transition in eight into it, and it is process-wide, so it includes the
// sampler's wake-ups; each percentile is the upper bound of its bucket,
// whose width is a quarter of a power of two (at most 25% of its value).
//
// Before each run the harness waits for the previous run's goroutines to
// exit and calls runtime.GC(), so every run starts from a similar heap. The
// runs are interleaved (run 1 of every mode, then run 2 …) so that a drift
// of the machine (frequency, other load) spreads over the modes, and each
// figure of a mode is the median of its runs.
//
// Every task must run exactly once: each task counts itself in its own
// slot, and a run in which any task ran zero or two times is an error, not
// a result.
//
// # What is left out
//
// The harness measures one process from the inside: it sees neither the
// OS threads' CPU time nor cache effects by themselves, and the sampler
// may miss a peak that lasts less than a millisecond. The goroutine count
// can also read high, rarely: runtime.NumGoroutine is not a consistent
// snapshot while dead goroutines move between free lists, and a reading
// is the smaller of two to make that rare (gauge.read). A run under the race detector is limited
// to 8128 live goroutines, which raw mode exceeds with large --tasks.
package bench
