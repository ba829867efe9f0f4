package export

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// perfetto writes sc's run as a trace. The built-ins that run until a
// time stop at 10ms: they write hundreds of thousands of slices by their
// end, and their first 10ms have every kind of record.
func perfetto(t *testing.T, sc *scenarios.Scenario) []byte {
	t.Helper()
	cfg := sc.Config()
	if cfg.Until > 10*time.Millisecond {
		cfg.Until = 10 * time.Millisecond
	}
	m, err := gmp.New(cfg, sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	p := NewPerfetto(&buf, sc.Name, m)
	Run(m, p)
	if err := p.End(m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// builtins returns every built-in scenario.
func builtins(t *testing.T) []*scenarios.Scenario {
	t.Helper()
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// Every built-in's trace keeps the trace-event format's rules (validate),
// has a slice track per P that ran a goroutine, a counter for every
// queue, and arrows, none from a slice to itself.
func TestPerfettoIsValid(t *testing.T) {
	for _, sc := range builtins(t) {
		st, errs := validate(perfetto(t, sc))
		for _, err := range errs {
			t.Errorf("%s: %v", sc.Name, err)
		}
		if st == nil {
			continue
		}
		if st.phases["X"] == 0 || st.phases["M"] == 0 || st.phases["C"] == 0 {
			t.Errorf("%s: phases %v: no slices, names or counters", sc.Name, st.phases)
		}
		if st.phases["B"]+st.phases["E"] != 0 {
			t.Errorf("%s: %d B and E records: slices are complete events", sc.Name, st.phases["B"]+st.phases["E"])
		}
		want := []string{"global queue/Gs", "idle Ps/Ps", "spinning Ms/Ms"}
		for p := range sc.Procs {
			want = append(want, "P"+strconv.Itoa(p)+" ring/Gs", "P"+strconv.Itoa(p)+" runnext/Gs")
		}
		for _, pl := range sc.Program().Pools {
			want = append(want, "pool "+pl.Name+" workers/busy", "pool "+pl.Name+" workers/idle", "pool "+pl.Name+" waiting/Gs")
		}
		for _, c := range want {
			if len(st.counters[c]) == 0 {
				t.Errorf("%s: no counter %s", sc.Name, c)
			}
		}
	}
}

// The counters follow the queues: at every instant of the run, each
// counter's last value is the length of its queue once the events of that
// instant are done, as the machine itself reports it after each step.
func TestPerfettoCountersFollowTheQueues(t *testing.T) {
	for _, name := range []string{"steal", "overflow", "spinning", "burst", "gosched", "netpoll"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := gmp.New(sc.Config(), sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		p := NewPerfetto(&buf, sc.Name, m)
		type truth struct {
			ts   float64
			vals map[string]float64
		}
		var want []truth
		read := func() map[string]float64 {
			v := map[string]float64{}
			for i := range m.Procs() {
				pp := m.P(gmp.PID(i))
				v["P"+strconv.Itoa(i)+" ring/Gs"] = float64(pp.RunqLen())
				next := 0.0
				if pp.Runnext != gmp.NoG {
					next = 1
				}
				v["P"+strconv.Itoa(i)+" runnext/Gs"] = next
			}
			v["global queue/Gs"] = float64(m.Sched().RunqLen())
			v["idle Ps/Ps"] = float64(m.Sched().Npidle)
			v["spinning Ms/Ms"] = float64(m.Sched().Nmspinning)
			for _, pl := range m.Pools() {
				v["pool "+pl.Decl.Name+" waiting/Gs"] = float64(pl.Waiters.Len())
				v["pool "+pl.Decl.Name+" workers/idle"] = float64(pl.IdleLen())
				v["pool "+pl.Decl.Name+" workers/busy"] = float64(pl.Running - pl.IdleLen())
			}
			return v
		}
		// The machine's queues after the last step at each instant.
		Run(m, afterStep{p, func() {
			ts := float64(m.Now()) / 1000
			if len(want) > 0 && want[len(want)-1].ts == ts {
				want[len(want)-1] = truth{ts, read()}
			} else {
				want = append(want, truth{ts, read()})
			}
		}})
		if err := p.End(m); err != nil {
			t.Fatal(err)
		}
		st, errs := validate(buf.Bytes())
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		bad := 0
		for key, recs := range st.counters {
			k := 0
			for _, w := range want {
				for k+1 < len(recs) && recs[k+1].ts <= w.ts {
					k++
				}
				if recs[k].ts > w.ts || recs[k].v != w.vals[key] {
					if bad++; bad <= 5 {
						t.Errorf("%s: at %vµs %s is %v in the trace, %v in the machine", name, w.ts, key, recs[k].v, w.vals[key])
					}
				}
			}
		}
		// And a queue that changes is written each time: steal's P0 ring
		// fills to 63 and is stolen from and drained to 0.
		if name == "steal" {
			ring := st.counters["P0 ring/Gs"]
			peak := 0.0
			for _, r := range ring {
				peak = max(peak, r.v)
			}
			if peak < 32 || ring[len(ring)-1].v != 0 || len(st.counters["P1 ring/Gs"]) < 3 {
				t.Errorf("steal: P0's ring peaks at %v and ends at %v; P1's ring has %d records", peak, ring[len(ring)-1].v, len(st.counters["P1 ring/Gs"]))
			}
		}
	}
}

// The trace's arrows go from what woke a goroutine to its next run: in
// steal, from main's run to each goroutine's first run; in pingpong, from
// each player's run to the other's. None starts and ends in one slice.
func TestPerfettoFlowsFollowWakeups(t *testing.T) {
	for _, c := range []struct {
		name string
		// from, to say which goroutines a flow may join.
		ok  func(from, to string) bool
		min int
	}{
		{"steal", func(from, to string) bool { return from == "G1" && to != "G1" }, 60},
		{"pingpong", func(from, to string) bool { return from != to }, 10},
		{"timer-2p", func(from, to string) bool { return true }, 1},
	} {
		sc, err := scenarios.Load(c.name)
		if err != nil {
			t.Fatal(err)
		}
		st, errs := validate(perfetto(t, sc))
		if len(errs) > 0 {
			t.Fatalf("%s: %v", c.name, errs)
		}
		if len(st.flows) < c.min {
			t.Errorf("%s: %d flows, want at least %d", c.name, len(st.flows), c.min)
		}
		for _, f := range st.flows {
			if !c.ok(f.from.name, f.to.name) || strings.HasSuffix(f.to.name, "syscall") {
				t.Errorf("%s: a flow from %s (%v) to %s (%v)", c.name, f.from.name, f.from.begin, f.to.name, f.to.begin)
			}
		}
	}
}

// afterStep is an exporter that also calls f after each step.
type afterStep struct {
	*Perfetto
	f func()
}

func (a afterStep) AfterStep() {
	a.Perfetto.AfterStep()
	a.f()
}
