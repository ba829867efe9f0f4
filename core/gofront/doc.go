// Package gofront reads a small Go program as a scenario: a single-file
// package main written in the concurrency subset a scheduler puzzle uses
// (go statements, loops it can count, loops that never end or wait for
// a flag, prints, channels, time.Sleep,
// runtime.Gosched, golang.org/x/sync's semaphore and errgroup, ants
// pools) becomes the same scenarios.Scenario a YAML file gives, each
// action at the Go line it comes from, so that every command runs it.
//
// How. The program is parsed and type-checked with go/types against
// stub packages declared in this package (stubs.go): only the API the
// front end knows, so a program checks the same on a machine without
// golang.org/x/sync or ants, and anything else is an error at its line.
// Type checking gives every identifier its object, so variables are
// followed by object, shadowing and closures included. The program is
// then run abstractly from main: values it can evaluate (constants,
// loop variables, the channels, semaphores, pools and groups it makes)
// are followed, everything else is unknown with what it depends on.
// Calls of the file's functions are inlined; a go statement's callee
// becomes the new goroutine's program; a loop whose iterations all do
// the same becomes loop:, else its iterations are written out; a
// decision on an unknown value is an error that names what it depends
// on. A busy loop of plain arithmetic costs its iterations at
// DefaultCPURate, a plain statement one iteration.
//
// Why not more. A construct the model has no action for is refused,
// never approximated: each is a row of the table in constructs.go, the
// refusals too, so that when the model gains an action its row turns
// from NotYet to Accepted, as sync.Mutex, sync.WaitGroup and select
// (issue 24), the print action, the loops that do not count and the
// flags of issue 25 did (api.go, stmt.go, print.go, loops.go).
// docs/go-subset.md is that table.
//
// A program schedlab real wrote (its first line is the marker real
// writes) reads back into the scenario it came from: its helpers
// (compute, syscallFor, netRead, uniform, exponential, newPool) are the
// actions they stand for, its WaitGroup is wait: children, its flag_
// atomic.Bools are flags, its until goroutine is until:, and the mark
// of the scenario's end in its trace (trace.Log), the
// os.Stdout.Close() and the log of its CPU time (logCPUTime) that end
// its main are nothing.
package gofront
