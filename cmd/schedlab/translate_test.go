package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

const pingPongGo = `package main

import (
	"runtime"
	"time"
)

func player(in, out chan int, rounds int) {
	for range rounds {
		<-in
		time.Sleep(100 * time.Microsecond)
		out <- 1
	}
}

func main() {
	runtime.GOMAXPROCS(1)
	ping := make(chan int)
	pong := make(chan int)
	go player(ping, pong, 3)
	for range 3 {
		ping <- 1
		<-pong
	}
}
`

// translate prints the scenario a Go program gives, as YAML that reads
// back into the same program; run and check take the .go file itself.
func TestTranslateGoProgram(t *testing.T) {
	file := writeScenario(t, "main.go", pingPongGo)
	code, out, errOut := cli(t, "translate", file)
	if code != 0 {
		t.Fatalf("translate: exit %d, %s", code, errOut)
	}
	for _, want := range []string{"procs: 1\n", "chans:\n  ping: 0  # " + file + ":18:10\n", "  - go:  # " + file + ":20:2\n", "- recv: ping  # " + file + ":10:3\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("translate's YAML has no %q:\n%s", want, out)
		}
	}
	back, err := scenarios.Parse("main.yaml", []byte(out))
	if err != nil {
		t.Fatalf("the YAML does not parse: %v", err)
	}
	yamlFile := writeScenario(t, "main.yaml", out)
	if code, _, errOut := cli(t, "run", yamlFile); code != 0 {
		t.Fatalf("run main.yaml: exit %d, %s", code, errOut)
	}
	_, fromYAML, _ := cli(t, "run", yamlFile)
	code, fromGo, errOut := cli(t, "run", file)
	if code != 0 {
		t.Fatalf("run main.go: exit %d, %s", code, errOut)
	}
	if fromGo != fromYAML || !strings.Contains(fromGo, "G2 sends on channel pong to G1") {
		t.Errorf("run main.go and run of its YAML differ:\n%s\n---\n%s", fromGo, fromYAML)
	}
	if back.Procs != 1 || len(back.Chans) != 2 {
		t.Errorf("read back: procs %d, chans %v", back.Procs, back.Chans)
	}
	if code, out, errOut := cli(t, "check", file); code != 0 || !strings.Contains(out, file+": ok (main returned") {
		t.Errorf("check main.go: exit %d, %s%s", code, out, errOut)
	}
}

// The JSON trace points each event at the Go line that caused it.
func TestGoEventsPointAtTheGoLine(t *testing.T) {
	file := writeScenario(t, "main.go", pingPongGo)
	code, out, errOut := cli(t, "run", file, "--format", "jsonl")
	if code != 0 {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	if !strings.Contains(out, `"src":"`+filepath.ToSlash(file)+`:20:2"`) {
		t.Errorf("no event points at the go statement (%s:20:2):\n%s", file, out[:min(len(out), 2000)])
	}
}

// check lists every construct outside the subset, each at its line, and
// translate refuses the file with the same list (exit 2).
func TestGoCheckListsEveryRefusal(t *testing.T) {
	file := writeScenario(t, "bad.go", `package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	ch := make(chan int)
	go func() { ch <- 1 }()
	n := <-ch
	for i := 0; i < n; i++ {
		mu.Lock()
		mu.Unlock()
	}
	_ = mu.TryLock()
	fmt.Println("done", n)
}
`)
	for _, cmd := range []string{"check", "translate", "run"} {
		code, out, errOut := cli(t, cmd, file)
		if code != 2 || out != "" {
			t.Errorf("%s: exit %d, stdout %q; want 2 and nothing", cmd, code, out)
		}
		for _, want := range []string{
			file + ":13:2: a loop bound that depends on a value received from channel ch (" + file + ":12:7) cannot be evaluated",
			file + ":17:6: TryLock's result is decided as the program runs",
			file + ":18:22: a printed value that depends on a value received from channel ch (" + file + ":12:7) cannot be evaluated",
		} {
			if !strings.Contains(errOut, want) {
				t.Errorf("%s does not say %q:\n%s", cmd, want, errOut)
			}
		}
	}
}

// A Go program on standard input is read as Go.
func TestGoFromStandardInput(t *testing.T) {
	old := stdin
	t.Cleanup(func() { stdin = old })
	stdin = strings.NewReader(pingPongGo)
	if code, out, errOut := cli(t, "translate", "-"); code != 0 || !strings.Contains(out, "ping: 0  # <stdin>:18:10") {
		t.Errorf("translate -: exit %d, %s%s", code, out, errOut)
	}
	stdin = strings.NewReader(pingPongGo)
	if code, out, errOut := cli(t, "check", "-"); code != 0 || !strings.Contains(out, "<stdin>: ok") {
		t.Errorf("check -: exit %d, %s%s", code, out, errOut)
	}
}

// translate takes a Go program and flags it checks.
func TestTranslateUsage(t *testing.T) {
	file := writeScenario(t, "main.go", "package main\n\nfunc main() {\n\tfor range 6000 {\n\t}\n}\n")
	rated := writeScenario(t, "rated.go", "package main\n\n//schedlab:cpu-rate=1200\n\nfunc main() {\n\tfor range 6000 {\n\t}\n}\n")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"translate", "runnext"}, 2, "translate reads a Go program"},
		{[]string{"translate", file, "--cpu-rate", "0"}, 2, "--cpu-rate 0: want busy-loop iterations per microsecond"},
		{[]string{"translate", file, "--cpu-rate", "3000"}, 0, "- cpu: 2us"},
		{[]string{"translate", file}, 0, "- cpu: 10us"},
		{[]string{"translate", rated}, 0, "- cpu: 5us"},
		{[]string{"translate", rated, "--cpu-rate", "3000"}, 0, "- cpu: 2us"},
		{[]string{"translate", filepath.Join(t.TempDir(), "none.go")}, 2, "cannot read Go program"},
	} {
		code, out, errOut := cli(t, c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%v: exit %d, %s%s; want %d and %q", c.args, code, out, errOut, c.code, c.want)
		}
	}
}

// A handout of a Go program shows its source as Go, opened by its file.
func TestGoHandoutShowsGoSource(t *testing.T) {
	file := writeScenario(t, "main.go", pingPongGo)
	code, out, errOut := cli(t, "export", file, "--format", "md")
	if code != 0 {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	if !strings.Contains(out, "```go\npackage main\n") || !strings.Contains(out, "`schedlab tui "+file+"`") {
		t.Errorf("the handout does not show the Go source, opened by its file:\n%s", out[:min(len(out), 600)])
	}
}
