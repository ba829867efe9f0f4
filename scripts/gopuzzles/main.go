// Command gopuzzles holds the model's answer to each published puzzle
// the Go front end reads (core/gofront/testdata/puzzles) against the
// runtime's, on this machine: it builds the puzzle's main.go as it is,
// runs it -runs times, each run a fresh process whose standard output
// and standard error go to one pipe (print and println write to
// standard error, and the model has one output), and runs the model
// over the noise seeds 1 to -seeds, from a cold start and from a warm
// one (a real program always starts warm). It prints each side's
// outputs with how often each came, the machine's load before and after
// the real runs, and whether the runtime's commonest output is the
// model's.
//
//	go run ./scripts/gopuzzles                       # every puzzle that translates
//	go run ./scripts/gopuzzles -runs 20 core/gofront/testdata/puzzles/tour-goroutines.go
//
// An output is compared without its line breaks: fmt.Print(n) writes
// "321" where the model prints the lines 3, 2 and 1. How many lines each
// printed is tallied too, for puzzles whose order is noise but whose
// length is the question (does main return before the last world?). A
// run that has not ended after -timeout is killed, and its output is
// "hung".
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/gofront"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

func main() {
	runs := flag.Int("runs", 10, "real runs of each puzzle")
	seeds := flag.Int("seeds", 10, "noise seeds of the model, 1 to N")
	timeout := flag.Duration("timeout", 10*time.Second, "how long a real run may take before it counts as hung")
	probe.SetUsage("gopuzzles [-runs N] [-seeds N] [-timeout D] [PUZZLE.go ...]")
	flag.Parse()
	if *runs < 1 || *seeds < 1 {
		probe.BadUsage()
	}
	files := flag.Args()
	if len(files) == 0 {
		var err error
		files, err = filepath.Glob("core/gofront/testdata/puzzles/*.go")
		if err != nil || len(files) == 0 {
			fmt.Fprintln(os.Stderr, "gopuzzles: no puzzles: run it from the repository's root, or name them")
			os.Exit(2)
		}
	}
	agree, compared := 0, 0
	for _, f := range files {
		ok, err := puzzle(f, *runs, *seeds, *timeout)
		switch {
		case errors.Is(err, errRefused):
			fmt.Printf("%s: not read (%v)\n\n", filepath.Base(f), strings.SplitN(err.Error(), "\n", 2)[0])
			continue
		case err != nil:
			fmt.Fprintf(os.Stderr, "gopuzzles: %s: %v\n", f, err)
			os.Exit(1)
		}
		compared++
		if ok {
			agree++
		}
	}
	fmt.Printf("%d of %d puzzles read give the runtime's commonest output as the model's commonest (cold start, noise)\n", agree, compared)
}

var errRefused = errors.New("the front end refuses it")

// puzzle runs one puzzle both ways and prints what each gave; ok is
// whether the runtime's commonest output is the cold model's commonest.
func puzzle(file string, runs, seeds int, timeout time.Duration) (bool, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return false, err
	}
	sc, err := gofront.Translate(filepath.Base(file), src, gofront.Options{})
	if err != nil {
		return false, fmt.Errorf("%w: %v", errRefused, err)
	}
	cold, warm, coldLines := tally{}, tally{}, tally{}
	for seed := 1; seed <= seeds; seed++ {
		for _, w := range []bool{false, true} {
			cfg := sc.Config()
			cfg.Seed, cfg.Noise, cfg.WarmStart = uint64(seed), true, w
			out, lines, err := model(sc.Program(), cfg)
			if err != nil {
				return false, err
			}
			if w {
				warm.add(out)
			} else {
				cold.add(out)
				coldLines.add(fmt.Sprint(lines))
			}
		}
	}
	bin, cleanup, err := build(file, src)
	if err != nil {
		return false, err
	}
	defer cleanup()
	before := probe.Loadavg()
	real, realLines := tally{}, tally{}
	for range runs {
		out, lines := run(bin, timeout)
		real.add(out)
		realLines.add(fmt.Sprint(lines))
	}
	after := probe.Loadavg()
	fmt.Printf("%s: procs %d, %s, %d real runs (load %s → %s), model seeds 1-%d with noise\n",
		filepath.Base(file), sc.Procs, runtime.Version(), runs, before, after, seeds)
	fmt.Printf("  real:       %s\n", real)
	fmt.Printf("  model cold: %s\n", cold)
	fmt.Printf("  model warm: %s\n", warm)
	fmt.Printf("  lines:      real %s; model cold %s\n", realLines, coldLines)
	ok := real.top() == cold.top()
	fmt.Printf("  commonest: real %q, model cold %q, warm %q: %s\n\n", clip(real.top()), clip(cold.top()), clip(warm.top()), agreeWord(ok))
	return ok, nil
}

func agreeWord(ok bool) string {
	if ok {
		return "the same"
	}
	return "DIFFERENT"
}

// model runs the program once and returns what it printed, without line
// breaks, or how it ended when that was not main returning, and how
// many lines it printed.
func model(p *gmp.Program, cfg gmp.Config) (string, int, error) {
	m, err := gmp.New(cfg, p)
	if err != nil {
		return "", 0, err
	}
	end := m.Run()
	lines, n := m.Output()
	if n > len(lines) {
		return "", 0, fmt.Errorf("the model printed %d lines, more than the %d it keeps", n, len(lines))
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
	}
	if end.Reason != gmp.MainReturned {
		b.WriteString(" (" + end.Reason.String() + ")")
	}
	return b.String(), n, nil
}

// build compiles the puzzle as its own module, in a temporary folder.
func build(file string, src []byte) (string, func(), error) {
	dir, err := os.MkdirTemp("", "gopuzzle-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	mod := "module puzzle\n\ngo 1.26\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		cleanup()
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		cleanup()
		return "", nil, err
	}
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", "puzzle", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			cleanup()
			return "", nil, fmt.Errorf("go %s %s: %v\n%s", args[0], file, err, out)
		}
	}
	return filepath.Join(dir, "puzzle"), cleanup, nil
}

// run runs the built puzzle once, as a fresh process, and returns its
// output without line breaks, and how many lines it wrote (a last line
// without a line break counts).
func run(bin string, timeout time.Duration) (string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	text := strings.ReplaceAll(out.String(), "\n", "")
	lines := strings.Count(strings.TrimSuffix(out.String(), "\n"), "\n")
	if out.Len() > 0 {
		lines++
	}
	switch {
	case ctx.Err() != nil:
		return text + " (hung)", lines
	case err != nil:
		return text + " (" + err.Error() + ")", lines
	}
	return text, lines
}

// tally counts outputs, in the order they first came.
type tally struct {
	order []string
	n     map[string]int
}

func (t *tally) add(s string) {
	if t.n == nil {
		t.n = map[string]int{}
	}
	if t.n[s] == 0 {
		t.order = append(t.order, s)
	}
	t.n[s]++
}

// top is the commonest output (the first to come, of equals).
func (t tally) top() string {
	best := ""
	for _, s := range t.order {
		if best == "" || t.n[s] > t.n[best] {
			best = s
		}
	}
	return best
}

func (t tally) String() string {
	order := slices.Clone(t.order)
	slices.SortStableFunc(order, func(a, b string) int { return t.n[b] - t.n[a] })
	var parts []string
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("%d× %q", t.n[s], clip(s)))
	}
	return strings.Join(parts, ", ")
}

func clip(s string) string {
	if len(s) > 70 {
		return s[:67] + "..."
	}
	return s
}
