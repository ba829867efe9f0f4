package quiz

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/schedlab/schedlab/core/gmp"
)

// view is what the events so far have shown, kept only to draw plausible
// wrong choices: which goroutines wait to run and where, the threads seen,
// each pool's idle workers, and the Ps taken from a system call.
type view struct {
	procs     int
	runnable  map[gmp.GID]gmp.Loc
	ms        []gmp.MID // sorted
	idle      map[int][]int
	maxWorker map[int]int
	retaken   map[gmp.PID]bool
	// locks follows each mutex: who took it last, who waits in line, who
	// spins.
	locks map[int]*lockView
	// printed are the lines printed so far; texts every line the
	// program's print actions can print, in program order.
	printed []string
	texts   []string
	// n counts the events seen. started is the event index of each
	// goroutine's latest start, readied that of its latest becoming
	// runnable, stopped whether that was a stop (preempted, yielding)
	// rather than a creation or a wake: what ran-before counts.
	n       int
	started map[gmp.GID]int
	readied map[gmp.GID]int
	stopped map[gmp.GID]bool
	// running is each pool's Running(), as its last event reported it.
	running map[int]int
}

// lockView is what the events have shown of one mutex.
type lockView struct {
	last     gmp.GID
	queued   []gmp.GID
	spinning []gmp.GID
}

func newView(procs int, prog *gmp.Program) *view {
	v := &view{procs: procs, runnable: map[gmp.GID]gmp.Loc{}, idle: map[int][]int{},
		maxWorker: map[int]int{}, retaken: map[gmp.PID]bool{}, locks: map[int]*lockView{},
		started: map[gmp.GID]int{}, readied: map[gmp.GID]int{}, stopped: map[gmp.GID]bool{}, running: map[int]int{}}
	if prog != nil {
		v.texts = printTexts(prog.Main, v.texts)
	}
	return v
}

// printTexts appends the distinct texts of the print actions in ops, and
// in the bodies they run: a go's, a loop's, a task's, a select case's.
func printTexts(ops []gmp.Op, out []string) []string {
	for i := range ops {
		if ops[i].Kind == gmp.OpPrint && !slices.Contains(out, ops[i].Text) {
			out = append(out, ops[i].Text)
		}
		out = printTexts(ops[i].Body, out)
		for k := range ops[i].Cases {
			out = printTexts(ops[i].Cases[k].Body, out)
		}
	}
	return out
}

// observe updates the view with e, the next event of the run.
func (v *view) observe(e *gmp.Event) {
	i := v.n
	v.n++
	v.observeRuns(i, e)
	if e.M >= 0 {
		if i, found := slices.BinarySearch(v.ms, e.M); !found {
			v.ms = slices.Insert(v.ms, i, e.M)
		}
	}
	if e.G != gmp.NoG {
		switch e.To.Kind {
		case gmp.LocRunnext, gmp.LocRunq, gmp.LocGlobal:
			v.runnable[e.G] = e.To
		case gmp.LocNone:
		default:
			delete(v.runnable, e.G)
		}
		if e.Kind == gmp.KindGoStart || e.Kind == gmp.KindGoExit {
			delete(v.runnable, e.G)
		}
	}
	switch e.Kind {
	case gmp.KindPrint:
		if len(v.printed) < maxOrderLines {
			v.printed = append(v.printed, e.Text())
		}
	case gmp.KindProcSteal:
		v.retaken[e.P] = true
	case gmp.KindProcStart:
		delete(v.retaken, e.P)
	}
	pool := e.Pool()
	switch e.Rule {
	case gmp.RulePoolIdle:
		v.idle[pool] = append(v.idle[pool], e.Worker())
	case gmp.RulePoolDispatchIdle, gmp.RulePoolReadyStop, gmp.RulePoolWorkerLost:
		v.idle[pool] = slices.DeleteFunc(v.idle[pool], func(w int) bool { return w == e.Worker() })
	}
	if e.Rule == gmp.RulePoolDispatchNew || e.Rule == gmp.RulePoolIdle {
		v.maxWorker[pool] = max(v.maxWorker[pool], e.Worker())
	}
	v.observeLock(e)
}

// observeRuns keeps what ran-before and running: count.
func (v *view) observeRuns(i int, e *gmp.Event) {
	if e.G != gmp.NoG {
		switch {
		case e.Kind == gmp.KindGoStart:
			v.started[e.G] = i
		case e.Kind == gmp.KindGoExit:
			delete(v.readied, e.G)
			delete(v.stopped, e.G)
		case placing(e) && (e.To.Kind == gmp.LocRunnext || e.To.Kind == gmp.LocRunq || e.To.Kind == gmp.LocGlobal):
			// A kicked or overflowed goroutine is still waiting: only
			// its own stop, creation or wake starts the count.
			if e.Kind != gmp.KindRunqOverflow {
				v.readied[e.G] = i
				v.stopped[e.G] = e.Kind == gmp.KindGoStop
			}
		}
	}
	switch e.Rule {
	case gmp.RulePoolDispatchIdle, gmp.RulePoolDispatchNew, gmp.RulePoolHandoff, gmp.RulePoolServeWaiter,
		gmp.RulePoolBlock, gmp.RulePoolReject, gmp.RulePoolIdle, gmp.RulePoolPurge, gmp.RulePoolWorkerLost,
		gmp.RulePoolEnqueue, gmp.RulePoolServeQueued:
		v.running[e.Pool()] = e.Running()
	}
}

// ranBefore counts the other goroutines that started since g last became
// runnable: each counted once, however often it ran.
func (v *view) ranBefore(g gmp.GID) int {
	since, ok := v.readied[g]
	if !ok {
		return 0
	}
	n := 0
	for h, at := range v.started {
		if h != g && at > since {
			n++
		}
	}
	return n
}

// observeLock follows a mutex's contenders through its events.
func (v *view) observeLock(e *gmp.Event) {
	if e.Kind != gmp.KindMutexLock {
		return
	}
	l := v.locks[e.Mutex()]
	if l == nil {
		l = &lockView{}
		v.locks[e.Mutex()] = l
	}
	drop := func(gs []gmp.GID) []gmp.GID { return slices.DeleteFunc(gs, func(g gmp.GID) bool { return g == e.G }) }
	switch e.Rule {
	case gmp.RuleMutexSpin:
		if !slices.Contains(l.spinning, e.G) {
			l.spinning = append(l.spinning, e.G)
		}
	case gmp.RuleMutexQueue:
		l.spinning = drop(l.spinning)
		if !slices.Contains(l.queued, e.G) {
			l.queued = append(l.queued, e.G)
		}
	case gmp.RuleMutexLock, gmp.RuleMutexAcquire, gmp.RuleMutexHandedOff:
		l.spinning, l.queued = drop(l.spinning), drop(l.queued)
		l.last = e.G
	}
}

// contenders are the goroutines that might take mutex mu next: those in
// line, those spinning, and the one that had it last, in goroutine
// order.
func (v *view) contenders(mu int) []gmp.GID {
	l := v.locks[mu]
	if l == nil {
		return nil
	}
	out := slices.Concat(l.queued, l.spinning)
	if l.last != gmp.NoG && !slices.Contains(out, l.last) {
		out = append(out, l.last)
	}
	slices.Sort(out)
	return out
}

// runnableNames names the goroutines waiting to run, those on p first,
// then the global queue's, then the rest, in goroutine order; and g's
// neighbours when few wait.
func (v *view) runnableNames(p gmp.PID, g gmp.GID) []string {
	var local, global, other []gmp.GID
	for id, l := range v.runnable {
		switch {
		case l.Kind == gmp.LocGlobal:
			global = append(global, id)
		case l.P() == p:
			local = append(local, id)
		default:
			other = append(other, id)
		}
	}
	var out []string
	for _, ids := range [][]gmp.GID{local, global, other} {
		slices.Sort(ids)
		for _, id := range ids {
			if id != g {
				out = append(out, id.String())
			}
		}
	}
	return out
}

// maxM is the highest thread seen.
func (v *view) maxM() gmp.MID {
	if len(v.ms) == 0 {
		return 0
	}
	return v.ms[len(v.ms)-1]
}

// maxOrderLines bounds the lines an order question keeps: a question
// about a program that prints without end asks about its start.
const maxOrderLines = 1000

// printedWith is the lines printed so far and, if e is a print, its line.
func (v *view) printedWith(e *gmp.Event) []string {
	lines := slices.Clone(v.printed)
	if e.Kind == gmp.KindPrint {
		lines = append(lines, e.Text())
	}
	return lines
}

// firstPrinted is what a printed: question asks about: the lines printed
// with e, cut to the question's number of lines when the run printed
// them before it was asked.
func (v *view) firstPrinted(f Fact, e *gmp.Event) []string {
	lines := v.printedWith(e)
	if f.Lines > 0 && len(lines) > f.Lines {
		lines = lines[:f.Lines]
	}
	return lines
}

// otherOrders are plausible wrong answers to an order: the same lines in
// other orders (each line moved to the front, pairs swapped), the order
// without its last line, and for one line or none, the program's other
// texts and nothing.
func (v *view) otherOrders(lines []string) []string {
	var out []string
	add := func(ls []string) {
		if s := OrderText(ls); s != OrderText(lines) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for i := range lines {
		moved := append([]string{lines[i]}, slices.Delete(slices.Clone(lines), i, i+1)...)
		add(moved)
		if i+1 < len(lines) {
			swapped := slices.Clone(lines)
			swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
			add(swapped)
		}
	}
	reversed := slices.Clone(lines)
	slices.Reverse(reversed)
	add(reversed)
	if len(lines) > 0 {
		add(lines[:len(lines)-1])
	}
	if len(lines) <= 1 {
		for _, t := range v.texts {
			add([]string{t})
		}
		add(nil)
	}
	return out
}

// OrderText writes printed lines as an order answers read: the lines in
// order, space-separated, each quoted as Go quotes it if it holds a space
// or is empty ("nothing" when there are none). A scenario's choices: for
// a printed: question are written so.
func OrderText(lines []string) string {
	if len(lines) == 0 {
		return "nothing"
	}
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = l
		if l == "" || strings.ContainsFunc(l, unicode.IsSpace) || l == "nothing" || strings.ContainsRune(l, '"') {
			parts[i] = strconv.Quote(l)
		}
	}
	return strings.Join(parts, " ")
}
