package tracelog

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// A run stopped by the model's clock says so in the text end line and in
// the JSONL end record, not "event limit". The horizon is lowered to an
// hour here (gmp's TestCenturyLimitIsItsOwnEnd runs the real century):
// the end is worded the same, and a century of events is too many to
// write out.
func TestCenturyLimitEndLine(t *testing.T) {
	sc, err := scenarios.Parse("century.yaml", []byte("procs: 1\nmain:\n  - loop: {times: 200, do: [{sleep: 8760h}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{Text, JSONL, None} {
		cfg := Options{Format: f}.Config(sc)
		cfg.Horizon = time.Hour
		m, err := gmp.New(cfg, sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		w := New(&out, f, gmp.NewDescriber(sc.Program()), sc.Notes)
		w.Events = f != None
		m.SetSink(w.Event)
		end := m.Run()
		if err := w.End(m, sc.AsExpected(end)); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		last := lines[len(lines)-1]
		if f == JSONL {
			var rec struct {
				Kind, Reason, Error string
			}
			if err := json.Unmarshal([]byte(last), &rec); err != nil {
				t.Fatalf("last JSONL line: %v\n%s", err, last)
			}
			if rec.Kind != "end" || rec.Reason != "century limit" || !strings.Contains(rec.Error, "century") {
				t.Errorf("JSONL end record: %s", last)
			}
			continue
		}
		if !strings.HasPrefix(last, "# end: century limit at ") {
			t.Errorf("format %d end line: %s", f, last)
		}
	}
}
