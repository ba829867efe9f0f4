// Package real groups the bridge between the model and the Go runtime of
// this machine:
//
//   - prog: a scenario translated into a real Go program, built with the
//     local toolchain and run under runtime/trace (schedlab real).
//   - rtrace: a runtime trace read into the model's vocabulary
//     (schedlab trace).
//   - recorded: a finished run — a runtime trace or the model's — held as
//     events, with the state after any of them, for the trace view and
//     tui --vs real.
//   - verify: the model's run against real runs, observable by observable
//     (schedlab verify).
//   - bench: a pool against raw goroutines on the real runtime
//     (schedlab bench).
//   - calibrate: this machine's costs measured for the model, written as
//     a cost profile that --costs reads (schedlab calibrate).
//
// What these do depends on the machine: their tests that run real programs
// are in scripts/fidelity.sh, not ./test.sh.
package real
