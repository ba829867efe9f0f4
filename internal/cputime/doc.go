// Package cputime reads the CPU time the process has used. The benchmarks
// of the model and of the pool report it beside wall time: on a machine
// shared with other work, a run's wall time counts the time it waited for a
// CPU, and its CPU time does not.
package cputime
