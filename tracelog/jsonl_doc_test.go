package tracelog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/gmp"
	"github.com/schedlab/schedlab/scenarios"
)

// Every line of every built-in's JSON lines, schedtrace included, is one
// JSON object, and docs/jsonl.md documents every kind and field written.
func TestJSONLIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/jsonl.md")
	if err != nil {
		t.Fatal(err)
	}
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	fields, kinds := map[string]bool{}, map[string]bool{}
	for _, sc := range all {
		var out bytes.Buffer
		if _, _, err := Run(sc, Options{Format: JSONL, SchedTrace: 5 * time.Millisecond}, &out); err != nil {
			t.Fatal(err)
		}
		sc2 := *sc
		sc2.Notes = append(sc2.Notes, scenarios.Note{Moment: gmp.Moment{At: time.Hour, HasAt: true}, Text: "never"})
		if _, _, err := Run(&sc2, Options{Format: JSONL}, &out); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(&out)
		lines.Buffer(nil, 1<<20)
		for n := 1; lines.Scan(); n++ {
			var obj map[string]any
			if err := json.Unmarshal(lines.Bytes(), &obj); err != nil {
				t.Fatalf("%s line %d is not a JSON object: %v\n%s", sc.Name, n, err, lines.Text())
			}
			kinds[obj["kind"].(string)] = true
			for k, v := range obj {
				fields[k] = true
				if list, ok := v.([]any); ok {
					for _, item := range list {
						for k := range item.(map[string]any) {
							fields[k] = true
						}
					}
				}
			}
		}
	}
	for _, want := range []string{"note", "note-unreached", "schedtrace", "end", "steal"} {
		if !kinds[want] {
			t.Errorf("no built-in wrote a %s record", want)
		}
	}
	for k := range kinds {
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("docs/jsonl.md does not name the kind %q", k)
		}
	}
	for f := range fields {
		if !strings.Contains(string(doc), "| `"+f+"` |") && !strings.Contains(string(doc), "`"+f+"`") {
			t.Errorf("docs/jsonl.md does not document the field %q", f)
		}
	}
}
