package quiz

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/safetext"
)

// FactKind is what a question asks about.
type FactKind uint8

const (
	FactNextOn    FactKind = iota + 1 // next-on: P1, the G that runs next on P1
	FactWhere                         // where: G258, where G258 goes next
	FactSteals                        // steals: P1, how many Gs P1 takes at its next steal
	FactStops                         // stops: G5, how G5 next stops running
	FactTakes                         // takes: P0, the M that next acquires P0
	FactWorker                        // worker: POOL, the worker the pool's next task goes to
	FactPurged                        // purged: POOL, how many workers the pool's next purge stops
	FactLocks                         // locks: MU, the goroutine that takes the mutex next
	FactSelect                        // selects: G5, the case G5's next select takes
	FactPrinted                       // printed: 3, the order of the program's first 3 lines (all: of all it prints)
	FactRanBefore                     // ran-before: G5, how many goroutines ran between G5 becoming runnable and its next start
	FactLate                          // late: G5, how late G5's next sleep timer fires
	FactRunning                       // running: POOL, the pool's Running() when asked
)

// Fact is one fact of a run a question asks about.
type Fact struct {
	Kind FactKind
	P    gmp.PID // next-on, steals, takes
	G    gmp.GID // where, stops
	Pool int     // worker, purged: an index into the program's pools
	// PoolName is the pool's name, for the question's text.
	PoolName string
	// Mutex (locks) is an index into the program's mutexes, MutexName
	// its name.
	Mutex     int
	MutexName string
	// Lines is how many printed lines the order asks about (printed:),
	// or 0 for all the run prints.
	Lines int
}

// factInfo is one row of the fact table: how a fact is written, asked,
// settled and answered.
type factInfo struct {
	kind FactKind
	name string // the key in a scenario's answer: {name: arg}
	arg  string // what the argument names: "P", "G", "pool", "mutex" or "lines"
	doc  string
	// text is the question a fact asks when the scenario gives none.
	text func(f Fact) string
	// settles reports whether e is the event that answers f.
	settles func(f Fact, e *gmp.Event) bool
	// answer is the correct choice, read from the settling event (and,
	// for what a run shows over time, the view of the events before it).
	answer func(f Fact, e *gmp.Event, v *view, d *gmp.Describer) string
	// wrong lists plausible wrong choices, given what the run has shown.
	wrong func(f Fact, e *gmp.Event, v *view, d *gmp.Describer) []string
	// decision returns the fact e settles when e is a decision worth
	// asking about as the run goes (schedlab tui --quiz), with a sentence
	// setting the scene that does not give the answer away.
	decision func(e *gmp.Event, v *view, prog *gmp.Program) (Fact, string, bool)
	// before, if set, reports whether the run has settled f before the
	// question's moment: the ask is then answered at once, with a
	// warning, rather than by an event that never comes.
	before func(f Fact, v *view) bool
}

// facts is the one table of facts. The scenario format, the generated
// questions and the help text all read it.
var facts = []factInfo{
	{
		kind: FactNextOn, name: "next-on", arg: "P",
		doc:  "the goroutine that runs next on the P",
		text: func(f Fact) string { return fmt.Sprintf("Which goroutine runs next on %v?", f.P) },
		settles: func(f Fact, e *gmp.Event) bool {
			return e.Kind == gmp.KindGoStart && e.P == f.P
		},
		answer: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) string { return e.G.String() },
		wrong: func(f Fact, e *gmp.Event, v *view, _ *gmp.Describer) []string {
			return v.runnableNames(f.P, e.G)
		},
		decision: func(e *gmp.Event, v *view, _ *gmp.Program) (Fact, string, bool) {
			if e.Kind != gmp.KindGoStart || len(v.runnableNames(e.P, e.G)) < 2 {
				return Fact{}, "", false
			}
			return Fact{Kind: FactNextOn, P: e.P}, fmt.Sprintf("%v's M looks for the next goroutine to run.", e.P), true
		},
	},
	{
		kind: FactWhere, name: "where", arg: "G",
		doc:  "where the goroutine goes when it is next created, woken, or put back in a queue",
		text: func(f Fact) string { return fmt.Sprintf("Where does %v go?", f.G) },
		settles: func(f Fact, e *gmp.Event) bool {
			return e.G == f.G && placing(e) || e.Kicked() == f.G && kicksToRing(e)
		},
		answer: func(f Fact, e *gmp.Event, _ *view, d *gmp.Describer) string {
			if e.G != f.G {
				return d.Place(gmp.Loc{Kind: gmp.LocRunq, ID: int32(e.P)})
			}
			return d.Place(e.To)
		},
		wrong: func(_ Fact, e *gmp.Event, v *view, d *gmp.Describer) []string {
			p := e.P
			out := []string{
				d.Place(gmp.Loc{Kind: gmp.LocRunnext, ID: int32(p)}),
				d.Place(gmp.Loc{Kind: gmp.LocRunq, ID: int32(p)}),
				d.Place(gmp.Loc{Kind: gmp.LocGlobal}),
			}
			for q := range gmp.PID(v.procs) {
				if q != p {
					out = append(out, d.Place(gmp.Loc{Kind: gmp.LocRunq, ID: int32(q)}))
				}
			}
			return out
		},
		decision: func(e *gmp.Event, _ *view, _ *gmp.Program) (Fact, string, bool) {
			f := Fact{Kind: FactWhere, G: e.G}
			switch {
			case e.Kind == gmp.KindGoCreate:
				return f, fmt.Sprintf("%v creates %v on %v.", e.Creator(), e.G, e.P), true
			case e.Kind == gmp.KindGoUnblock && e.Waker() != gmp.NoG:
				return f, fmt.Sprintf("%v wakes %v, on %v.", e.Waker(), e.G, e.P), true
			case e.Kind == gmp.KindGoStop:
				return f, fmt.Sprintf("%v stops running on %v (%v).", e.G, e.P, e.Reason), true
			}
			return Fact{}, "", false
		},
	},
	{
		kind: FactSteals, name: "steals", arg: "P",
		doc:  "how many goroutines the P takes at its next steal",
		text: func(f Fact) string { return fmt.Sprintf("How many goroutines does %v steal?", f.P) },
		settles: func(f Fact, e *gmp.Event) bool {
			return e.Kind == gmp.KindSteal && e.P == f.P
		},
		answer: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) string { return strconv.Itoa(e.Stolen()) },
		wrong: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) []string {
			n := e.Stolen()
			total := n + e.Left()
			return counts(total, total/2, (total+1)/2, 1, n+1, n-1, 2*n)
		},
		decision: func(e *gmp.Event, _ *view, _ *gmp.Program) (Fact, string, bool) {
			if e.Rule != gmp.RuleRunqsteal || e.Stolen()+e.Left() < 2 {
				return Fact{}, "", false
			}
			return Fact{Kind: FactSteals, P: e.P},
				fmt.Sprintf("%v has nothing to run; it steals from %v, whose ring holds %d.", e.P, e.Victim(), e.Stolen()+e.Left()), true
		},
	},
	{
		kind: FactStops, name: "stops", arg: "G",
		doc:  "how the goroutine next stops running: preempted, yields, blocks, enters a system call, or exits",
		text: func(f Fact) string { return fmt.Sprintf("How does %v stop running?", f.G) },
		settles: func(f Fact, e *gmp.Event) bool {
			return e.G == f.G && stopping(e)
		},
		answer: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) string { return stopName(e) },
		wrong: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) []string {
			block := "it blocks"
			if e.Kind == gmp.KindGoBlock {
				block = stopName(e)
			}
			return []string{"sysmon preempts it", "it yields (runtime.Gosched)", block, "it enters a system call", "it exits"}
		},
		decision: func(e *gmp.Event, _ *view, _ *gmp.Program) (Fact, string, bool) {
			if e.Kind != gmp.KindGoStop {
				return Fact{}, "", false
			}
			return Fact{Kind: FactStops, G: e.G}, fmt.Sprintf("%v has been running on %v.", e.G, e.P), true
		},
	},
	{
		kind: FactTakes, name: "takes", arg: "P",
		doc:  "the thread (M) that next acquires the P",
		text: func(f Fact) string { return fmt.Sprintf("Which M takes %v next?", f.P) },
		settles: func(f Fact, e *gmp.Event) bool {
			return e.Kind == gmp.KindProcStart && e.P == f.P
		},
		answer: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) string { return e.M.String() },
		wrong: func(_ Fact, e *gmp.Event, v *view, _ *gmp.Describer) []string {
			out := []string{}
			for _, m := range v.ms {
				out = append(out, m.String())
			}
			return append(out, (e.M + 1).String(), (v.maxM() + 1).String())
		},
		decision: func(e *gmp.Event, v *view, _ *gmp.Program) (Fact, string, bool) {
			if e.Kind != gmp.KindProcStart || !v.retaken[e.P] {
				return Fact{}, "", false
			}
			return Fact{Kind: FactTakes, P: e.P}, fmt.Sprintf("%v was taken from a thread stuck in a system call.", e.P), true
		},
	},
	{
		kind: FactWorker, name: "worker", arg: "pool",
		doc: "the worker the pool's next task goes to (wN)",
		text: func(f Fact) string {
			return fmt.Sprintf("Which worker of pool %s runs the next task?", f.PoolName)
		},
		settles: func(f Fact, e *gmp.Event) bool {
			return (e.Rule == gmp.RulePoolDispatchIdle || e.Rule == gmp.RulePoolDispatchNew) && e.Pool() == f.Pool
		},
		answer: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) string { return workerName(e.Worker()) },
		wrong: func(f Fact, e *gmp.Event, v *view, _ *gmp.Describer) []string {
			var out []string
			for _, w := range v.idle[f.Pool] {
				out = append(out, workerName(w))
			}
			return append(out, workerName(v.maxWorker[f.Pool]+1), workerName(1))
		},
		decision: func(e *gmp.Event, v *view, prog *gmp.Program) (Fact, string, bool) {
			pool := e.Pool()
			if e.Rule != gmp.RulePoolDispatchIdle || len(v.idle[pool]) < 2 {
				return Fact{}, "", false
			}
			name := poolName(prog, pool)
			return Fact{Kind: FactWorker, Pool: pool, PoolName: name},
				fmt.Sprintf("%v submits a task to pool %s, which has %d idle workers.", e.G, name, len(v.idle[pool])), true
		},
	},
	{
		kind: FactPurged, name: "purged", arg: "pool",
		doc: "how many idle workers the pool's next purge stops",
		text: func(f Fact) string {
			return fmt.Sprintf("How many workers does the next purge of pool %s stop?", f.PoolName)
		},
		settles: func(f Fact, e *gmp.Event) bool {
			return e.Rule == gmp.RulePoolPurge && e.Pool() == f.Pool
		},
		answer: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) string { return strconv.Itoa(e.Purged()) },
		wrong: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) []string {
			n := e.Purged()
			idle := n + e.Idle()
			return counts(idle, 0, 1, n+1, n-1, idle/2)
		},
		decision: func(e *gmp.Event, _ *view, prog *gmp.Program) (Fact, string, bool) {
			if e.Rule != gmp.RulePoolPurge || e.Purged()+e.Idle() < 2 {
				return Fact{}, "", false
			}
			name := poolName(prog, e.Pool())
			return Fact{Kind: FactPurged, Pool: e.Pool(), PoolName: name},
				fmt.Sprintf("The purge timer of pool %s fires with %d workers idle.", name, e.Purged()+e.Idle()), true
		},
	},
	{
		kind: FactLocks, name: "locks", arg: "mutex",
		doc: "the goroutine that takes the mutex next (an rwmutex's writer lock)",
		text: func(f Fact) string {
			return fmt.Sprintf("Which goroutine takes mutex %s next?", f.MutexName)
		},
		settles: func(f Fact, e *gmp.Event) bool { return acquires(e) && e.Mutex() == f.Mutex },
		answer:  func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) string { return e.G.String() },
		wrong: func(f Fact, e *gmp.Event, v *view, _ *gmp.Describer) []string {
			// The waiters in line, the goroutine that had it last, and
			// those spinning for it.
			var out []string
			for _, g := range v.contenders(f.Mutex) {
				out = append(out, g.String())
			}
			return out
		},
		decision: func(e *gmp.Event, v *view, prog *gmp.Program) (Fact, string, bool) {
			if e.Rule != gmp.RuleMutexWake && e.Rule != gmp.RuleMutexHandoff || len(v.contenders(e.Mutex())) < 2 {
				return Fact{}, "", false
			}
			// The scene names no goroutine: the one that unlocks is often
			// the answer.
			name := mutexName(prog, e.Mutex())
			how := "normal mode, by a goroutine that keeps running"
			if e.Rule == gmp.RuleMutexHandoff {
				how = "starvation mode"
			}
			return Fact{Kind: FactLocks, Mutex: e.Mutex(), MutexName: name},
				fmt.Sprintf("Mutex %s is unlocked in %s, with %d waiting in line.", name, how, e.Waiters()), true
		},
	},
	{
		kind: FactSelect, name: "selects", arg: "G",
		doc:  "the case the goroutine's next select takes (recv CH, send CH, after D or default)",
		text: func(f Fact) string { return fmt.Sprintf("Which case does %v's select take?", f.G) },
		settles: func(f Fact, e *gmp.Event) bool {
			return e.G == f.G && selectTakes(e)
		},
		answer: func(_ Fact, e *gmp.Event, _ *view, d *gmp.Describer) string { return d.CaseName(e.Op, e.SelCase()) },
		wrong: func(_ Fact, e *gmp.Event, _ *view, d *gmp.Describer) []string {
			var out []string
			if e.Op != nil {
				for i := range e.Op.Cases {
					out = append(out, d.CaseName(e.Op, i))
				}
			}
			return out
		},
		decision: func(e *gmp.Event, _ *view, _ *gmp.Program) (Fact, string, bool) {
			if !selectTakes(e) || e.Op == nil || len(e.Op.Cases) < 2 {
				return Fact{}, "", false
			}
			if e.Rule == gmp.RuleSelectResume {
				return Fact{Kind: FactSelect, G: e.G}, fmt.Sprintf("%v, parked in a select of %d cases, runs again.", e.G, len(e.Op.Cases)), true
			}
			return Fact{Kind: FactSelect, G: e.G}, fmt.Sprintf("%v comes to a select of %d cases.", e.G, len(e.Op.Cases)), true
		},
	},
	{
		kind: FactPrinted, name: "printed", arg: "lines",
		doc: "the order of the program's first N printed lines (all: of every line the run prints, settled when it ends)",
		text: func(f Fact) string {
			if f.Lines == 0 {
				return "What does the program print, in order?"
			}
			if f.Lines == 1 {
				return "Which line does the program print first?"
			}
			return fmt.Sprintf("In what order does the program print its first %d lines?", f.Lines)
		},
		settles: func(f Fact, e *gmp.Event) bool {
			if f.Lines == 0 {
				return e.Kind == gmp.KindProgram || e.Rule == gmp.RuleMainReturn
			}
			return e.Kind == gmp.KindPrint && e.Line() == f.Lines
		},
		answer: func(f Fact, e *gmp.Event, v *view, _ *gmp.Describer) string {
			return OrderText(v.firstPrinted(f, e))
		},
		wrong: func(f Fact, e *gmp.Event, v *view, _ *gmp.Describer) []string {
			return v.otherOrders(v.firstPrinted(f, e))
		},
		before: func(f Fact, v *view) bool { return f.Lines > 0 && len(v.printed) >= f.Lines },
		decision: func(e *gmp.Event, v *view, _ *gmp.Program) (Fact, string, bool) {
			if e.Kind != gmp.KindPrint || e.Line() != 1 || len(v.texts) < 2 {
				return Fact{}, "", false
			}
			return Fact{Kind: FactPrinted, Lines: 1}, "The program is about to print its first line.", true
		},
	},
	{
		kind: FactRanBefore, name: "ran-before", arg: "G",
		doc: "how many other goroutines start, on any P, between the goroutine being made runnable (readied, preempted, yielding) and its next start",
		text: func(f Fact) string {
			return fmt.Sprintf("How many other goroutines run before %v runs again?", f.G)
		},
		settles: func(f Fact, e *gmp.Event) bool { return e.Kind == gmp.KindGoStart && e.G == f.G },
		answer: func(_ Fact, e *gmp.Event, v *view, _ *gmp.Describer) string {
			return strconv.Itoa(v.ranBefore(e.G))
		},
		wrong: func(_ Fact, e *gmp.Event, v *view, _ *gmp.Describer) []string {
			n := v.ranBefore(e.G)
			return counts(0, 1, n-1, n+1, 2*n, len(v.runnable))
		},
		decision: func(e *gmp.Event, v *view, _ *gmp.Program) (Fact, string, bool) {
			// Only a goroutine that stopped running and comes back: a new
			// one's wait is the runnext question in another form.
			if e.Kind != gmp.KindGoStart || !v.stopped[e.G] || v.ranBefore(e.G) < 1 {
				return Fact{}, "", false
			}
			return Fact{Kind: FactRanBefore, G: e.G}, fmt.Sprintf("%v stopped running earlier and waits to run again.", e.G), true
		},
	},
	{
		kind: FactLate, name: "late", arg: "G",
		doc:  "how late the goroutine's next sleep timer fires, as the trace prints it",
		text: func(f Fact) string { return fmt.Sprintf("How late does %v's sleep timer fire?", f.G) },
		settles: func(f Fact, e *gmp.Event) bool {
			return e.Rule == gmp.RuleReadyTimer && e.G == f.G
		},
		// The duration as the describer's sentence prints it, so the
		// worked answer and the key read alike.
		answer: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) string { return e.Late().String() },
		wrong: func(_ Fact, e *gmp.Event, _ *view, _ *gmp.Describer) []string {
			d := e.Late()
			return durations(0, d/2, 2*d, d+time.Millisecond, d+10*time.Millisecond)
		},
		decision: func(e *gmp.Event, _ *view, _ *gmp.Program) (Fact, string, bool) {
			if e.Rule != gmp.RuleReadyTimer {
				return Fact{}, "", false
			}
			return Fact{Kind: FactLate, G: e.G}, fmt.Sprintf("%v's sleep is over; its timer is due.", e.G), true
		},
	},
	{
		kind: FactRunning, name: "running", arg: "pool",
		doc: "the pool's Running() at the moment asked: the workers started and not yet stopped, idle ones included",
		text: func(f Fact) string {
			return fmt.Sprintf("What does pool %s's Running() return now?", f.PoolName)
		},
		// Asked at a moment, answered by it: the count before the
		// moment's event.
		settles: func(Fact, *gmp.Event) bool { return true },
		answer: func(f Fact, _ *gmp.Event, v *view, _ *gmp.Describer) string {
			return strconv.Itoa(v.running[f.Pool])
		},
		wrong: func(f Fact, _ *gmp.Event, v *view, _ *gmp.Describer) []string {
			n := v.running[f.Pool]
			return counts(n+1, n-1, len(v.idle[f.Pool]), n-len(v.idle[f.Pool]), v.maxWorker[f.Pool], 0)
		},
		decision: func(e *gmp.Event, v *view, prog *gmp.Program) (Fact, string, bool) {
			// Before a submission, when some workers are idle: Running()
			// counts them too, which is the lesson.
			pool := e.Pool()
			if e.Rule != gmp.RulePoolDispatchIdle || len(v.idle[pool]) < 1 || v.running[pool] < 2 {
				return Fact{}, "", false
			}
			name := poolName(prog, pool)
			return Fact{Kind: FactRunning, Pool: pool, PoolName: name},
				fmt.Sprintf("%v is about to submit a task to pool %s.", e.G, name), true
		},
	},
}

// durations formats durations as choices, leaving out negative ones.
func durations(ds ...time.Duration) []string {
	var out []string
	for _, d := range ds {
		if d >= 0 && !slices.Contains(out, d.String()) {
			out = append(out, d.String())
		}
	}
	return out
}

// acquires reports whether e is a goroutine taking a mutex (or an
// rwmutex's writer lock): on the fast path, in lockSlow, or handed it.
func acquires(e *gmp.Event) bool {
	switch e.Rule {
	case gmp.RuleMutexLock, gmp.RuleMutexAcquire, gmp.RuleMutexHandedOff:
		return true
	}
	return false
}

func mutexName(prog *gmp.Program, i int) string {
	if prog != nil && i >= 0 && i < len(prog.Mutexes) {
		return prog.Mutexes[i].Name
	}
	return fmt.Sprintf("#%d", i)

}

// selectTakes reports whether e is a select taking a case: pass 1's pick
// or default, or the case a woken select resumes with (pass 3).
func selectTakes(e *gmp.Event) bool {
	switch e.Rule {
	case gmp.RuleSelectPick, gmp.RuleSelectDefault, gmp.RuleSelectResume:
		return true
	}
	return false
}

func (k FactKind) info() *factInfo {
	for i := range facts {
		if facts[i].kind == k {
			return &facts[i]
		}
	}
	panic(fmt.Sprintf("quiz: fact kind %d has no row", k))
}

// FactNames lists the facts a scenario's answer can name, each with what
// its argument is and what it asks: for help text and error hints.
func FactNames() []string {
	out := make([]string, len(facts))
	for i, f := range facts {
		out[i] = fmt.Sprintf("%s: %s (%s)", f.name, f.arg, f.doc)
	}
	return out
}

// ParseFact reads a fact as a scenario writes it, {name: arg}: "next-on",
// "P1". declared finds a declared pool or mutex by name: what is "pool"
// or "mutex".
func ParseFact(name, arg string, declared func(what, name string) (int, bool)) (Fact, error) {
	var info *factInfo
	var names []string
	for i := range facts {
		names = append(names, facts[i].name)
		if facts[i].name == name {
			info = &facts[i]
		}
	}
	if info == nil {
		return Fact{}, fmt.Errorf("unknown fact %q: want one of %s", safetext.Clip(name, safetext.QuoteMax), strings.Join(names, ", "))
	}
	// The errors below quote the argument as the file wrote it, clipped:
	// a scenario file is anyone's.
	quoted := safetext.Clip(arg, safetext.QuoteMax)
	f := Fact{Kind: info.kind}
	switch info.arg {
	case "P":
		n, ok := numbered(arg, "P")
		if !ok {
			return Fact{}, fmt.Errorf("%s: wants a P such as P0, not %q", name, quoted)
		}
		f.P = gmp.PID(n)
	case "G":
		n, ok := numbered(arg, "G")
		if !ok || n < 1 {
			return Fact{}, fmt.Errorf("%s: wants a goroutine such as G5, not %q", name, quoted)
		}
		f.G = gmp.GID(n)
	case "pool":
		i, ok := declared("pool", arg)
		if !ok {
			return Fact{}, fmt.Errorf("%s: pool %q is not declared", name, quoted)
		}
		f.Pool, f.PoolName = i, arg
	case "mutex":
		i, ok := declared("mutex", arg)
		if !ok {
			return Fact{}, fmt.Errorf("%s: mutex %q is not declared", name, quoted)
		}
		f.Mutex, f.MutexName = i, arg
	case "lines":
		if arg == "all" {
			break
		}
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > 1000 {
			return Fact{}, fmt.Errorf("%s: wants how many lines, 1 to 1000, or all, not %q", name, quoted)
		}
		f.Lines = n
	}
	return f, nil
}

// numbered reads "P3" or "G12" (a bounded number after the prefix).
func numbered(s, prefix string) (int, bool) {
	digits, ok := strings.CutPrefix(s, prefix)
	if !ok || digits == "" || len(digits) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n >= 0
}

// Arg says what the fact's argument names: "P", "G", "pool", "mutex" or
// "lines".
func (f Fact) Arg() string { return f.Kind.info().arg }

// Text is the question the fact asks when the scenario gives none.
func (f Fact) Text() string { return f.Kind.info().text(f) }

// placing reports whether e puts its G somewhere: created, woken, put back
// on a queue, or moved to the global queue by an overflow.
func placing(e *gmp.Event) bool {
	if e.To.IsZero() {
		return false
	}
	switch e.Kind {
	case gmp.KindGoCreate, gmp.KindGoUnblock, gmp.KindGoStop, gmp.KindRunqOverflow:
		return true
	}
	return false
}

// kicksToRing reports whether e puts a new or woken G into runnext and
// the one it kicks out (G3) goes to the tail of the P's ring. When a new
// G's kick finds the ring full (Flag), the runq-overflow that follows
// says where the kicked G goes.
func kicksToRing(e *gmp.Event) bool {
	switch e.Kind {
	case gmp.KindGoCreate:
		return e.Kicked() != gmp.NoG && !e.RingFull()
	case gmp.KindGoUnblock:
		return e.Kicked() != gmp.NoG
	}
	return false
}

// stopping reports whether e ends its G's time on the P.
func stopping(e *gmp.Event) bool {
	switch e.Kind {
	case gmp.KindGoStop, gmp.KindGoBlock, gmp.KindGoExit, gmp.KindSyscallEnter:
		return true
	}
	return false
}

// stopName says how e stops its G, as a choice reads.
func stopName(e *gmp.Event) string {
	switch e.Kind {
	case gmp.KindGoStop:
		if e.Rule == gmp.RuleGoyield {
			return "it yields its P to the waiter it handed a mutex"
		}
		if e.Reason == gmp.ReasonGosched {
			return "it yields (runtime.Gosched)"
		}
		return "sysmon preempts it"
	case gmp.KindGoBlock:
		if e.Reason != gmp.NoReason {
			return "it blocks (" + e.Reason.String() + ")"
		}
		return "it blocks"
	case gmp.KindSyscallEnter:
		return "it enters a system call"
	}
	return "it exits"
}

func workerName(n int) string { return "w" + strconv.Itoa(n) }

func poolName(prog *gmp.Program, i int) string {
	if i >= 0 && i < len(prog.Pools) {
		return prog.Pools[i].Name
	}
	return "#" + strconv.Itoa(i)
}

// counts formats whole numbers as choices, leaving out negative ones.
func counts(vs ...int) []string {
	var out []string
	for _, v := range vs {
		if v >= 0 && !slices.Contains(out, strconv.Itoa(v)) {
			out = append(out, strconv.Itoa(v))
		}
	}
	return out
}
