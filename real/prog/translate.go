// Package realprog turns a scenario into a real Go program that does what
// the scenario describes, builds it with the local toolchain and runs it
// under runtime/trace, so that the model's run and the runtime's can be
// held side by side (schedlab real; schedlab trace reads the trace back).
//
// The translation, action by action:
//
//	cpu: D           a busy loop calibrated at start-up to last D; plain
//	                 user code, so the runtime may preempt it anywhere
//	syscall: D       syscall.Nanosleep for D: a real blocking system call.
//	                 A program cannot choose entersyscallblock (the
//	                 runtime uses it for its own calls), so block: true
//	                 is translated the same and the comment says so
//	sleep: D         time.Sleep(D)
//	net: D           a read from a timerfd that fires after D: the
//	                 goroutine parks in the network poller as a socket
//	                 read does, and no helper goroutine writes to it
//	gosched          runtime.Gosched()
//	go               go statements, counted by the creator's WaitGroup
//	loop             a for loop
//	send/recv/close  on channels declared with the scenario's capacity
//	wait: children   the goroutine's WaitGroup.Wait(): its go statements
//	                 and the tasks it submitted
//	exit             runtime.Goexit()
//	submit           Submit to a pool of package pool (the same code the
//	                 model's pool follows), built into the program
//	acquire/release  golang.org/x/sync/semaphore
//	group            golang.org/x/sync/errgroup with SetLimit
//	lock/unlock      Lock and Unlock of a sync.Mutex, or of a sync.RWMutex
//	rlock/runlock    RLock and RUnlock of a sync.RWMutex
//	add/done         Add and Done of a sync.WaitGroup
//	wait: WG         its Wait
//	go with wg:      its Go (Go 1.25), the goroutine also counted for
//	                 wait: children
//	select           a select statement: case <-ch, case ch <- struct{}{},
//	                 case <-time.After(D), default, each with its body;
//	                 select: {} is select {}
//	print: TEXT      fmt.Println of the text, written as a quoted literal:
//	                 the program's standard output is its output, which
//	                 schedlab real and verify read
//	set: FLAG        FLAG.Store(true) on an atomic.Bool
//	loop until/for   for !FLAG.Load() { … } and for { … }: atomic.Bool's
//	                 Load is a plain load, so a loop with an empty body
//	                 calls no function and has no preemption check, as
//	                 in the model
//	an object's verb the Go statement its kind registers in gmp
//	                 (gmp.ObjKinds): cwait: C is C.Wait() of a
//	                 sync.NewCond(&MU), signal and broadcast its Signal
//	                 and Broadcast
//
// A traced program's main logs a mark in its trace as it returns from the
// scenario (rtrace.EndMarkCategory), where the run's window ends: it then
// stops the trace, which stops the world while the goroutines it leaves
// behind still run, and that is not the scenario's.
//
// A scenario that ends in a deadlock or a panic by design (expect:) is
// written untraced: the runtime does not detect a deadlock while it
// traces, and a panic ends the program before its trace is written. Its
// run is judged by its exit status and Go's fatal message instead.
//
// Durations drawn from distributions use math/rand/v2 seeded with the
// run's seed; the real program's timing is its own.
package prog

import (
	"fmt"
	"go/format"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/rtrace"
)

// Program is a translated scenario: its source and what it needs to build.
type Program struct {
	// Main is main.go, formatted.
	Main []byte
	// Procs is the GOMAXPROCS the program sets.
	Procs int
	// Needs lists the modules the program imports besides the standard
	// library and the built-in copy of package pool.
	Needs []string
	// UsesPool says whether the program imports package pool.
	UsesPool bool
	// Untraced says the program writes no trace: its scenario ends in a
	// deadlock or a panic by design (Expect), which Go's exit status
	// and fatal message show instead.
	Untraced bool
	// Expect is how the scenario means its run to end.
	Expect gmp.EndReason
	// Calibrates says main times the cpu loop before the scenario starts
	// (20ms of computing, cpuwork's calibrateWith), which leaves sysmon's
	// sleep backed off (gmp.Config.SysmonPrelude).
	Calibrates bool
	// Until is the traced program's until: a goroutine sleeps that long
	// from the scenario's start, then stops the trace and exits, once it
	// gets a P (0: none).
	Until time.Duration
}

// Traced reports whether the program Translate writes for sc records a
// runtime trace: every one but a scenario that ends in a deadlock or a
// panic by design.
func Traced(sc *scenarios.Scenario) bool { return sc.Expect == gmp.Running }

// Translate returns the program that runs sc as cfg says (procs, seed and
// until; the model-only settings, policy and noise, have no counterpart).
func Translate(sc *scenarios.Scenario, cfg gmp.Config) (*Program, error) {
	untraced := !Traced(sc)
	t := &translator{sc: sc, imports: map[string]bool{"runtime": true}}
	if !untraced {
		t.imports["os"], t.imports["runtime/trace"], t.imports["sync"] = true, true, true
		// startTrace reads the process's CPU time (package cputime),
		// which logCPUTime logs after the window with runtime/trace's
		// Logf.
		t.imports["context"], t.imports["time"] = true, true
	}
	t.flags = identifiers("flag_", sc.Flags, func(f string) string { return f })
	if len(sc.Flags) > 0 {
		t.imports["sync/atomic"] = true
	}
	t.chans = identifiers("ch_", sc.Chans, func(c gmp.ChanDecl) string { return c.Name })
	t.sems = identifiers("sem_", sc.Sems, func(s gmp.SemDecl) string { return s.Name })
	t.pools = identifiers("pool_", sc.Pools, func(p gmp.PoolDecl) string { return p.Name })
	t.mutexes = identifiers("mu_", sc.Mutexes, func(m gmp.MutexDecl) string { return m.Name })
	t.wgs = identifiers("wg_", sc.WaitGroups, func(w gmp.WaitGroupDecl) string { return w.Name })
	// Objects of the kinds gmp registers: cond_ready, each kind's
	// package imported (its GoType is package.Type).
	t.objs = identifiers("", sc.Objects, func(o gmp.ObjDecl) string { return gmp.ObjKinds()[o.Kind].Noun + "_" + o.Name })
	for _, o := range sc.Objects {
		pkg, _, _ := strings.Cut(gmp.ObjKinds()[o.Kind].GoType, ".")
		t.imports[pkg] = true
	}
	if len(sc.Sems) > 0 {
		t.imports["golang.org/x/sync/semaphore"] = true
	}
	if len(sc.Mutexes)+len(sc.WaitGroups) > 0 {
		// Declared at package level even in an untraced program, which
		// imports sync for nothing else.
		t.imports["sync"] = true
	}
	t.usesPool = len(sc.Pools) > 0

	// The parts that decide the imports come first.
	var scenario, mainFunc strings.Builder
	t.b = &scenario
	t.line("// scenario is the main goroutine's part (G1 in the model).")
	t.line("func scenario() {")
	t.goroutine(sc.Main, 1)
	t.line("}")
	t.line("")

	t.b = &mainFunc
	t.line("func main() {")
	t.line("\truntime.GOMAXPROCS(%d)", cfg.Procs)
	if t.usesCPU {
		t.line("\tcalibrate()")
	}
	for i, p := range sc.Pools {
		t.line("\t%s = newPool(%d%s)", t.pools[i], p.Size, t.poolOptions(p))
	}
	switch {
	case untraced && cfg.Until > 0:
		t.imports["os"] = true
		t.line("\t// The scenario ends with %s by design: no trace, whose writer would", sc.Expect)
		t.line("\t// hide a deadlock from the runtime. until: stops the run at %v.", cfg.Until)
		t.line("\tgo func() {")
		t.line("\t\ttime.Sleep(%s)", t.goDur(cfg.Until))
		t.line("\t\tos.Exit(0)")
		t.line("\t}()")
		t.line("\tscenario()")
	case untraced:
		t.line("\t// The scenario ends with %s by design: no trace, whose writer would", sc.Expect)
		t.line("\t// hide a deadlock from the runtime; Go's exit status and message say.")
		t.line("\tscenario()")
	case cfg.Until > 0:
		// A goroutine started before the trace, so that it is not
		// numbered as one of the scenario's.
		t.line("\t// until: the scenario's run stops at %v. The goroutine that stops it", cfg.Until)
		t.line("\t// starts before the trace, which then counts it among the runtime's.")
		t.line("\tuntil := make(chan func())")
		t.line("\tgo func() {")
		t.line("\t\tstop := <-until")
		t.line("\t\ttime.Sleep(%s)", t.goDur(cfg.Until))
		t.closeStdout("\t\t", "the run stops here")
		t.line("\t\tstop()")
		t.line("\t\tos.Exit(0)")
		t.line("\t}()")
		t.line("\tstop := startTrace()")
		t.line("\tuntil <- stop")
		t.line("\tdefer stop()")
		t.line("\tscenario()")
		t.scenarioReturned()
	default:
		t.line("\tstop := startTrace()")
		t.line("\tdefer stop()")
		t.line("\tscenario()")
		t.scenarioReturned()
	}
	t.line("}")
	t.line("")

	var b strings.Builder
	t.b = &b
	// No text of the scenario's is written into a comment: a line break
	// in it would end the comment and make the rest code. The file, name
	// and title are string literals below, quoted.
	t.line("// Code generated by schedlab real; DO NOT EDIT.")
	t.line("")
	t.line("// This command runs a scenario for real: the one scenarioFile below")
	if untraced {
		t.line("// names. Run it as go run .: it writes no trace, and ends as the")
		t.line("// scenario expects with Go's exit status and message.")
	} else {
		t.line("// names. Run it as go run . TRACEFILE, then read the trace with")
		t.line("// schedlab trace TRACEFILE.")
	}
	t.line("package main")
	t.line("")
	t.line("import (")
	for _, imp := range sortedKeys(t.imports) {
		if !strings.Contains(imp, ".") {
			t.line("\t%q", imp)
		}
	}
	t.line("")
	for _, imp := range sortedKeys(t.imports) {
		if strings.Contains(imp, ".") {
			t.line("\t%q", imp)
		}
	}
	// The module's own packages, which Write copies in.
	if !untraced {
		t.line("\t%q", ModulePath+"/cputime")
	}
	if t.usesPool {
		t.line("\t%q", ModulePath+"/pool")
	}
	t.line(")")
	t.line("")
	t.line("// The scenario this program runs.")
	t.line("const (")
	t.line("\tscenarioFile  = %s", strconv.Quote(sc.File))
	t.line("\tscenarioName  = %s", strconv.Quote(sc.Name))
	t.line("\tscenarioTitle = %s", strconv.Quote(sc.Title))
	t.line(")")
	t.line("")
	if len(sc.Chans)+len(sc.Sems)+len(sc.Pools)+len(sc.Mutexes)+len(sc.WaitGroups)+len(sc.Flags)+len(sc.Objects) > 0 || t.random {
		t.line("var (")
		if t.random {
			t.line("\trng   = rand.New(rand.NewPCG(%d, 0)) // the run's seed", cfg.Seed)
			t.line("\trngMu sync.Mutex")
		}
		for i, c := range sc.Chans {
			t.line("\t%s = make(chan struct{}, %d) // line %d", t.chans[i], c.Cap, c.Pos.Line)
		}
		for i, s := range sc.Sems {
			t.line("\t%s = semaphore.NewWeighted(%d) // line %d", t.sems[i], s.Size, s.Pos.Line)
		}
		for i, p := range sc.Pools {
			t.line("\t%s *pool.Pool // line %d", t.pools[i], p.Pos.Line)
		}
		for i, m := range sc.Mutexes {
			typ := "sync.Mutex"
			if m.RW {
				typ = "sync.RWMutex"
			}
			t.line("\t%s %s // line %d", t.mutexes[i], typ, m.Pos.Line)
		}
		for i, w := range sc.WaitGroups {
			t.line("\t%s sync.WaitGroup // line %d", t.wgs[i], w.Pos.Line)
		}
		for _, f := range t.flags {
			t.line("\t%s atomic.Bool // a flag: set: stores true, loop until: reads it", f)
		}
		for i, o := range sc.Objects {
			k := gmp.ObjKinds()[o.Kind]
			if k.GoNew == "" {
				t.line("\t%s %s // line %d", t.objs[i], k.GoType, o.Pos.Line)
				continue
			}
			// Its Ref is a mutex (the one kind of Ref the parser reads).
			t.line("\t%s = %s // line %d", t.objs[i], fmt.Sprintf(k.GoNew, t.mutexes[o.Ref]), o.Pos.Line)
		}
		t.line(")")
		t.line("")
	}
	b.WriteString(mainFunc.String())
	b.WriteString(scenario.String())
	if !untraced {
		b.WriteString(helperStart + "\n")
	}
	if t.usesCPU {
		b.WriteString(helperCPU + "\n")
	}
	if t.usesSyscall {
		b.WriteString(helperSyscall + "\n")
	}
	if t.usesNet {
		b.WriteString(helperNet + "\n")
	}
	if t.random {
		b.WriteString(helperRandom + "\n")
	}
	if t.usesPool {
		b.WriteString(helperPool + "\n")
	}
	if t.err != nil {
		return nil, t.err
	}
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return nil, fmt.Errorf("translating %s: the generated program does not parse (%v); please report this with the scenario", sc.File, err)
	}
	prog := &Program{Main: src, Procs: cfg.Procs, UsesPool: t.usesPool, Untraced: untraced, Expect: sc.Expect, Calibrates: t.usesCPU}
	if !untraced {
		prog.Until = cfg.Until
	}
	for _, imp := range sortedKeys(t.imports) {
		if mod, ok := moduleOf(imp); ok && !slices.Contains(prog.Needs, mod) {
			prog.Needs = append(prog.Needs, mod)
		}
	}
	return prog, nil
}

type translator struct {
	sc      *scenarios.Scenario
	b       *strings.Builder
	n       int // fresh names
	imports map[string]bool

	// The Go identifiers of the declared channels, semaphores, pools,
	// mutexes, wait groups and flags, by index (identifiers).
	chans, sems, pools, mutexes, wgs, flags []string
	// objs are the objects of registered kinds' (cond_ready).
	objs []string

	usesCPU, usesSyscall, usesNet, usesPool, usesPrint, random bool
	err                                                        error // the first action it could not translate
}

// scenarioReturned writes what a traced program's main does once the
// scenario returns: the end mark, the close of standard output if it
// prints, and the log of the process's CPU time over the window.
func (t *translator) scenarioReturned() {
	t.endMark()
	t.closeStdout("\t", "main returned")
	t.line("\t// The process's CPU time in the window, logged after it.")
	t.line("\tlogCPUTime()")
}

// endMark writes main's mark of the scenario's end in its trace
// (rtrace.EndMarkCategory): the run's window closes there, and not at
// the end of the trace, which runtime/trace.Stop reaches after stopping
// the world, and the goroutines still running with it.
func (t *translator) endMark() {
	t.imports["context"] = true
	t.line("\t// main returned from the scenario: the run's window ends here.")
	t.line("\ttrace.Log(context.Background(), %q, %q)", rtrace.EndMarkCategory, rtrace.EndMarkMessage)
}

// closeStdout writes, for a program that prints, the close of its
// standard output where the scenario's run ends: a traced program goes on
// while the trace stops, and the goroutines it lets run must not print
// what the scenario's program, which exits there, never would.
func (t *translator) closeStdout(ind, why string) {
	if !t.usesPrint {
		return
	}
	t.line("%s// %s: what goroutines print while the trace stops is not the", ind, why)
	t.line("%s// scenario's output (an untraced program would have exited).", ind)
	t.line("%sos.Stdout.Close()", ind)
}

func (t *translator) line(format string, args ...any) {
	fmt.Fprintf(t.b, format, args...)
	t.b.WriteByte('\n')
}

func (t *translator) fresh(prefix string) string {
	t.n++
	return fmt.Sprintf("%s%d", prefix, t.n)
}

// goroutine writes a goroutine's body: its own WaitGroup, if it starts or
// waits for anything, then its actions.
func (t *translator) goroutine(ops []gmp.Op, depth int) {
	if needsChildren(ops) {
		t.imports["sync"] = true
		t.line("%svar children sync.WaitGroup // what wait: children waits for", strings.Repeat("\t", depth))
	}
	t.body(ops, depth)
}

// needsChildren says whether a goroutine's own actions (through loops,
// not into the goroutines it starts) start or wait for anything.
func needsChildren(ops []gmp.Op) bool {
	for _, op := range ops {
		switch op.Kind {
		case gmp.OpGo, gmp.OpSubmit:
			return true
		case gmp.OpWait:
			if op.WG == 0 {
				return true
			}
		case gmp.OpLoop:
			if needsChildren(op.Body) {
				return true
			}
		case gmp.OpSelect:
			for _, c := range op.Cases {
				if needsChildren(c.Body) {
					return true
				}
			}
		}
	}
	return false
}

func (t *translator) body(ops []gmp.Op, depth int) {
	ind := strings.Repeat("\t", depth)
	for _, op := range ops {
		pos := fmt.Sprintf("line %d", op.Pos.Line)
		switch op.Kind {
		case gmp.OpCPU:
			t.usesCPU = true
			t.imports["time"] = true
			t.line("%scompute(%s) // cpu, %s", ind, t.dur(op.Dur), pos)
		case gmp.OpSyscall:
			t.usesSyscall = true
			t.imports["syscall"] = true
			if op.Block {
				t.line("%s// block: true cannot be asked for: a program's system calls enter with", ind)
				t.line("%s// entersyscall, which leaves the P for sysmon to retake.", ind)
			}
			t.line("%ssyscallFor(%s) // syscall, %s", ind, t.dur(op.Dur), pos)
		case gmp.OpSleep:
			t.line("%stime.Sleep(%s) // sleep, %s", ind, t.dur(op.Dur), pos)
		case gmp.OpNet:
			t.usesNet = true
			t.imports["golang.org/x/sys/unix"] = true
			t.line("%snetRead(%s) // net, %s", ind, t.dur(op.Dur), pos)
		case gmp.OpGosched:
			t.line("%sruntime.Gosched() // %s", ind, pos)
		case gmp.OpExit:
			t.line("%sruntime.Goexit() // exit, %s", ind, pos)
		case gmp.OpWait:
			if op.WG > 0 {
				t.line("%s%s.Wait() // wait, %s", ind, t.wgs[op.WG-1], pos)
				break
			}
			t.line("%schildren.Wait() // wait: children, %s", ind, pos)
		case gmp.OpObj:
			v := gmp.ObjKinds()[t.sc.Objects[op.Obj].Kind].Verbs[op.Verb]
			t.line("%s%s // %s, %s", ind, fmt.Sprintf(v.Go, t.objs[op.Obj]), v.Name, pos)
		case gmp.OpAdd:
			t.line("%s%s.Add(%d) // add, %s", ind, t.wgs[op.WG-1], op.N, pos)
		case gmp.OpDone:
			t.line("%s%s.Done() // done, %s", ind, t.wgs[op.WG-1], pos)
		case gmp.OpSend:
			t.line("%s%s <- struct{}{} // %s", ind, t.chans[op.Chan], pos)
		case gmp.OpRecv:
			t.line("%s<-%s // %s", ind, t.chans[op.Chan], pos)
		case gmp.OpClose:
			t.line("%sclose(%s) // %s", ind, t.chans[op.Chan], pos)
		case gmp.OpAcquire:
			t.imports["context"] = true
			t.imports["golang.org/x/sync/semaphore"] = true
			t.line("%s_ = %s.Acquire(context.Background(), %d) // %s", ind, t.sems[op.Sem], op.N, pos)
		case gmp.OpRelease:
			t.imports["golang.org/x/sync/semaphore"] = true
			t.line("%s%s.Release(%d) // %s", ind, t.sems[op.Sem], op.N, pos)
		case gmp.OpLock:
			t.line("%s%s.Lock() // lock, %s", ind, t.mutexes[op.Mutex], pos)
		case gmp.OpUnlock:
			t.line("%s%s.Unlock() // unlock, %s", ind, t.mutexes[op.Mutex], pos)
		case gmp.OpRLock:
			t.line("%s%s.RLock() // rlock, %s", ind, t.mutexes[op.Mutex], pos)
		case gmp.OpRUnlock:
			t.line("%s%s.RUnlock() // runlock, %s", ind, t.mutexes[op.Mutex], pos)
		case gmp.OpLoop:
			switch op.Loop {
			case gmp.LoopUntil:
				t.line("%sfor !%s.Load() { // loop until, %s", ind, t.flags[op.Flag], pos)
			case gmp.LoopForever:
				t.line("%sfor { // loop forever, %s", ind, pos)
			default:
				t.line("%sfor range %d { // loop, %s", ind, op.Count, pos)
			}
			t.body(op.Body, depth+1)
			t.line("%s}", ind)
		case gmp.OpPrint:
			// The text only as a quoted literal: nothing of it is code.
			t.imports["fmt"] = true
			t.usesPrint = true
			t.line("%sfmt.Println(%s) // print, %s", ind, strconv.Quote(op.Text), pos)
		case gmp.OpSet:
			t.line("%s%s.Store(true) // set, %s", ind, t.flags[op.Flag], pos)
		case gmp.OpGo:
			if op.WG > 0 {
				// wg.Go defers its Done after the function, which
				// itself defers the count wait: children keeps.
				t.line("%sfor range %d { // go with wg.Go, %s", ind, op.Count, pos)
				t.line("%s\tchildren.Add(1)", ind)
				t.line("%s\t%s.Go(func() {", ind, t.wgs[op.WG-1])
				t.line("%s\t\tdefer children.Done()", ind)
				t.goroutine(op.Body, depth+2)
				t.line("%s\t})", ind)
				t.line("%s}", ind)
				break
			}
			t.line("%sfor range %d { // go, %s", ind, op.Count, pos)
			t.line("%s\tchildren.Add(1)", ind)
			t.line("%s\tgo func() {", ind)
			t.line("%s\t\tdefer children.Done()", ind)
			t.goroutine(op.Body, depth+2)
			t.line("%s\t}()", ind)
			t.line("%s}", ind)
		case gmp.OpSubmit:
			t.usesPool = true
			t.line("%sfor range %d { // submit, %s", ind, op.Count, pos)
			t.line("%s\tchildren.Add(1)", ind)
			t.line("%s\tif err := %s.Submit(func() {", ind, t.pools[op.Pool])
			t.line("%s\t\tdefer children.Done()", ind)
			t.goroutine(op.Body, depth+2)
			t.line("%s\t}); err != nil {", ind)
			t.line("%s\t\tchildren.Done() // rejected: the task never runs", ind)
			t.line("%s\t}", ind)
			t.line("%s}", ind)
		case gmp.OpGroup:
			t.imports["golang.org/x/sync/errgroup"] = true
			g := t.fresh("group")
			t.line("%svar %s errgroup.Group // group, %s", ind, g, pos)
			if op.Limit >= 0 {
				t.line("%s%s.SetLimit(%d)", ind, g, op.Limit)
			}
			t.line("%sfor range %d {", ind, op.Count)
			t.line("%s\t%s.Go(func() error {", ind, g)
			t.goroutine(op.Body, depth+2)
			t.line("%s\t\treturn nil", ind)
			t.line("%s\t})", ind)
			t.line("%s}", ind)
			t.line("%s_ = %s.Wait()", ind, g)
		case gmp.OpSelect:
			t.selectStmt(op, depth)
		default:
			// Every action a scenario file can name is above
			// (TestEveryActionIsTranslated); a new one must be added.
			if t.err == nil {
				t.err = fmt.Errorf("%v: schedlab real cannot translate %s yet", op.Pos, op.Kind)
			}
		}
	}
}

// selectStmt writes a select statement: its cases in the order written,
// each with its body; the channels by the identifiers the declarations
// got, never by the scenario's names.
func (t *translator) selectStmt(op gmp.Op, depth int) {
	ind := strings.Repeat("\t", depth)
	t.line("%sselect { // select, line %d", ind, op.Pos.Line)
	for _, c := range op.Cases {
		switch c.Dir {
		case gmp.SelectRecv:
			t.line("%scase <-%s: // line %d", ind, t.chans[c.Chan], c.Pos.Line)
		case gmp.SelectSend:
			t.line("%scase %s <- struct{}{}: // line %d", ind, t.chans[c.Chan], c.Pos.Line)
		case gmp.SelectAfter:
			t.imports["time"] = true
			t.line("%scase <-time.After(%s): // line %d", ind, t.dur(c.Dur), c.Pos.Line)
		case gmp.SelectDefault:
			t.line("%sdefault: // line %d", ind, c.Pos.Line)
		}
		t.body(c.Body, depth+1)
	}
	t.line("%s}", ind)
}

// dur writes a duration, drawing it when the scenario draws it.
func (t *translator) dur(d gmp.Dur) string {
	switch d.Kind {
	case gmp.DurUniform:
		t.useRandom()
		return fmt.Sprintf("uniform(%s, %s)", t.goDur(d.A), t.goDur(d.B))
	case gmp.DurExp:
		t.useRandom()
		return fmt.Sprintf("exponential(%s)", t.goDur(d.A))
	}
	return t.goDur(d.A)
}

func (t *translator) useRandom() {
	t.random = true
	t.imports["math/rand/v2"] = true
	t.imports["sync"] = true
}

func (t *translator) poolOptions(p gmp.PoolDecl) string {
	var b strings.Builder
	if p.Expiry > 0 {
		fmt.Fprintf(&b, ", pool.WithExpiry(%s)", t.goDur(p.Expiry))
	}
	if p.Nonblocking {
		b.WriteString(", pool.WithNonblocking(true)")
	}
	if p.MaxBlocking > 0 {
		fmt.Fprintf(&b, ", pool.WithMaxBlocking(%d)", p.MaxBlocking)
	}
	if p.PreAlloc {
		b.WriteString(", pool.WithPreAlloc(true)")
	}
	if p.Queue > 0 {
		fmt.Fprintf(&b, ", pool.WithQueue(%d)", p.Queue)
	}
	if p.CoarseClock {
		b.WriteString(", pool.WithCoarseClock(true)")
	}
	return b.String()
}

// goDur writes d as Go source, readably: 1 * time.Millisecond, or
// time.Duration(n) when no unit divides it.
func (t *translator) goDur(d time.Duration) string {
	t.imports["time"] = true
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}} {
		if d != 0 && d%u.d == 0 {
			return fmt.Sprintf("%d * time.%s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("time.Duration(%d)", int64(d))
}

// identifiers returns the Go identifier of each of decls, in order: prefix
// and the declaration's name spelled in ASCII (spell). Two names may spell
// alike (a-b and a_b); the later one then gets a suffix _2, _3, …, the
// first that no earlier declaration has, so that no two declarations
// share an identifier and the same file always gets the same ones. The
// prefixes keep the identifiers of each kind apart, and apart from every
// name the program declares itself.
func identifiers[D any](prefix string, decls []D, name func(D) string) []string {
	out := make([]string, len(decls))
	used := map[string]bool{}
	next := map[string]int{} // the suffix to try next for a spelling
	for i, d := range decls {
		base := prefix + spell(name(d))
		id := base
		for k := next[base]; used[id]; k++ {
			id = base + "_" + strconv.Itoa(k+2)
			next[base] = k + 1
		}
		used[id] = true
		out[i] = id
	}
	return out
}

// spell writes a name with the characters of a Go identifier: ASCII
// letters, digits and _ as they are, - as _ (names are written with
// either), and any other character as _u and its code point in hex, so
// that é and è stay apart. The result is ASCII: no character of a name
// reaches the program's text.
func spell(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_':
			b.WriteRune(r)
		case r == '-':
			b.WriteByte('_')
		default:
			fmt.Fprintf(&b, "_u%04x", r)
		}
	}
	return b.String()
}

func sortedKeys(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}
