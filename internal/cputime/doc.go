// Package cputime reads the CPU time the process has used. The benchmarks
// of the model and of the pool report it beside wall time: on a machine
// shared with other work, a run's wall time counts the time it waited for a
// CPU, and its CPU time does not. schedlab real copies it into every traced
// program it generates (prog.Write, Source), whose startTrace reads it
// just before the scenario and whose logCPUTime logs the growth after the
// run's window (rtrace.Summary.CPUTime): a package of its own keeps the
// generated main.go one file that builds everywhere, Windows included.
package cputime
