package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// speedscopeVersion is the speedscope the check imports with: the script
// patches its bundle, so another version must be looked at first.
const speedscopeVersion = "1.25.0"

// A second consumer reads every built-in's trace, a runtime trace's and
// the model's beside a real run: speedscope, installed from the npm
// registry into a temporary folder and run by node, imports each with its
// own trace-event importer into one profile per P (of each process) that
// ran a goroutine, with no warning: no slice it cannot end, none left
// open. Without node and npm the check is skipped (.ci/run installs
// them); on CI, a failed install fails it.
func TestPerfettoInSpeedscope(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: speedscope is installed from the npm registry")
	}
	node, errNode := exec.LookPath("node")
	npm, errNpm := exec.LookPath("npm")
	if errNode != nil || errNpm != nil {
		t.Skip("node or npm is not installed, so speedscope does not check the traces (.ci/run installs nodejs and npm)")
	}
	dir := t.TempDir()
	install := exec.Command(npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, "speedscope@"+speedscopeVersion)
	if out, err := install.CombinedOutput(); err != nil {
		msg := "npm could not install speedscope: " + err.Error() + "\n" + string(out)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	want := map[string]int{}
	files := []string{}
	add := func(name string, data []byte) {
		st, errs := validate(data)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		file := filepath.Join(dir, name+".json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
		want[name+".json"] = len(st.slices)
	}
	for _, sc := range builtins(t) {
		add(sc.Name, perfetto(t, sc))
	}
	// A runtime trace's export, and the model beside it: a profile per P
	// of each process.
	run, _ := smallTrace(t)
	var buf bytes.Buffer
	if err := WriteRecordedPerfetto(&buf, run.Label, run); err != nil {
		t.Fatal(err)
	}
	add("small-trace", bytes.Clone(buf.Bytes()))
	sc, err := scenarios.Load("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := gmp.New(sc.Config(), sc.Program())
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	p := NewPerfettoVersus(&buf, sc.Name, m, run.Label, run)
	Run(m, p)
	if err := p.End(m); err != nil {
		t.Fatal(err)
	}
	add("small-vs-real", buf.Bytes())
	script, err := filepath.Abs("testdata/speedscope_import.cjs")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, append([]string{script, filepath.Join(dir, "node_modules", "speedscope")}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	seen := 0
	lines := bufio.NewScanner(bytes.NewReader(out))
	for lines.Scan() {
		var r struct {
			File      string   `json:"file"`
			Profiles  []string `json:"profiles"`
			Warnings  []string `json:"warnings"`
			NWarnings int      `json:"nwarnings"`
		}
		if err := json.Unmarshal(lines.Bytes(), &r); err != nil {
			t.Fatalf("%v: %s", err, lines.Bytes())
		}
		seen++
		if len(r.Profiles) != want[r.File] || want[r.File] == 0 {
			t.Errorf("%s: speedscope made %d profiles %q, want one per P that ran a goroutine, %d", r.File, len(r.Profiles), r.Profiles, want[r.File])
		}
		if r.NWarnings > 0 {
			t.Errorf("%s: speedscope warned %d times: %q", r.File, r.NWarnings, r.Warnings)
		}
	}
	if seen != len(files) {
		t.Errorf("speedscope reported on %d files of %d", seen, len(files))
	}
}
