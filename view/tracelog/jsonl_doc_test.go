package tracelog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// Every line of every built-in's JSON lines, schedtrace included, is one
// JSON object, and docs/jsonl.md documents every kind and field written,
// and every kind the model declares, whether a built-in emits it or not:
// its list of event kinds reads exactly as gmp.Kinds() gives it. Declare
// a kind in core/gmp/events.go and leave docs/jsonl.md alone, and this
// fails with the line to paste ("docs/jsonl.md's list of event kinds is
// not the model's; it should read: Kinds: `go-create`, …").
func TestJSONLIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/jsonl.md")
	if err != nil {
		t.Fatal(err)
	}
	all, err := scenarios.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	fields, kinds := map[string]bool{}, map[string]bool{}
	// The records that are not events, each with its section.
	records := []string{"note", "note-unreached", "schedtrace", "end"}
	for _, sc := range all {
		var out bytes.Buffer
		// The two runs that stop at until: write half a million lines
		// each by then; their first 10ms have every kind they write.
		opts := Options{Format: JSONL, SchedTrace: 5 * time.Millisecond}
		if sc.Until > 10*time.Millisecond {
			opts.Until = 10 * time.Millisecond
		}
		if _, _, err := Run(sc, opts, &out); err != nil {
			t.Fatal(err)
		}
		sc2 := *sc
		sc2.Notes = append(sc2.Notes, scenarios.Note{Moment: gmp.Moment{At: time.Hour, HasAt: true}, Text: "never"})
		if _, _, err := Run(&sc2, Options{Format: JSONL, Overrides: opts.Overrides}, &out); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(&out)
		lines.Buffer(nil, 1<<20)
		for n := 1; lines.Scan(); n++ {
			// Raw values: only the names are needed, and the two long
			// built-ins write over a million lines between them.
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(lines.Bytes(), &obj); err != nil {
				t.Fatalf("%s line %d is not a JSON object: %v\n%s", sc.Name, n, err, lines.Text())
			}
			var kind string
			if err := json.Unmarshal(obj["kind"], &kind); err != nil {
				t.Fatalf("%s line %d has no kind: %v\n%s", sc.Name, n, err, lines.Text())
			}
			kinds[kind] = true
			for k, v := range obj {
				fields[k] = true
				if len(v) > 0 && v[0] == '[' {
					var list []map[string]json.RawMessage
					if err := json.Unmarshal(v, &list); err != nil {
						t.Fatalf("%s line %d: %s is not a list of objects: %v", sc.Name, n, k, err)
					}
					for _, item := range list {
						for k := range item {
							fields[k] = true
						}
					}
				}
			}
		}
	}
	for _, want := range append(records, "steal") {
		if !kinds[want] {
			t.Errorf("no built-in wrote a %s record", want)
		}
	}
	var declared []string
	for _, k := range gmp.Kinds() {
		declared = append(declared, "`"+k.String()+"`")
	}
	list := "Kinds: " + strings.Join(declared, ", ") + "."
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), list) {
		t.Errorf("docs/jsonl.md's list of event kinds is not the model's; it should read:\n%s", list)
	}
	for k := range kinds {
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("docs/jsonl.md does not name the kind %q", k)
		}
		if _, model := gmp.ParseKind(k); !model && !slices.Contains(records, k) {
			t.Errorf("a built-in wrote a record of kind %q, which is neither an event kind the model declares nor one of the records %v", k, records)
		}
	}
	// Every way a run can end is named among the end record's reasons,
	// including those no built-in reaches (the event and century limits).
	for _, r := range gmp.EndReasons() {
		if !strings.Contains(string(doc), "`"+r.String()+"`") {
			t.Errorf("docs/jsonl.md does not name the end reason %q", r)
		}
	}
	for f := range fields {
		if !strings.Contains(string(doc), "| `"+f+"` |") && !strings.Contains(string(doc), "`"+f+"`") {
			t.Errorf("docs/jsonl.md does not document the field %q", f)
		}
	}
}
