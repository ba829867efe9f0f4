package tracelog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

// A JSON line's cause is an event's number counted from 1, as the UI and
// the handout count: the event it names is about the same goroutine (a
// go-start's cause made that goroutine runnable, a preemption's asked
// it to stop), which an off-by-one would break.
func TestJSONLCauseCountsFromOne(t *testing.T) {
	for _, name := range []string{"steal", "pingpong", "preempt"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if _, _, err := Run(sc, Options{Format: JSONL}, &out); err != nil {
			t.Fatal(err)
		}
		type rec struct {
			Kind  string `json:"kind"`
			G     *int   `json:"g"`
			Cause *int   `json:"cause"`
		}
		events := []rec{{}} // events[n] is event n; there is no event 0
		lines := bufio.NewScanner(&out)
		for lines.Scan() {
			var r rec
			if err := json.Unmarshal(lines.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			switch r.Kind {
			case "note", "note-unreached", "schedtrace", "end":
				continue
			}
			events = append(events, r)
		}
		checked := 0
		for n, r := range events[1:] {
			if r.Cause == nil || r.Kind != "go-start" {
				continue
			}
			c := *r.Cause
			if c < 1 || c > n {
				t.Fatalf("%s: event %d (%s) names cause %d, outside 1..%d", name, n+1, r.Kind, c, n)
			}
			if cause := events[c]; cause.G == nil || *cause.G != *r.G {
				t.Errorf("%s: event %d starts G%d, but its cause, event %d, is a %s of another goroutine", name, n+1, *r.G, c, cause.Kind)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("%s: no go-start has a cause", name)
		}
	}
}
