package gmp

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/internal/decimal"
)

// Describer turns events into sentences. It is the only place that does:
// the trace, the UI's log and the golden files all use it, so they cannot
// disagree. It needs the program only for names: channels, pools,
// semaphores.
//
// A sentence holds the describer's own words, numbers, durations and the
// names Names lists, and no other text of the program, except for the
// rules OnlyNames says otherwise of: TestSentencesHoldOnlyWordsAndNames
// gives every string of every micro-program a hostile value and finds it
// nowhere else. So a writer that must make a scenario's text safe (JSON,
// a terminal) can test the names once instead of every sentence.
type Describer struct {
	chans []string
	pools []PoolDecl
	sems  []string
	// mutexes and wgs name the sync.Mutexes, RWMutexes and WaitGroups.
	mutexes []MutexDecl
	wgs     []string
	// objs are the declared objects of registered kinds (objkinds.go).
	objs []ObjDecl
	// quote puts declared names in quotes, as error messages write
	// them (quoted).
	quote bool
}

// NewDescriber returns a describer for events of prog.
func NewDescriber(prog *Program) *Describer {
	d := &Describer{}
	if prog != nil {
		for _, c := range prog.Chans {
			d.chans = append(d.chans, c.Name)
		}
		d.pools = prog.Pools
		for _, sm := range prog.Sems {
			d.sems = append(d.sems, sm.Name)
		}
		d.mutexes = prog.Mutexes
		for _, wg := range prog.WaitGroups {
			d.wgs = append(d.wgs, wg.Name)
		}
		d.objs = prog.Objects
	}
	return d
}

// Names returns the program's text a sentence may hold: the declared
// names of channels, pools and semaphores.
func (d *Describer) Names() []string {
	names := append([]string(nil), d.chans...)
	for _, p := range d.pools {
		names = append(names, p.Name)
	}
	names = append(names, d.sems...)
	for _, mu := range d.mutexes {
		names = append(names, mu.Name)
	}
	names = append(names, d.wgs...)
	for _, o := range d.objs {
		names = append(names, o.Name)
	}
	return names
}

// OnlyNames reports whether the sentences of rule r hold no text of the
// program but the names Names lists; a writer must test the sentences of
// the other rules, whose wordings quote some other text (listed in
// holdsText).
func (d *Describer) OnlyNames(r Rule) bool { return r < numRules && !holdsText[r] }

// holdsText marks the rules whose sentences hold text of the program
// other than its names: a print's line. A wording that writes such text
// (an action's own text, a file name) marks its rule here, or
// TestSentencesHoldOnlyWordsAndNames fails.
var holdsText = [numRules]bool{RulePrint: true}

// Loc names a place compactly, as the trace's from/to fields do:
// "P0.runnext", "P0.runq", "global", "P0" (running), "syscall",
// "chan:done", "timer:P0", "netpoll", "wait", "free:P0".
func (d *Describer) Loc(l Loc) string { return string(d.AppendLoc(nil, l)) }

// AppendLoc appends what Loc returns, for a writer that makes no string
// per event.
func (d *Describer) AppendLoc(b []byte, l Loc) []byte {
	p := PID(l.ID)
	switch l.Kind {
	case LocRunnext:
		return append(AppendP(b, p), ".runnext"...)
	case LocRunq:
		return append(AppendP(b, p), ".runq"...)
	case LocGlobal:
		return append(b, "global"...)
	case LocRunning:
		return AppendP(b, p)
	case LocSyscall:
		return append(b, "syscall"...)
	case LocChanRecv, LocChanSend:
		return d.chanName(int(l.ID)).appendTo(append(b, "chan:"...))
	case LocTimer:
		return AppendP(append(b, "timer:"...), p)
	case LocNetpoll:
		return append(b, "netpoll"...)
	case LocWait:
		return append(b, "wait"...)
	case LocFree:
		return AppendP(append(b, "free:"...), p)
	case LocSem:
		return d.semName(int(l.ID)).appendTo(append(b, "sem:"...))
	case LocPoolIdle:
		return append(d.poolName(int(l.ID)).appendTo(append(b, "pool:"...)), ".idle"...)
	case LocPoolWait:
		return append(d.poolName(int(l.ID)).appendTo(append(b, "pool:"...)), ".wait"...)
	case LocGroupWait:
		return append(b, "errgroup.wait"...)
	case LocSelect:
		return append(b, "select"...)
	case LocTraceWait:
		return append(b, "trace.reader"...)
	}
	if wp := placeOf(l.Kind); wp != nil {
		return wp.loc(d, b, l.ID)
	}
	return b
}

// quoted returns a describer like d that writes declared names in
// quotes: the deadlock report's, whose names sit in an error message.
func (d *Describer) quoted() *Describer {
	q := *d
	q.quote = true
	return &q
}

// namePhrase is a declared name, or a prefix and number for what has none.
type namePhrase struct {
	name   string
	prefix string
	i      int
	quote  bool
}

func (n namePhrase) appendTo(b []byte) []byte {
	if n.name != "" {
		if n.quote {
			return strconv.AppendQuote(b, n.name)
		}
		return append(b, n.name...)
	}
	return decimal.AppendInt(append(b, n.prefix...), int64(n.i))
}

// chanName names channel i. Channels past the declared ones are the
// limit channels errgroups make.
func (d *Describer) chanName(i int) namePhrase {
	if i >= 0 && i < len(d.chans) {
		return namePhrase{name: d.chans[i], quote: d.quote}
	}
	return namePhrase{prefix: "errgroup-limit#", i: i}
}

// into says where a new or readied G goes: into runnext under the
// runtime's rules, elsewhere under a what-if policy (readyPlace), which the
// sentence names.
func (d *Describer) into(e *Event) intoPhrase { return intoPhrase{e.To.Kind, e.P} }

type intoPhrase struct {
	to LocKind
	p  PID
}

func (x intoPhrase) appendTo(b []byte) []byte {
	switch x.to {
	case LocRunq:
		return appendf(b, "to the tail of %v's ring (what-if no-runnext)", x.p)
	case LocGlobal:
		return append(b, "to the tail of the global queue (what-if global-fifo)"...)
	}
	return append(AppendP(append(b, "into "...), x.p), "'s runnext"...)
}

// Place says where a G is in words, as the sentences do: "P0's runnext",
// "the global queue".
func (d *Describer) Place(l Loc) string { return string(d.appendPlace(nil, l)) }

// place says where a G is in words, within a sentence.
func (d *Describer) place(l Loc) placePhrase { return placePhrase{d, l} }

type placePhrase struct {
	d *Describer
	l Loc
}

// appendPlace appends where l is in words: "P0's runnext", "the global
// queue".
func (d *Describer) appendPlace(b []byte, l Loc) []byte {
	p := PID(l.ID)
	switch l.Kind {
	case LocRunnext:
		return append(AppendP(b, p), "'s runnext"...)
	case LocRunq:
		return append(AppendP(b, p), "'s ring"...)
	case LocGlobal:
		return append(b, "the global queue"...)
	case LocRunning:
		return AppendP(b, p)
	case LocChanRecv, LocChanSend:
		return appendf(b, "channel %s", d.chanName(int(l.ID)))
	case LocTimer:
		return appendf(b, "%v's timers", p)
	case LocNetpoll:
		return append(b, "the netpoller"...)
	case LocWait:
		return append(b, "its wait for children"...)
	case LocSem:
		return appendf(b, "semaphore %s", d.semName(int(l.ID)))
	case LocPoolIdle:
		return appendf(b, "pool %s's idle workers", d.poolName(int(l.ID)))
	case LocPoolWait:
		return appendf(b, "pool %s's line of waiting submitters", d.poolName(int(l.ID)))
	case LocGroupWait:
		return append(b, "errgroup.Wait"...)
	case LocSelect:
		return append(b, "its select"...)
	case LocTraceWait:
		return append(b, "the tracer's wait for a full buffer"...)
	}
	if wp := placeOf(l.Kind); wp != nil {
		return wp.words(d, b, l.ID)
	}
	return d.AppendLoc(b, l)
}

// Describe returns the one-line explanation of e.
func (d *Describer) Describe(e Event) string {
	return string(d.AppendDescribe(make([]byte, 0, 128), &e))
}

// AppendDescribe appends the one-line explanation of e to b. The trace
// writers append it into their line: a run writes hundreds of thousands
// of sentences, and a string for each was most of a trace's cost.
//
// b's spare room is the caller's own, and used as scratch: numbers and
// names are stored as whole words past the sentence written so far
// (AppendG), one store where writing exactly their bytes took two and a
// call, so bytes past the sentence, within b's capacity, may change. The
// trace writers append into a buffer of their own, and Describe into a
// new one.
func (d *Describer) AppendDescribe(b []byte, e *Event) []byte {
	if e.Rule < numRules {
		if w := wordings[e.Rule]; w != nil {
			return w(d, b, e)
		}
	}
	return append(b, e.Kind.String()...)
}

// A wording appends the sentence of one rule's events to b.
type wording func(d *Describer, b []byte, e *Event) []byte

// words tells the events of some rules, one function per rule. Each
// runtime structure's rules are told in its own describe_*.go file.
type words map[Rule]wording

// wordings is every rule's wording, gathered once. A rule told twice is a
// programmer's mistake, caught when the package loads.
var wordings = gatherWords(goroutineWords, scheduleWords, parkWords, syscallWords, procWords,
	netpollWords, sysmonWords, poolWords, poolQueueWords, syncWords, mutexWords, selectWords, printWords, endWords, cpuWords)

func gatherWords(sets ...words) (all [numRules]wording) {
	var told [numRules]bool
	for _, set := range sets {
		for r, w := range set {
			if told[r] {
				panic(fmt.Sprintf("gmp: rule %d (%s) is worded twice", r, r.Fn()))
			}
			all[r], told[r] = w, true
		}
	}
	return all
}

// endWords tells how a run stops without main returning.
var endWords = words{
	RuleDeadlock: func(d *Describer, b []byte, e *Event) []byte {
		return append(b, "all goroutines are asleep: deadlock"...)
	},
	RulePanic: func(d *Describer, b []byte, e *Event) []byte {
		return append(b, "the program panics"...)
	},
	RuleUntil: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "the run stops here with %s alive", plural(e.Alive(), "goroutine", "goroutines"))
	},
}

// kickedNew is kicked for a go-create event, which also says the ring's
// length and whether it is full.
func kickedNew(e *Event) kickedNewPhrase {
	return kickedNewPhrase{e.Kicked(), e.RingFull(), e.RingLen()}
}

type kickedNewPhrase struct {
	g    GID
	full bool
	n    int
}

func (k kickedNewPhrase) appendTo(b []byte) []byte {
	if k.g == NoG {
		return b
	}
	b = AppendG(append(b, "; "...), k.g)
	if k.full {
		return append(b, ", kicked out of runnext, finds the ring full"...)
	}
	b = decimal.AppendInt(append(b, ", kicked out of runnext, goes to the ring's tail ("...), int64(k.n))
	return append(b, "/256)"...)
}

// plural writes "1 G goes" or "3 Gs go".
func plural(n int, one, many string) pluralPhrase { return pluralPhrase{n, one, many} }

type pluralPhrase struct {
	n         int
	one, many string
}

func (p pluralPhrase) appendTo(b []byte) []byte {
	if p.n == 1 {
		return append(append(b, "1 "...), p.one...)
	}
	return append(append(decimal.AppendInt(b, int64(p.n)), ' '), p.many...)
}

func kicked(e *Event) kickedPhrase { return kickedPhrase{e.Kicked()} }

type kickedPhrase struct{ g GID }

func (k kickedPhrase) appendTo(b []byte) []byte {
	if k.g == NoG {
		return b
	}
	return append(AppendG(append(b, ", kicking "...), k.g), " to the ring's tail"...)
}

// TimeString formats an event time for the text trace.
func TimeString(t sim.Time) string { return t.String() }
