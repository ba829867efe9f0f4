package gmp_test

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/core/sim"
)

// soak is how many random scenarios TestSoak runs; the default keeps the
// suite quick, go test ./core/gmp -run Soak -soak 5000 runs a long one.
var soak = flag.Int("soak", 600, "random scenarios TestSoak runs")

// TestSoak runs random valid scenarios (every action, pools with every
// option, 1 to 64 Ps, nested go and loop) with the invariants checked,
// twice each: a run may deadlock or panic, as the program says, but it
// must never break an invariant, and the two runs must emit the same
// events. A failure prints the scenario, to be kept as a regression test.
func TestSoak(t *testing.T) {
	parsed := 0
	ends := map[gmp.EndReason]int{}
	for seed := uint64(1); seed <= uint64(*soak); seed++ {
		src := randomScenario(seed)
		sc, err := scenarios.Parse(fmt.Sprintf("soak-%d.yaml", seed), []byte(src))
		if err != nil {
			continue // the generator may nest deeper than the format allows
		}
		parsed++
		run := func() (gmp.End, []string) {
			cfg := sc.Config()
			cfg.Check = true
			m, err := gmp.New(cfg, sc.Program())
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, src)
			}
			d := gmp.NewDescriber(sc.Program())
			var evs []string
			m.SetSink(func(e gmp.Event) {
				s := d.Describe(e)
				if strings.Contains(s, "%!") {
					t.Fatalf("seed %d: a sentence has a verb or type the describer's appendf does not know: %s\n%s", seed, s, src)
				}
				evs = append(evs, fmt.Sprint(e.T, " ", s))
			})
			return m.Run(), evs
		}
		end, a := run()
		ends[end.Reason]++
		if end.Reason == gmp.Invariant || end.Reason == gmp.Running {
			t.Fatalf("seed %d ended %v: %v\n%s", seed, end.Reason, end.Err, src)
		}
		_, b := run()
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Fatalf("seed %d: two runs differ\n%s", seed, src)
		}
	}
	t.Logf("%d of %d random scenarios parsed and ran; their ends: %v", parsed, *soak, ends)
	if parsed < *soak*3/4 {
		t.Errorf("only %d of %d random scenarios parsed: the generator drifted from the format", parsed, *soak)
	}
}

// The soak generator writes every action a scenario can (gmp.Actions)
// within TestSoak's default number of scenarios, so the invariant checker
// sees each. Add an action to the model and the parser but not to
// soakGen.action, and this fails: "TestSoak's generator never writes the
// action yield".
func TestSoakWritesEveryAction(t *testing.T) {
	written := map[gmp.OpKind]bool{}
	verbs := map[string]bool{} // the verbs of registered kinds written
	var walk func(prog *gmp.Program, ops []gmp.Op)
	walk = func(prog *gmp.Program, ops []gmp.Op) {
		for _, op := range ops {
			written[op.Kind] = true
			if op.Kind == gmp.OpObj {
				_, v := prog.VerbOf(&op)
				verbs[v.Name] = true
			}
			walk(prog, op.Body)
		}
	}
	for seed := uint64(1); seed <= 600; seed++ {
		if sc, err := scenarios.Parse("soak.yaml", []byte(randomScenario(seed))); err == nil {
			prog := sc.Program()
			walk(prog, prog.Main)
		}
	}
	for _, k := range gmp.Actions() {
		if !written[k] {
			t.Errorf("TestSoak's generator never writes the action %s: add it to soakGen.action (soak_test.go)", k)
		}
	}
	for _, k := range gmp.ObjKinds() {
		for _, v := range k.Verbs {
			if v.Name != "" && !verbs[v.Name] {
				t.Errorf("TestSoak's generator never writes %s's action %s", k.Noun, v.Name)
			}
		}
	}
}

// randomScenario writes a random scenario for seed.
func randomScenario(seed uint64) string {
	r := sim.NewRand(seed)
	g := &soakGen{r: &r}
	var b strings.Builder
	procs := []int{1, 1, 2, 2, 3, 4, 8, 64}[g.n(8)]
	fmt.Fprintf(&b, "procs: %d\nseed: %d\nmax_events: 200000\n", procs, seed)
	g.chans, g.pools, g.sems = g.n(3), g.n(3), g.n(3)
	if g.chans > 0 {
		var cs []string
		for i := range g.chans {
			cs = append(cs, fmt.Sprintf("c%d: %d", i, g.n(3)))
		}
		fmt.Fprintf(&b, "chans: {%s}\n", strings.Join(cs, ", "))
	}
	if g.pools > 0 {
		var ps []string
		for i := range g.pools {
			ps = append(ps, fmt.Sprintf("p%d: {size: %d, expiry: %dms, nonblocking: %v, max_blocking: %d, prealloc: %v}",
				i, g.n(5), 1+g.n(50), g.n(4) == 0, g.n(3), g.n(3) == 0))
		}
		fmt.Fprintf(&b, "pools: {%s}\n", strings.Join(ps, ", "))
	}
	if g.sems > 0 {
		var ss []string
		for i := range g.sems {
			ss = append(ss, fmt.Sprintf("s%d: %d", i, 1+g.n(4)))
		}
		fmt.Fprintf(&b, "sems: {%s}\n", strings.Join(ss, ", "))
	}
	g.mutexes, g.rws, g.wgs = g.n(3), g.n(2), g.n(2)
	if g.mutexes > 0 {
		fmt.Fprintf(&b, "mutexes: [%s]\n", names("m", g.mutexes))
	}
	if g.rws > 0 {
		fmt.Fprintf(&b, "rwmutexes: [%s]\n", names("r", g.rws))
	}
	if g.wgs > 0 {
		fmt.Fprintf(&b, "waitgroups: [%s]\n", names("w", g.wgs))
	}
	// One or two objects of each registered kind (gmp.ObjKinds), each
	// naming a mutex when its kind names one.
	g.objs = make([]int, len(gmp.ObjKinds()))
	for ki, k := range gmp.ObjKinds() {
		if k.Ref == "mutex" && g.mutexes == 0 {
			continue
		}
		g.objs[ki] = 1 + g.n(2)
		var ds []string
		for i := range g.objs[ki] {
			if k.Ref == "" {
				ds = append(ds, fmt.Sprintf("k%do%d", ki, i))
			} else {
				ds = append(ds, fmt.Sprintf("k%do%d: m%d", ki, i, g.n(g.mutexes)))
			}
		}
		if k.Ref == "" {
			fmt.Fprintf(&b, "%s: [%s]\n", k.Key, strings.Join(ds, ", "))
		} else {
			fmt.Fprintf(&b, "%s: {%s}\n", k.Key, strings.Join(ds, ", "))
		}
	}
	fmt.Fprintf(&b, "main: [%s]\n", g.actions(0, 1+g.n(6)))
	return b.String()
}

type soakGen struct {
	r                  *sim.Rand
	chans, pools, sems int
	mutexes, rws, wgs  int
	flags              int   // flags named so far
	objs               []int // by registered kind, its objects
}

// names lists n names: m0, m1, …
func names(prefix string, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return strings.Join(out, ", ")
}

func (g *soakGen) n(k int) int { return int(g.r.Int63n(int64(k))) }

func (g *soakGen) dur() string {
	switch g.n(4) {
	case 0:
		return fmt.Sprintf("%dus", g.n(500))
	case 1:
		return fmt.Sprintf("{uniform: [%dus, %dus]}", g.n(100), 100+g.n(2000))
	case 2:
		return fmt.Sprintf("{exp: %dus}", 1+g.n(500))
	}
	return fmt.Sprintf("%dms", g.n(15))
}

// actions writes n actions nested depth levels down.
func (g *soakGen) actions(depth, n int) string {
	var out []string
	for range n {
		out = append(out, g.action(depth))
	}
	return strings.Join(out, ", ")
}

func (g *soakGen) action(depth int) string {
	inner := func() string {
		if depth >= 3 {
			return "{cpu: " + g.dur() + "}"
		}
		return g.actions(depth+1, 1+g.n(3))
	}
	for {
		switch g.n(26) {
		case 0, 1:
			return "{cpu: " + g.dur() + "}"
		case 2:
			return "{sleep: " + g.dur() + "}"
		case 3:
			return fmt.Sprintf("{syscall: {for: %s, block: %v}}", g.dur(), g.n(2) == 0)
		case 4:
			return "{net: " + g.dur() + "}"
		case 5:
			return "gosched"
		case 6:
			return fmt.Sprintf("{go: {count: %d, do: [%s]}}", 1+g.n(5), inner())
		case 7:
			return fmt.Sprintf("{loop: {times: %d, do: [%s]}}", 1+g.n(4), inner())
		case 8:
			return "{wait: children}"
		case 9:
			if g.n(8) == 0 {
				return "exit"
			}
		case 10, 11:
			if g.chans > 0 {
				return fmt.Sprintf("{%s: c%d}", []string{"send", "recv", "send", "recv", "close"}[g.n(5)], g.n(g.chans))
			}
		case 12, 13:
			if g.pools > 0 {
				return fmt.Sprintf("{submit: {pool: p%d, count: %d, do: [%s]}}", g.n(g.pools), g.n(6), inner())
			}
		case 14:
			if g.sems > 0 {
				s, w := g.n(g.sems), 1+g.n(2)
				return fmt.Sprintf("{acquire: {sem: s%d, n: %d}}, {cpu: %s}, {release: {sem: s%d, n: %d}}", s, w, g.dur(), s, w)
			}
		case 15, 16:
			limit := ""
			if g.n(2) == 0 {
				limit = fmt.Sprintf("limit: %d, ", g.n(4))
			}
			return fmt.Sprintf("{group: {%scount: %d, do: [%s]}}", limit, g.n(5), inner())
		case 17:
			if g.mutexes > 0 {
				m := g.n(g.mutexes)
				if g.n(16) == 0 {
					return fmt.Sprintf("{unlock: m%d}", m) // of an unlocked mutex, most likely: a fatal error
				}
				return fmt.Sprintf("{lock: m%d}, {cpu: %s}, {unlock: m%d}", m, g.dur(), m)
			}
		case 18:
			if g.rws > 0 {
				r := g.n(g.rws)
				if g.n(2) == 0 {
					return fmt.Sprintf("{rlock: r%d}, {cpu: %s}, {runlock: r%d}", r, g.dur(), r)
				}
				return fmt.Sprintf("{lock: r%d}, {cpu: %s}, {unlock: r%d}", r, g.dur(), r)
			}
		case 19, 20:
			if g.wgs > 0 {
				w := g.n(g.wgs)
				switch g.n(4) {
				case 0:
					return fmt.Sprintf("{add: {wg: w%d, n: %d}}, {go: {count: 1, do: [%s, {done: w%d}]}}, {wait: w%d}", w, 1, inner(), w, w)
				case 1:
					return fmt.Sprintf("{go: {count: %d, wg: w%d, do: [%s]}}, {wait: w%d}", 1+g.n(4), w, inner(), w)
				case 2:
					return fmt.Sprintf("{add: {wg: w%d, n: %d}}", w, g.n(3)-1) // may go negative: a panic
				}
				return fmt.Sprintf("{wait: w%d}", w)
			}
		case 21:
			if g.chans > 0 {
				return g.selectAction(inner)
			}
		case 22:
			return fmt.Sprintf("{print: \"line %d\"}", g.n(100))
		case 23:
			// A goroutine sets a flag that a loop waits for, spinning or
			// calling something each time round.
			g.flags++
			body := ""
			if g.n(2) == 0 {
				body = ", do: [" + inner() + "]"
			}
			return fmt.Sprintf("{go: {do: [{cpu: %s}, {set: f%d}]}}, {loop: {until: f%d%s}}", g.dur(), g.flags, g.flags, body)
		case 24, 25:
			// A verb of an object of a registered kind; one whose kind
			// names a mutex runs with it held, as sync.Cond wants.
			ki := g.n(len(g.objs))
			if g.objs[ki] == 0 {
				continue
			}
			k := gmp.ObjKinds()[ki]
			var verbs []string
			for _, v := range k.Verbs {
				if v.Name != "" {
					verbs = append(verbs, v.Name)
				}
			}
			o := g.n(g.objs[ki])
			act := fmt.Sprintf("{%s: k%do%d}", verbs[g.n(len(verbs))], ki, o)
			if k.Ref == "mutex" {
				// Any mutex: a cond's own is the likelier, but another
				// one makes its Wait's unlock the runtime's fatal error.
				m := g.n(g.mutexes)
				act = fmt.Sprintf("{lock: m%d}, %s, {unlock: m%d}", m, act, m)
			}
			return act
		}
	}
}

// selectAction writes a select of up to four cases on the channels and
// time.After, with or without a default; now and then select {}.
func (g *soakGen) selectAction(inner func() string) string {
	if g.n(16) == 0 {
		return "{select: {}}"
	}
	var cases []string
	for range 1 + g.n(4) {
		var c string
		switch g.n(3) {
		case 0:
			c = fmt.Sprintf("recv: c%d", g.n(g.chans))
		case 1:
			c = fmt.Sprintf("send: c%d", g.n(g.chans))
		default:
			c = "after: " + g.dur()
		}
		if g.n(2) == 0 {
			c += ", do: [" + inner() + "]"
		}
		cases = append(cases, "{"+c+"}")
	}
	def := ""
	if g.n(3) == 0 {
		def = ", default: [" + inner() + "]"
	}
	return fmt.Sprintf("{select: {cases: [%s]%s}}", strings.Join(cases, ", "), def)
}
