package tracelog

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

// Sentences go into the JSON lines untested when the scenario's names need
// no escaping (Writer.plainJSON); a name that does makes the writer test
// and escape every sentence, so each line still reads back as JSON with
// the name whole.
func TestJSONLinesEscapeNames(t *testing.T) {
	const name = "c\"\\\x1b]0;t\a\u009b\u202e"
	sc, err := scenarios.Parse("names.yaml", []byte(`procs: 1
chans: {c: 0}
main:
  - go: {do: [{send: c}]}
  - recv: c
`))
	if err != nil {
		t.Fatal(err)
	}
	// The parser refuses such names; a scenario built in code can still
	// carry them.
	sc.Chans[0].Name = name
	var out bytes.Buffer
	if _, _, err := Run(sc, Options{Format: JSONL}, &out); err != nil {
		t.Fatal(err)
	}
	found := false
	for line := range strings.Lines(out.String()) {
		var rec struct{ Why, From, To string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		found = found || strings.Contains(rec.Why, "channel "+name) || strings.Contains(rec.To, "chan:"+name)
		if strings.ContainsAny(line, "\x1b\a\u009b\u202e") {
			t.Fatalf("a line holds a control character raw: %q", line)
		}
	}
	if !found {
		t.Errorf("no line names the channel:\n%s", out.String())
	}
}
