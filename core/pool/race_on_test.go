//go:build race

package pool_test

// raceEnabled: the race detector slows each task down about tenfold and makes
// sync.Pool drop items on purpose, so the chaos test runs fewer tasks and the
// allocation tests are skipped.
const raceEnabled = true
