// Package scenarios reads scenario files: small YAML files that set up a
// situation for the scheduler simulation (goroutines, syscalls, channels,
// timers). The built-in scenarios are embedded in the binary.
package scenarios

import (
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/teach/quiz"
)

// Scenario is a parsed scenario file.
type Scenario struct {
	Name    string
	Title   string
	Summary string
	// File is where the scenario came from: a path, or "builtin/NAME.yaml".
	File  string
	Procs int
	Seed  uint64
	// Until, if not zero, stops the run at this simulated time.
	Until time.Duration
	// Expect is how the run is meant to end: gmp.Deadlock or gmp.Panicked
	// for a scenario that shows a mistake, else gmp.Running, meaning
	// "normally" (main returns, or Until is reached).
	Expect gmp.EndReason
	Chans  []gmp.ChanDecl
	Pools  []gmp.PoolDecl
	Sems   []gmp.SemDecl
	// Mutexes are the sync.Mutexes (mutexes:) and RWMutexes (rwmutexes:),
	// WaitGroups the sync.WaitGroups (waitgroups:).
	Mutexes    []gmp.MutexDecl
	WaitGroups []gmp.WaitGroupDecl
	// Objects are those of the kinds gmp registers (conds:, …).
	Objects []gmp.ObjDecl
	Main    []gmp.Op
	Notes   []Note
	// Asks are the questions asked as the run goes (package quiz).
	Asks []quiz.Ask
	// Marks are the moments a presenter jumps to by name (marks:).
	Marks []Mark
	// refs are the Ps and goroutines the asks name, for Validate.
	refs []askRef
	// MaxEvents, if not zero, replaces gmp.DefaultMaxEvents.
	MaxEvents int
	// Policy is the what-if scheduler the file asks for (policy:).
	Policy gmp.Policy
	// Noise makes thread wake-ups late by seeded amounts (noise: true).
	Noise bool
	// WarmStart starts the run as the runtime is when main.main starts
	// (start: warm; gmp.Config.WarmStart).
	WarmStart bool
	// Flags are the shared flags set: and until: name, in order of
	// first use.
	Flags []string
	// CPUs and Load put the Ms on CPUs scheduled by a model of Linux's
	// EEVDF, beside Load busy threads of other programs (cpus:, load:;
	// gmp.Config). 0 and 0: every M that can run runs.
	CPUs, Load int
	// Source is the file's text.
	Source []byte
}

// Note is a caption a teacher attaches to a moment of the run.
type Note struct {
	// Moment is the event the note belongs to: the first at or after a
	// time, or the Nth of a kind (of a goroutine, on a P).
	Moment gmp.Moment
	Text   string
	Pos    gmp.Pos
}

// Mark is a moment of the run a presenter names, to jump to it.
type Mark struct {
	Name   string
	Moment gmp.Moment
	Pos    gmp.Pos
}

// Program returns the program the simulation runs.
func (s *Scenario) Program() *gmp.Program {
	return &gmp.Program{Name: s.Name, Chans: s.Chans, Pools: s.Pools, Sems: s.Sems,
		Mutexes: s.Mutexes, WaitGroups: s.WaitGroups, Flags: s.Flags, Objects: s.Objects, Main: s.Main}
}

// Config returns a simulation configuration for the scenario, with the
// default costs. Callers override fields (seed, procs, until) from flags.
func (s *Scenario) Config() gmp.Config {
	return gmp.Config{Procs: s.Procs, Seed: s.Seed, Until: s.Until, MaxEvents: s.MaxEvents, Policy: s.Policy, Noise: s.Noise, WarmStart: s.WarmStart,
		CPUs: s.CPUs, Load: s.Load}
}

// AsExpected reports whether a run that ended with end ended the way the
// scenario means it to: normally, or with the failure it declares.
func (s *Scenario) AsExpected(end gmp.End) bool {
	if s.Expect == gmp.Running {
		return end.Err == nil
	}
	return end.Reason == s.Expect
}
