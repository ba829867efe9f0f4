// Package core groups the model and what it models, with no terminal and no
// real program in sight:
//
//   - sim: the discrete-event clock and agenda the model runs on.
//   - gmp: the Go 1.26 G/M/P scheduler, rule by rule after runtime/proc.go;
//     pure and single-threaded.
//   - scenarios: the YAML language a teacher writes, parsed into a
//     gmp.Program, and the built-in scenarios.
//   - gofront: a small Go program read as a scenario, for the puzzles a
//     class meets as main.go.
//   - pool: a real goroutine pool in the manner of ants; core/pool/decide is the
//     pure decision the pool and the model share.
//   - lockstep: drives real pools beside a simulated run, decision by
//     decision, to prove that the model's pool is the real one.
//   - compare: runs one workload several ways (raw goroutines, a pool, a
//     semaphore, an errgroup) in the model and measures each.
//   - taskmode: the names of those ways, shared with real/bench.
//
// The views (view/), the teaching (teach/) and the bridge to the real
// runtime (real/) are built on these.
package core
