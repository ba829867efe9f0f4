// Package probe holds what the probes under scripts/ share. A probe is a
// program that measures the real runtime, not the model: each run is a
// fresh process (the program runs itself again, a variable in its
// environment marking the child), so that no goroutine, timer or thread
// of one run outlives it into the next, and the machine's load is
// recorded beside the figures, which depend on it.
package probe

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
)

// Loadavg is the 1-, 5- and 15-minute load averages from /proc/loadavg,
// or "unknown" where there is none.
func Loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// RunsFlag defines -runs, the number of fresh processes, 10 unless told.
func RunsFlag() *int {
	return flag.Int("runs", 10, "how many runs, each a fresh process")
}

// SetUsage makes the usage "usage: " and line, then the flags.
func SetUsage(line string) {
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: %s\n", line)
		flag.PrintDefaults()
	}
}

// BadUsage prints the usage and exits 2, the status of a usage error.
func BadUsage() {
	flag.Usage()
	os.Exit(2)
}

// CheckRuns exits 2, saying why, unless runs is at least 1.
func CheckRuns(prog string, runs int) {
	if runs < 1 {
		fmt.Fprintf(os.Stderr, "%s: -runs must be at least 1\n", prog)
		os.Exit(2)
	}
}

// Pick reads the one argument, the name of one of choices (kind says
// what they are), and returns it with its choice; anything else is a
// usage error.
func Pick[T any](prog, kind string, choices map[string]T) (string, T) {
	if flag.NArg() != 1 {
		BadUsage()
	}
	name := flag.Arg(0)
	c, ok := choices[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "%s: no %s %q\n", prog, kind, name)
		BadUsage()
	}
	return name, c
}

// Fail prints prog's error and exits 1.
func Fail(prog string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", prog, err)
	os.Exit(1)
}

// Report is a child's answer to its parent: the figure, a tab, and the
// line the parent prints for the run.
func Report(figure float64, line string) {
	fmt.Printf("%g\t%s\n", figure, line)
}

// A Runner runs the program again, a fresh process a run.
type Runner struct {
	Prog string // the program's name, beginning its messages
	Env  string // the variable that marks a child
	self string
}

// NewRunner finds the program's own executable, or exits 1.
func NewRunner(prog, env string) *Runner {
	return &Runner{Prog: prog, Env: env, self: Self(prog)}
}

// Self is the program's own executable, which a child run runs; where
// there is none, the program exits 1.
func Self(prog string) string {
	self, err := os.Executable()
	if err != nil {
		Fail(prog, err)
	}
	return self
}

// Run runs run i (from 1) as a child with args and Env=val, its standard
// error passed through, and returns the figure and line it reported. A
// child that fails or reports no figure ends the program with status 1.
func (r *Runner) Run(i int, args []string, val string) (float64, string) {
	cmd := exec.Command(r.self, args...)
	cmd.Env = append(os.Environ(), r.Env+"="+val)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		Fail(r.Prog, fmt.Errorf("run %d: %v", i, err))
	}
	value, line, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		Fail(r.Prog, fmt.Errorf("run %d printed %q", i, out))
	}
	return v, line
}

// Series makes that many child runs with args and Env=1, printing the
// load average before and after and each run's line, and returns their
// figures.
func (r *Runner) Series(runs int, args []string) []float64 {
	fmt.Printf("load before: %s\n", Loadavg())
	got := make([]float64, 0, runs)
	for i := range runs {
		v, line := r.Run(i+1, args, "1")
		fmt.Printf("run %d: %s\n", i+1, line)
		got = append(got, v)
	}
	fmt.Printf("load after: %s\n", Loadavg())
	return got
}

// Fresh is a probe's main once its flags are parsed and checked: in a
// child run (env set to 1) it reports what measure returns and exits; in
// the program the user ran it makes that many child runs with args
// (Series) and returns their figures.
func Fresh(prog, env string, runs int, args []string, measure func() (float64, string)) []float64 {
	if os.Getenv(env) == "1" {
		Report(measure())
		os.Exit(0)
	}
	CheckRuns(prog, runs)
	return NewRunner(prog, env).Series(runs, args)
}

// Trace starts runtime/trace into a new file at path and returns what
// stops it and closes the file.
func Trace(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		trace.Stop()
		f.Close()
	}, nil
}

// A Summary is a series of figures, one a run.
type Summary struct {
	Runs int
	// Middle is the middle figure, the upper of the two middle ones for
	// an even number of runs; Median is their mean. The probes' figures in
	// docs/ were taken with one or the other, so both stay.
	Middle, Median float64
	Low, High      float64
	// P10 and P90 are the 10th and 90th percentiles, by nearest rank.
	P10, P90 float64
}

// Summarize sums up figures, which it leaves as they were; there must
// be at least one. Durations are summed up in nanoseconds.
func Summarize[F ~float64 | ~int64](figures []F) Summary {
	s := make([]float64, len(figures))
	for i, f := range figures {
		s[i] = float64(f)
	}
	slices.Sort(s)
	n := len(s)
	m := s[n/2]
	if n%2 == 0 {
		m = (s[n/2-1] + s[n/2]) / 2
	}
	rank := func(q float64) float64 { return s[min(n-1, int(q*float64(n)))] }
	return Summary{Runs: n, Middle: s[n/2], Median: m, Low: s[0], High: s[n-1], P10: rank(0.1), P90: rank(0.9)}
}

// String is "N runs: median M, range L–H", with the middle figure.
func (s Summary) String() string {
	return s.format(s.Middle)
}

// MeanMedian is String with the mean of the two middle figures.
func (s Summary) MeanMedian() string {
	return s.format(s.Median)
}

func (s Summary) format(median float64) string {
	return fmt.Sprintf("%d runs: median %.4g, range %.4g–%.4g", s.Runs, median, s.Low, s.High)
}

// Bucket is the class x falls in among bounds, which ascend: 0 below the
// first bound, i below the (i+1)th, len(bounds) at or past the last.
func Bucket[F ~float64 | ~int64](bounds []F, x F) int {
	i := 0
	for i < len(bounds) && x >= bounds[i] {
		i++
	}
	return i
}

// BucketNames names Bucket's classes of bounds, each bound written by
// name: "under A", "A-B", …, "Z or more".
func BucketNames[F ~float64 | ~int64](bounds []F, name func(F) string) []string {
	names := make([]string, len(bounds)+1)
	for i := range names {
		switch {
		case i == 0:
			names[i] = "under " + name(bounds[0])
		case i == len(bounds):
			names[i] = name(bounds[i-1]) + " or more"
		default:
			names[i] = name(bounds[i-1]) + "-" + name(bounds[i])
		}
	}
	return names
}
