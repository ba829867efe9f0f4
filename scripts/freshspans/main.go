// Command freshspans measures where a real program's go statements pay
// for their goroutines' descriptors: it reads the traces schedlab real
// emitted for a scenario whose main makes many go statements in a row
// (overflow's 300 on one P) and times main's go-creates one from the
// next. The runtime makes a new goroutine's g and stack from spans of 16
// (malg; gmp's malg.go), so most statements are quick and the one that
// needs a new span pauses. For each place in a span (a statement's number
// in the scenario, modulo 16) it gives the median gap that ends there,
// and then the two places that pause most, their gaps' spread, and the
// first of the two's first gap alone. verify's model of a traced program
// takes the shape (verify's freshSpans).
//
//	schedlab real overflow --runs 8 --emit /tmp/ov
//	go run ./scripts/freshspans /tmp/ov
package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/schedlab/schedlab/real/rtrace"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// span is how many descriptors a span holds.
const span = 16

func main() {
	probe.SetUsage("go run ./scripts/freshspans DIR   (DIR: schedlab real NAME --emit DIR's traces)")
	flag.Parse()
	if flag.NArg() != 1 {
		probe.BadUsage()
	}
	paths, err := filepath.Glob(filepath.Join(flag.Arg(0), "run-*.trace"))
	if err == nil && len(paths) == 0 {
		err = fmt.Errorf("no run-*.trace in %s", flag.Arg(0))
	}
	if err != nil {
		probe.Fail("freshspans", err)
	}
	var runs [][]time.Duration
	for _, p := range paths {
		gaps, err := mainsGaps(p)
		if err != nil {
			probe.Fail("freshspans", err)
		}
		runs = append(runs, gaps)
	}
	fmt.Print(analyse(runs))
}

// mainsGaps reads a scenario's trace and returns, for each of main's go
// statements after its first, the time from the go-create before.
func mainsGaps(path string) ([]time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var creates []time.Duration
	_, err = rtrace.ReadWith(f, rtrace.Options{Scenario: true}, func(e rtrace.Event) {
		if e.Kind == "go-create" && e.G2 == 1 && !e.BeforeScenario {
			creates = append(creates, e.T)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var gaps []time.Duration
	for i := 1; i < len(creates); i++ {
		gaps = append(gaps, creates[i]-creates[i-1])
	}
	return gaps, nil
}

// analyse says where the runs' gaps pause. runs[r][i] is the gap that
// ends at run r's (i+2)-th go statement.
func analyse(runs [][]time.Duration) string {
	var all []time.Duration
	var byPlace [span][]time.Duration
	for _, gaps := range runs {
		for i, g := range gaps {
			all = append(all, g)
			byPlace[(i+2)%span] = append(byPlace[(i+2)%span], g)
		}
	}
	if len(all) == 0 {
		return "no go statements of main's after its first\n"
	}
	var b []byte
	b = fmt.Appendf(b, "%d traces, %d go statements of main's after its first: a median %v apart\n", len(runs), len(all), median(all))
	places := make([]int, 0, span)
	var sums [span]probe.Summary
	for n := 2; n < 2+span; n++ {
		if p := n % span; len(byPlace[p]) > 0 {
			places = append(places, p)
			sums[p] = probe.Summarize(byPlace[p])
			b = fmt.Appendf(b, "  ending at statement %2d (mod %d): a median %v over %d\n", first(p), span, time.Duration(sums[p].Middle), len(byPlace[p]))
		}
	}
	slices.SortStableFunc(places, func(x, y int) int { return cmp.Compare(sums[y].Middle, sums[x].Middle) })
	for _, p := range places[:min(2, len(places))] {
		s := sums[p]
		b = fmt.Appendf(b, "a pause at statement %d and every %d after: median %v, p10 %v, p90 %v", first(p), span, time.Duration(s.Middle), time.Duration(s.P10), time.Duration(s.P90))
		var firsts []time.Duration
		for _, gaps := range runs {
			if i := first(p) - 2; i >= 0 && i < len(gaps) {
				firsts = append(firsts, gaps[i])
			}
		}
		if len(firsts) > 0 {
			b = fmt.Appendf(b, "; statement %d alone: median %v (%v-%v)", first(p), median(firsts), slices.Min(firsts), slices.Max(firsts))
		}
		b = append(b, '\n')
	}
	return string(b)
}

// first is the first statement, from 2, at place p of a span.
func first(p int) int {
	if p < 2 {
		return p + span
	}
	return p
}

// median is the upper of d's two middle figures for an even number.
func median(d []time.Duration) time.Duration { return time.Duration(probe.Summarize(d).Middle) }
