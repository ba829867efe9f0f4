package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/teach/quiz"
)

// askKeys are the keys of one question under ask:.
var askKeys = []string{"at", "on", "question", "answer", "choices"}

// asks reads the ask: list: questions asked at a moment of the run and
// answered by a fact of it (package quiz).
func (p *reader) asks(n ast.Node) []quiz.Ask {
	const shape = "write {on: steal, answer: {steals: P1}} with an optional question: and choices:"
	seq, ok := p.resolve(n).(*ast.SequenceNode)
	if !ok {
		p.errorf(n, shape, "ask must be a list")
		return nil
	}
	var out []quiz.Ask
	for _, item := range seq.Values {
		m, ok := p.resolve(item).(*ast.MappingNode)
		if !ok {
			p.errorf(item, shape, "a question must be a mapping")
			continue
		}
		f := p.mapping(m, askKeys, "a question")
		a := quiz.Ask{Pos: p.pos(item)}
		a.Moment = p.moment(m, f, "a question")
		if t, ok := f["question"]; ok {
			a.Text = strings.TrimSpace(p.str(t, "question"))
		}
		if v, ok := f["answer"]; ok {
			a.Fact = p.fact(v)
		} else {
			p.errorf(m, "name the fact that answers it, e.g. answer: {next-on: P1}", "a question has no answer:")
		}
		if c, ok := f["choices"]; ok {
			a.Choices = p.choices(c)
		}
		out = append(out, a)
	}
	return out
}

// moment reads when a note or a question belongs: at: a time, or on: an
// event kind, or on: {kind, n, g, p} for the nth event of that kind, of a
// goroutine, on a P.
func (p *reader) moment(m ast.Node, f map[string]ast.Node, what string) gmp.Moment {
	at, okAt := f["at"]
	on, okOn := f["on"]
	switch {
	case okAt && okOn:
		p.errorf(m, "keep one of them", "%s has either at: or on:, not both", what)
	case okAt:
		return gmp.Moment{At: p.duration(at, "at"), HasAt: true}
	case okOn:
		if om, ok := p.resolve(on).(*ast.MappingNode); ok {
			return p.eventMoment(om)
		}
		return gmp.Moment{On: p.kind(on)}
	default:
		p.errorf(m, "add at: 1ms or on: steal", "%s needs at: (a time) or on: (an event kind)", what)
	}
	return gmp.Moment{}
}

// eventMoment reads on: {kind: steal, n: 2, g: G5, p: P1}.
func (p *reader) eventMoment(m *ast.MappingNode) gmp.Moment {
	f := p.mapping(m, []string{"kind", "n", "g", "p"}, "on")
	var mo gmp.Moment
	if k, ok := f["kind"]; ok {
		mo.On = p.kind(k)
	} else {
		p.errorf(m, "write on: {kind: steal, n: 2}", "on: needs the event's kind:")
	}
	if n, ok := f["n"]; ok {
		mo.Nth = int(p.integer(n, "n", 1, 1_000_000_000))
	}
	if g, ok := f["g"]; ok {
		if v, ok := numberedRef(p, g, "G"); ok && v > 0 {
			mo.G = gmp.GID(v)
			p.refs = append(p.refs, askRef{pos: p.pos(g), key: "g:", g: true, n: v})
		} else {
			p.errorf(g, "write a goroutine such as G5", "g: names a goroutine")
		}
	}
	if pn, ok := f["p"]; ok {
		if v, ok := numberedRef(p, pn, "P"); ok && v < gmp.MaxProcs {
			mo.P, mo.HasP = gmp.PID(v), true
			p.refs = append(p.refs, askRef{pos: p.pos(pn), key: "p:", n: v})
		} else {
			p.errorf(pn, "write a P such as P0", "p: names a P")
		}
	}
	return mo
}

// numberedRef reads "G5" or "P1" (or a bare number).
func numberedRef(p *reader, n ast.Node, prefix string) (int, bool) {
	s, ok := p.scalar(n)
	if !ok {
		return 0, false
	}
	s = strings.TrimPrefix(s, prefix)
	v, err := strconv.Atoi(s)
	return v, err == nil && v >= 0 && len(s) <= 9
}

// kind reads an event kind's name.
func (p *reader) kind(n ast.Node) gmp.Kind {
	kind := p.str(n, "on")
	k, ok := gmp.ParseKind(kind)
	if !ok {
		names := kindNames()
		hint := "event kinds: " + strings.Join(names, ", ")
		if w, ok := kindWords[strings.ToLower(strings.TrimSpace(kind))]; ok {
			k, why, _ := strings.Cut(w, "|")
			hint = "did you mean " + k + "? runtime/trace names events by what happens to a goroutine, a P or an M"
			if why != "" {
				hint += ": " + why
			}
		} else if c := closest(kind, names); c != "" {
			hint = "did you mean " + c + "?"
		} else if c := closest(kind, kindWordList); c != "" {
			k, _, _ := strings.Cut(kindWords[c], "|")
			hint = "did you mean " + k + "?"
		}
		p.errorf(n, hint, "unknown event kind %q", kind)
	}
	return k
}

// kindWordList are kindWords' words, for a did-you-mean of a misspelt
// one ("prempt").
var kindWordList = func() []string {
	var out []string
	for w := range kindWords {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}()

// kindWords maps the words a person reaches for to the kinds that name
// what they mean, as runtime/trace names them: "preempt" is go-stop.
var kindWords = map[string]string{
	"preempt":    "go-stop|a preempted goroutine stops (go-stop), after sysmon asks it to (sysmon)",
	"preempted":  "go-stop|a preempted goroutine stops (go-stop), after sysmon asks it to (sysmon)",
	"preemption": "go-stop|a preempted goroutine stops (go-stop), after sysmon asks it to (sysmon)",
	"yield":      "go-stop|runtime.Gosched stops the goroutine (go-stop)",
	"gosched":    "go-stop|runtime.Gosched stops the goroutine (go-stop)",
	"stop":       "go-stop",
	"create":     "go-create", "created": "go-create", "spawn": "go-create", "go": "go-create", "new": "go-create",
	"start": "go-start", "run": "go-start", "runs": "go-start", "schedule": "go-start", "resume": "go-start",
	"block": "go-block", "park": "go-block", "parked": "go-block", "sleep": "go-block", "wait": "go-block",
	"recv": "go-block", "send": "go-block",
	"wake": "go-unblock", "wakeup": "go-unblock", "woken": "go-unblock", "ready": "go-unblock",
	"unblock": "go-unblock", "timer": "go-unblock|a timer that fires readies its goroutine (go-unblock)",
	"exit": "go-exit", "exits": "go-exit", "done": "go-exit", "finish": "go-exit",
	"syscall": "syscall-enter|or syscall-exit, as the call returns",
	"retake":  "proc-steal|sysmon taking a P back from a system call is proc-steal",
	"handoff": "proc-steal|a P taken from a system call is proc-steal; the M that then takes it, proc-start",
	"spin":    "m-start|an M started or woken to spin is m-start", "spinning": "m-start|an M started or woken to spin is m-start",
	"wakep": "m-start", "thread": "m-start",
	"stealing": "steal", "stolen": "steal",
	"overflow": "runq-overflow", "global": "runq-overflow|a ring that overflows to the global queue is runq-overflow",
	"poll": "netpoll", "network": "netpoll", "epoll": "netpoll",
	"deadlock": "program|the run's end, however it ends, is program", "panic": "program|the run's end, however it ends, is program",
	"end":     "program",
	"submit":  "pool-dispatch|or pool-block when it waits, pool-reject when it is refused",
	"task":    "pool-dispatch",
	"acquire": "sem-acquire", "release": "sem-release",
}

// fact reads an answer: {next-on: P1}, {where: G258}, {worker: POOL}…
func (p *reader) fact(n ast.Node) quiz.Fact {
	hint := "facts: " + strings.Join(quiz.FactNames(), "; ")
	m, ok := p.resolve(n).(*ast.MappingNode)
	if !ok || len(m.Values) != 1 {
		p.errorf(n, hint, "an answer is one fact, such as {next-on: P1}")
		return quiz.Fact{}
	}
	mv := m.Values[0]
	arg, ok := p.scalar(mv.Value)
	if !ok {
		p.errorf(mv.Value, hint, "the fact %s needs a P, a goroutine, a pool, a mutex or a number of lines", keyName(mv))
		return quiz.Fact{}
	}
	f, err := quiz.ParseFact(keyName(mv), arg, func(what, name string) (int, bool) {
		known := p.pools
		if what == "mutex" {
			known = p.mutexes
		}
		i, ok := known[name]
		return i, ok
	})
	if err != nil {
		p.errorf(mv.Key, hint, "%v", err)
		return f
	}
	switch f.Arg() {
	case "P":
		p.refs = append(p.refs, askRef{pos: p.pos(mv.Value), key: keyName(mv) + ":", n: int(f.P)})
	case "G":
		p.refs = append(p.refs, askRef{pos: p.pos(mv.Value), key: keyName(mv) + ":", g: true, n: int(f.G)})
	}
	return f
}

// askRef is a P or a goroutine a question names, and where. Whether it
// exists depends on the configuration the scenario runs with (--procs
// replaces procs:), so Validate checks it, not the parser.
type askRef struct {
	pos gmp.Pos
	key string // how the file names it: "p:", "g:", "next-on:"…
	g   bool   // a goroutine; else a P
	n   int
}

// Validate reports every question that names a P or a goroutine the
// scenario cannot have: a P that neither the file's procs: nor cfg gives
// the run, or a goroutine past the most the program starts (known when it
// has no pools, whose workers and purges start as the run goes). cfg is
// the configuration with the command line's overrides: --procs can raise
// procs: so that the P exists; a --procs below the file's makes a run that
// may not reach the question, which check reports as it reports any
// question its run leaves unanswered, and which run, answering none,
// ignores. check and run both call this, so both refuse a file alike.
func (s *Scenario) Validate(cfg gmp.Config) error {
	maxG, knownG := s.Program().MaxGoroutine()
	procs := max(s.Procs, cfg.Procs)
	var errs ErrorList
	for _, r := range s.refs {
		if len(errs) == maxErrors {
			break
		}
		switch {
		case !r.g && r.n >= procs:
			has, name := "only P0", "P0"
			if procs > 1 {
				has = fmt.Sprintf("P0 to P%d", procs-1)
				name = "one of " + has
			}
			errs = append(errs, &Error{Pos: r.pos,
				Msg:  fmt.Sprintf("%s P%d names a P the run does not have: with procs %d it has %s", r.key, r.n, procs, has),
				Hint: fmt.Sprintf("name %s, or set procs: (or --procs) to %d or more", name, r.n+1)})
		case r.g && knownG && gmp.GID(r.n) > maxG:
			errs = append(errs, &Error{Pos: r.pos,
				Msg:  fmt.Sprintf("%s G%d names a goroutine no run of this program has: its goroutines are at most G1 (main) to %v", r.key, r.n, maxG),
				Hint: "goroutines are numbered in the order they are created; run the scenario to see their numbers"})
		}
	}
	if len(errs) == 0 {
		return nil
	}
	errs.sort()
	return errs
}

// choices reads a list of answers as text.
func (p *reader) choices(n ast.Node) []string {
	seq, ok := p.resolve(n).(*ast.SequenceNode)
	if !ok || len(seq.Values) < 2 {
		p.errorf(n, "write at least two, e.g. choices: [G2, G3, G4]", "choices must be a list of two or more")
		return nil
	}
	var out []string
	for _, v := range seq.Values {
		s := strings.TrimSpace(p.str(v, "a choice"))
		for _, prev := range out {
			if prev == s {
				p.errorf(v, "remove one of them", "choice %q is given twice", s)
			}
		}
		out = append(out, s)
	}
	return out
}
