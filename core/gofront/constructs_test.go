package gofront

import (
	"errors"
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

var update = flag.Bool("update", false, "rewrite docs/go-subset.md's table from the front end's")

// txtarFile is one file of a txtar archive.
type txtarFile struct {
	name string
	data string
}

// readTxtar reads the simple archive format of golang.org/x/tools/txtar:
// "-- name --" lines start files.
func readTxtar(t *testing.T, path string) []txtarFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseTxtar(string(data))
}

func parseTxtar(data string) []txtarFile {
	var out []txtarFile
	for _, line := range strings.SplitAfter(data, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") {
			out = append(out, txtarFile{name: strings.TrimSpace(trimmed[3 : len(trimmed)-3])})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].data += line
		}
	}
	return out
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slug is a row's ID as a case's name: "time.Sleep" is time-sleep.
func slug(id string) string {
	return strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(id), "-"), "-")
}

// caseWant is what a case expects: the scenario (the YAML from procs:
// on, without position comments), or errors, each "line:col: text".
type caseWant struct {
	yaml   string
	errors []string
}

func parseWant(src string) caseWant {
	var w caseWant
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, "// want error: "); ok {
			w.errors = append(w.errors, rest)
		}
		if l == "// want:" {
			var b strings.Builder
			for _, y := range lines[i+1:] {
				if y, ok := strings.CutPrefix(y, "// "); ok {
					b.WriteString(y + "\n")
				}
			}
			w.yaml = b.String()
			break
		}
	}
	return w
}

// scenarioText is YAML(sc) from procs: on, without comments.
func scenarioText(sc *scenarios.Scenario) string {
	var b strings.Builder
	for _, l := range strings.Split(string(YAML(sc)), "\n") {
		if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "name:") || strings.HasPrefix(l, "title:") || l == "" {
			continue
		}
		if i := strings.Index(l, "  # "); i >= 0 {
			l = l[:i]
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// checkCase translates a case and holds it to its want.
func checkCase(t *testing.T, name, src string) {
	t.Helper()
	want := parseWant(src)
	if want.yaml == "" && len(want.errors) == 0 {
		t.Fatalf("%s has no // want: or // want error: lines", name)
	}
	sc, err := Translate("main.go", []byte(src), Options{})
	if len(want.errors) == 0 {
		if err != nil {
			t.Fatalf("%s: want a scenario, got:\n%v", name, err)
		}
		if got := scenarioText(sc); got != want.yaml {
			t.Errorf("%s gives\n%s\nwant\n%s", name, got, want.yaml)
		}
		return
	}
	var list scenarios.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("%s: want %d errors, got %v", name, len(want.errors), err)
	}
	var got []string
	for _, e := range list {
		got = append(got, strings.TrimPrefix(e.Error(), "main.go:"))
	}
	for _, w := range want.errors {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("%s: no error %q among:\n%s", name, w, strings.Join(got, "\n"))
		}
	}
	if len(got) != len(want.errors) {
		t.Errorf("%s: %d errors, want %d:\n%s", name, len(got), len(want.errors), strings.Join(got, "\n"))
	}
}

// Every row of the table has a case, every case belongs to a row, and
// each gives what it says: the scenario, or the refusal at its line.
func TestGoConstructs(t *testing.T) {
	files := readTxtar(t, "testdata/constructs.txtar")
	cases := map[string]bool{}
	for _, f := range files {
		base, _, _ := strings.Cut(f.name, ".")
		cases[base] = true
		t.Run(f.name, func(t *testing.T) { checkCase(t, f.name, f.data) })
	}
	rows := map[string]bool{}
	for _, c := range Constructs() {
		rows[slug(c.ID)] = true
		if !cases[slug(c.ID)] {
			t.Errorf("row %q has no case %s in testdata/constructs.txtar", c.ID, slug(c.ID))
		}
	}
	for name := range cases {
		if !rows[name] {
			t.Errorf("case %s names no row of the table", name)
		}
	}
}

// docs/go-subset.md holds the table as the front end has it.
func TestGoSubsetDoc(t *testing.T) {
	const path = "../../docs/go-subset.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- constructs: generated from core/gofront's table; go test ./core/gofront -run GoSubsetDoc -update -->\n", "<!-- end of constructs -->\n"
	doc := string(data)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no generated table between %q and %q", path, begin, end)
	}
	table := Markdown()
	if doc[i+len(begin):j] == table {
		return
	}
	if !*update {
		t.Fatalf("%s's table is stale: go test ./core/gofront -run GoSubsetDoc -update", path)
	}
	if err := os.WriteFile(path, []byte(doc[:i+len(begin)]+table+doc[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
