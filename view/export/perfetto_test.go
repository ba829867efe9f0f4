package export

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// perfetto writes sc's run as a trace.
func perfetto(t *testing.T, sc *scenarios.Scenario) []byte {
	t.Helper()
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	p := NewPerfetto(&buf, sc.Name, sc.Program(), sc.Procs)
	m.SetSink(p.Event)
	m.Run()
	if err := p.End(m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// On every built-in the trace is JSON in the trace-event format: each
// record has the fields its phase needs, every slice that begins ends on
// its track, and every flow has both ends.
func TestPerfettoIsValid(t *testing.T) {
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		var recs []map[string]any
		if err := json.Unmarshal(perfetto(t, sc), &recs); err != nil {
			t.Fatalf("%s: not JSON: %v", sc.Name, err)
		}
		open := map[float64]int{}
		flows := map[float64]string{}
		phases := map[string]int{}
		for i, r := range recs {
			ph, _ := r["ph"].(string)
			phases[ph]++
			tid, okTid := r["tid"].(float64)
			_, okTs := r["ts"].(float64)
			if !okTid || !okTs || r["pid"] != float64(1) {
				t.Fatalf("%s: record %d lacks pid, tid or ts: %v", sc.Name, i, r)
			}
			name, _ := r["name"].(string)
			switch ph {
			case "B":
				open[tid]++
				if name == "" {
					t.Errorf("%s: a slice without a name: %v", sc.Name, r)
				}
			case "E":
				if open[tid]--; open[tid] < 0 {
					t.Fatalf("%s: record %d ends a slice never begun on track %v", sc.Name, i, tid)
				}
			case "i", "M", "C":
				if name == "" || r["args"] == nil && ph != "i" {
					t.Errorf("%s: %s record without a name or args: %v", sc.Name, ph, r)
				}
			case "s", "f":
				id := r["id"].(float64)
				flows[id] += ph
			default:
				t.Fatalf("%s: unknown phase %q", sc.Name, ph)
			}
		}
		for tid, n := range open {
			if n != 0 {
				t.Errorf("%s: %d slices left open on track %v", sc.Name, n, tid)
			}
		}
		for id, ends := range flows {
			if ends != "sf" {
				t.Errorf("%s: flow %v has ends %q", sc.Name, id, ends)
			}
		}
		if phases["B"] == 0 || phases["s"] == 0 || phases["M"] == 0 {
			t.Errorf("%s: phases %v: no slices, flows or names", sc.Name, phases)
		}
	}
}
