package gofront

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// YAML writes a scenario as a scenario file that reads back into the
// same program and settings, each action's comment naming the line it
// came from (main.go:14:3): what schedlab translate prints, for a
// teacher to go on with in YAML. Notes and questions are not written
// (a Go program has none).
func YAML(sc *scenarios.Scenario) []byte {
	text, _ := yamlWithLines(sc)
	return text
}

// yamlWithLines is YAML, with the position each line of it came from
// (the zero Pos for a line from nowhere in particular), so that a
// mistake found in the YAML can be reported at the Go line.
func yamlWithLines(sc *scenarios.Scenario) ([]byte, []gmp.Pos) {
	w := &yamlWriter{}
	w.line(gmp.Pos{}, "# The scenario %s gives (schedlab translate). The comment of each", quoteComment(sc.File))
	w.line(gmp.Pos{}, "# action is the Go line it comes from.")
	w.line(gmp.Pos{}, "name: %s", yamlString(sc.Name))
	if sc.Title != "" {
		w.line(gmp.Pos{}, "title: %s", yamlString(sc.Title))
	}
	w.line(gmp.Pos{}, "procs: %d", sc.Procs)
	if sc.Seed != 1 {
		w.line(gmp.Pos{}, "seed: %d", sc.Seed)
	}
	if sc.Until > 0 {
		w.line(gmp.Pos{}, "until: %s", yamlDuration(sc.Until))
	}
	if sc.MaxEvents > 0 {
		w.line(gmp.Pos{}, "max_events: %d", sc.MaxEvents)
	}
	if sc.Policy != (gmp.Policy{}) {
		w.line(gmp.Pos{}, "policy: %s", yamlString(sc.Policy.String()))
	}
	if sc.Noise {
		w.line(gmp.Pos{}, "noise: true")
	}
	if sc.WarmStart {
		w.line(gmp.Pos{}, "start: warm")
	}
	switch sc.Expect {
	case gmp.Deadlock:
		w.line(gmp.Pos{}, "expect: deadlock")
	case gmp.Panicked:
		w.line(gmp.Pos{}, "expect: panic")
	}
	if len(sc.Chans) > 0 {
		w.line(gmp.Pos{}, "chans:")
		for _, c := range sc.Chans {
			w.line(c.Pos, "  %s: %d", yamlString(c.Name), c.Cap)
		}
	}
	if len(sc.Pools) > 0 {
		w.line(gmp.Pos{}, "pools:")
		for _, p := range sc.Pools {
			opts := []string{fmt.Sprintf("size: %d", p.Size)}
			if p.Expiry > 0 {
				opts = append(opts, "expiry: "+yamlDuration(p.Expiry))
			}
			if p.Nonblocking {
				opts = append(opts, "nonblocking: true")
			}
			if p.MaxBlocking > 0 {
				opts = append(opts, fmt.Sprintf("max_blocking: %d", p.MaxBlocking))
			}
			if p.PreAlloc {
				opts = append(opts, "prealloc: true")
			}
			if p.Queue > 0 {
				opts = append(opts, fmt.Sprintf("queue: %d", p.Queue))
			}
			if p.CoarseClock {
				opts = append(opts, "clock: coarse")
			}
			w.line(p.Pos, "  %s: {%s}", yamlString(p.Name), strings.Join(opts, ", "))
		}
	}
	if len(sc.Sems) > 0 {
		w.line(gmp.Pos{}, "sems:")
		for _, s := range sc.Sems {
			w.line(s.Pos, "  %s: %d", yamlString(s.Name), s.Size)
		}
	}
	var mus, rws, wgs []string
	for _, m := range sc.Mutexes {
		if m.RW {
			rws = append(rws, yamlString(m.Name))
		} else {
			mus = append(mus, yamlString(m.Name))
		}
	}
	for _, wg := range sc.WaitGroups {
		wgs = append(wgs, yamlString(wg.Name))
	}
	for _, decl := range []struct {
		key   string
		names []string
	}{{"mutexes", mus}, {"rwmutexes", rws}, {"waitgroups", wgs}} {
		if len(decl.names) > 0 {
			w.line(gmp.Pos{}, "%s: [%s]", decl.key, strings.Join(decl.names, ", "))
		}
	}
	if len(sc.Main) == 0 {
		w.line(gmp.Pos{}, "main: []")
	} else {
		w.line(gmp.Pos{}, "main:")
		w.actions(sc, sc.Main, "  ")
	}
	return w.buf.Bytes(), w.pos
}

type yamlWriter struct {
	buf bytes.Buffer
	pos []gmp.Pos
}

// line writes a line; pos, when set, is written as its comment.
func (w *yamlWriter) line(pos gmp.Pos, format string, args ...any) {
	fmt.Fprintf(&w.buf, format, args...)
	if pos.Line > 0 {
		w.buf.WriteString("  # ")
		w.buf.WriteString(quoteComment(pos.String()))
	}
	w.buf.WriteByte('\n')
	w.pos = append(w.pos, pos)
}

func (w *yamlWriter) actions(sc *scenarios.Scenario, ops []gmp.Op, ind string) {
	for _, op := range ops {
		switch op.Kind {
		case gmp.OpCPU, gmp.OpSleep, gmp.OpNet:
			w.line(op.Pos, "%s- %s: %s", ind, op.Kind, yamlDur(op.Dur))
		case gmp.OpSyscall:
			if op.Block {
				w.line(op.Pos, "%s- syscall: {for: %s, block: true}", ind, yamlDur(op.Dur))
			} else {
				w.line(op.Pos, "%s- syscall: %s", ind, yamlDur(op.Dur))
			}
		case gmp.OpGosched, gmp.OpExit:
			w.line(op.Pos, "%s- %s", ind, op.Kind)
		case gmp.OpSend, gmp.OpRecv, gmp.OpClose:
			w.line(op.Pos, "%s- %s: %s", ind, op.Kind, yamlString(sc.Chans[op.Chan].Name))
		case gmp.OpWait:
			if op.WG > 0 {
				w.line(op.Pos, "%s- wait: %s", ind, yamlString(sc.WaitGroups[op.WG-1].Name))
			} else {
				w.line(op.Pos, "%s- wait: children", ind)
			}
		case gmp.OpLock, gmp.OpUnlock, gmp.OpRLock, gmp.OpRUnlock:
			w.line(op.Pos, "%s- %s: %s", ind, op.Kind, yamlString(sc.Mutexes[op.Mutex].Name))
		case gmp.OpAdd:
			w.line(op.Pos, "%s- add: {wg: %s, n: %d}", ind, yamlString(sc.WaitGroups[op.WG-1].Name), op.N)
		case gmp.OpDone:
			w.line(op.Pos, "%s- done: %s", ind, yamlString(sc.WaitGroups[op.WG-1].Name))
		case gmp.OpSelect:
			w.selectOp(sc, op, ind)
		case gmp.OpAcquire, gmp.OpRelease:
			w.line(op.Pos, "%s- %s: {sem: %s, n: %d}", ind, op.Kind, yamlString(sc.Sems[op.Sem].Name), op.N)
		case gmp.OpGo:
			w.line(op.Pos, "%s- go:", ind)
			if op.WG > 0 {
				w.line(gmp.Pos{}, "%s    wg: %s", ind, yamlString(sc.WaitGroups[op.WG-1].Name))
			}
			w.line(gmp.Pos{}, "%s    count: %d", ind, op.Count)
			w.body(sc, op.Body, ind)
		case gmp.OpLoop:
			switch {
			case op.Loop == gmp.LoopForever && len(op.Body) == 0:
				w.line(op.Pos, "%s- loop: forever", ind)
			case op.Loop == gmp.LoopForever:
				w.line(op.Pos, "%s- loop:", ind)
				w.line(gmp.Pos{}, "%s    forever: true", ind)
				w.body(sc, op.Body, ind)
			case op.Loop == gmp.LoopUntil:
				w.line(op.Pos, "%s- loop:", ind)
				w.line(gmp.Pos{}, "%s    until: %s", ind, yamlString(sc.Flags[op.Flag]))
				if len(op.Body) > 0 {
					w.body(sc, op.Body, ind)
				}
			default:
				w.line(op.Pos, "%s- loop:", ind)
				w.line(gmp.Pos{}, "%s    times: %d", ind, op.Count)
				w.body(sc, op.Body, ind)
			}
		case gmp.OpPrint:
			w.line(op.Pos, "%s- print: %s", ind, jsonString(op.Text))
		case gmp.OpSet:
			w.line(op.Pos, "%s- set: %s", ind, yamlString(sc.Flags[op.Flag]))
		case gmp.OpSubmit:
			w.line(op.Pos, "%s- submit:", ind)
			w.line(gmp.Pos{}, "%s    pool: %s", ind, yamlString(sc.Pools[op.Pool].Name))
			w.line(gmp.Pos{}, "%s    count: %d", ind, op.Count)
			w.body(sc, op.Body, ind)
		case gmp.OpGroup:
			w.line(op.Pos, "%s- group:", ind)
			if op.Limit >= 0 {
				w.line(gmp.Pos{}, "%s    limit: %d", ind, op.Limit)
			}
			w.line(gmp.Pos{}, "%s    count: %d", ind, op.Count)
			w.body(sc, op.Body, ind)
		default:
			// Every action a scenario can write is above; one this does
			// not know is written so that reading it back fails there.
			w.line(op.Pos, "%s- %s", ind, yamlString(op.Kind.String()))
		}
	}
}

// selectOp writes a select: its cases, then its default apart.
func (w *yamlWriter) selectOp(sc *scenarios.Scenario, op gmp.Op, ind string) {
	if len(op.Cases) == 0 {
		w.line(op.Pos, "%s- select: {}", ind)
		return
	}
	w.line(op.Pos, "%s- select:", ind)
	var def *gmp.SelectCase
	wroteCases := false
	for i := range op.Cases {
		c := &op.Cases[i]
		var head string
		switch c.Dir {
		case gmp.SelectDefault:
			def = c
			continue
		case gmp.SelectRecv, gmp.SelectSend:
			head = fmt.Sprintf("%s: %s", c.Dir, yamlString(sc.Chans[c.Chan].Name))
		case gmp.SelectAfter:
			head = "after: " + yamlDur(c.Dur)
		}
		if !wroteCases {
			w.line(gmp.Pos{}, "%s    cases:", ind)
			wroteCases = true
		}
		w.line(c.Pos, "%s      - %s", ind, head)
		if len(c.Body) > 0 {
			w.line(gmp.Pos{}, "%s        do:", ind)
			w.actions(sc, c.Body, ind+"          ")
		}
	}
	if def != nil {
		if len(def.Body) == 0 {
			w.line(def.Pos, "%s    default: []", ind)
		} else {
			w.line(def.Pos, "%s    default:", ind)
			w.actions(sc, def.Body, ind+"      ")
		}
	}
}

func (w *yamlWriter) body(sc *scenarios.Scenario, ops []gmp.Op, ind string) {
	if len(ops) == 0 {
		w.line(gmp.Pos{}, "%s    do: []", ind)
		return
	}
	w.line(gmp.Pos{}, "%s    do:", ind)
	w.actions(sc, ops, ind+"      ")
}

func yamlDur(d gmp.Dur) string {
	switch d.Kind {
	case gmp.DurUniform:
		return fmt.Sprintf("{uniform: [%s, %s]}", yamlDuration(d.A), yamlDuration(d.B))
	case gmp.DurExp:
		return fmt.Sprintf("{exp: %s}", yamlDuration(d.A))
	}
	return yamlDuration(d.A)
}

// yamlDuration writes a duration exactly, in ASCII (us for µs).
func yamlDuration(d time.Duration) string {
	return strings.ReplaceAll(d.String(), "µ", "u")
}

var plainName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// yamlString writes a name or text: bare when YAML reads it back as the
// same string, else quoted (JSON's quoting, which YAML reads, escapes
// every control character).
func yamlString(s string) string {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "":
	default:
		if plainName.MatchString(s) {
			return s
		}
	}
	return jsonString(s)
}

// jsonString quotes s as JSON does, without escaping <, > and &.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// quoteComment keeps a comment on its line: a file name holds what it
// likes, so its control characters are escaped.
func quoteComment(s string) string {
	q := jsonString(s)
	if q[1:len(q)-1] == s {
		return s
	}
	return q
}
