package export

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/real/recorded"
	"github.com/schedlab/schedlab/real/rtrace"
)

// This file exports a recorded run (package recorded: a runtime trace
// read by package rtrace, in the model's vocabulary) in the formats a
// model's run has: a process of a Perfetto file, lanes of an SVG
// timeline, a Markdown handout. A runtime trace records what goroutines
// and Ps did, not the scheduler's queues, so these show runs, wake-ups,
// syscalls and retakes, and no queue.

// recSeg is a stretch of time a P ran a goroutine, from the run's
// Segments.
type recSeg struct {
	p        int
	g        int64
	from, to int64 // ns
}

// segmentsOf returns run's segments, by P and time.
func segmentsOf(run *recorded.Run) []recSeg {
	var segs []recSeg
	end := run.End()
	for p := range run.Procs() {
		run.Segments(int64(p), 0, end, func(s recorded.Segment) {
			segs = append(segs, recSeg{p: p, g: s.G, from: int64(s.From), to: int64(s.To)})
		})
	}
	return segs
}

// writeRecordedProcess adds run to f as a process named name: a track
// per P with a slice per goroutine run, instants for syscalls and
// retakes, and an arrow from each creation or wake-up a goroutine made
// (in the waker's run) to the woken goroutine's next run.
func writeRecordedProcess(f *traceFile, name string, run *recorded.Run) {
	pid := f.newPid()
	f.meta(pid, 0, "process_name", name)
	f.sortIndex(pid, 0, "process_sort_index", pid)
	for p := range run.Procs() {
		f.meta(pid, 1+p, "thread_name", "P"+strconv.Itoa(p))
		f.sortIndex(pid, 1+p, "thread_sort_index", 1+p)
	}
	segs := segmentsOf(run)
	for _, s := range segs {
		if s.to > s.from {
			f.complete(pid, 1+s.p, s.from, s.to-s.from, "G"+strconv.FormatInt(s.g, 10))
		}
	}
	// Each goroutine's runs in time order, and each P's, for the arrows.
	byG := map[int64][]int{}
	byP := make([][]int, run.Procs())
	for i, s := range segs {
		byG[s.g] = append(byG[s.g], i)
		byP[s.p] = append(byP[s.p], i)
	}
	for _, ix := range byG {
		slices.SortFunc(ix, func(a, b int) int { return int(segs[a].from - segs[b].from) })
	}
	for i, e := range run.Events {
		ts := int64(e.T)
		switch e.Kind {
		case gmp.KindSyscallEnter, gmp.KindProcSteal:
			if e.P >= 0 && int(e.P) < run.Procs() {
				what := "syscall G" + strconv.FormatInt(e.G, 10)
				if e.Kind == gmp.KindProcSteal {
					what = "retake P" + strconv.Itoa(int(e.P))
				}
				f.instant(pid, 1+int(e.P), ts, what, "why", run.Text(i))
			}
		case gmp.KindGoCreate, gmp.KindGoUnblock:
			if e.G2 < 0 || e.P < 0 || int(e.P) >= run.Procs() {
				continue
			}
			// The waker's run on its P at the wake-up, and the woken
			// goroutine's first run after it.
			src := -1
			onP := byP[e.P]
			at := sort.Search(len(onP), func(k int) bool { return segs[onP[k]].from > ts })
			for k := at - 1; k >= max(at-2, 0); k-- {
				if s := segs[onP[k]]; s.g == e.G2 && ts <= s.to {
					src = onP[k]
					break
				}
			}
			dst := -1
			ofG := byG[e.G]
			if k := sort.Search(len(ofG), func(k int) bool { return segs[ofG[k]].from >= ts }); k < len(ofG) {
				dst = ofG[k]
			}
			if src < 0 || dst < 0 || src == dst {
				continue
			}
			a, b := segs[src], segs[dst]
			from, ok1 := inside(a.from, a.to, ts)
			to, ok2 := inside(b.from, b.to, b.from)
			if ok1 && ok2 {
				f.flows++
				f.flowRecord("s", pid, 1+a.p, from, f.flows)
				f.flowRecord("f", pid, 1+b.p, to, f.flows)
			}
		}
	}
}

// WriteRecordedPerfetto writes run as a Chrome trace-event file of one
// process, named name.
func WriteRecordedPerfetto(w io.Writer, name string, run *recorded.Run) error {
	f := newTraceFile(w)
	writeRecordedProcess(f, name, run)
	return f.close()
}

// NewPerfettoVersus starts a trace of m's run, named name, that ends with
// real, a recorded run of the same scenario, as a second process: the
// model's run and the real one, one above the other on one time axis.
func NewPerfettoVersus(w io.Writer, name string, m *gmp.Machine, realName string, real *recorded.Run) *Perfetto {
	f := newTraceFile(w)
	p := newModelProcess(f, "schedlab model: "+name, m)
	p.own = true
	p.then = func() { writeRecordedProcess(f, realName, real) }
	return p
}

// recordedLanes draws run as group gi of t on the Ps ps: its goroutines'
// runs, and markers for its syscalls and retakes.
func recordedLanes(t *timeline, gi int, run *recorded.Run, ps []int) {
	g := &t.groups[gi]
	rows := make([]int, run.Procs())
	for i := range rows {
		rows[i] = -1
	}
	for i, p := range ps {
		rows[p] = g.first + i
	}
	for _, s := range segmentsOf(run) {
		if r := rows[s.p]; r >= 0 {
			t.bar(r, s.g, sim.Time(s.from), sim.Time(s.to), false)
		}
	}
	for _, e := range run.Events {
		if e.P < 0 || int(e.P) >= len(rows) || rows[e.P] < 0 {
			continue
		}
		switch e.Kind {
		case gmp.KindSyscallEnter:
			t.mark(rows[e.P], sim.Time(e.T), markSyscall)
		case gmp.KindProcSteal:
			t.mark(rows[e.P], sim.Time(e.T), markRetake)
		}
	}
}

func laneNames(ps []int) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = "P" + strconv.Itoa(p)
	}
	return names
}

// WriteRecordedSVG writes run's timeline, titled title, on w: a lane per
// P (o.Ps), no queue strip (a trace has no queues).
func WriteRecordedSVG(w io.Writer, title string, run *recorded.Run, o SVGOptions) error {
	ps, err := selectPs(o, run.Procs())
	if err != nil {
		return err
	}
	if o.To == 0 {
		o.To = run.End()
	}
	t, err := newTimeline(w, title, o, []groupSpec{{name: run.Label, ps: len(ps)}})
	if err != nil {
		return err
	}
	t.lanes([][]string{laneNames(ps)})
	recordedLanes(t, 0, run, ps)
	return t.end()
}

// NewSVGVersus starts a timeline of m's run above real's, a recorded run
// of the same scenario, on one time axis: the model's lanes and its
// global queue, then the real run's lanes.
func NewSVGVersus(w io.Writer, title string, m *gmp.Machine, realName string, real *recorded.Run, o SVGOptions) (*SVG, error) {
	ps, err := selectPs(o, m.Procs())
	if err != nil {
		return nil, err
	}
	rps, err := selectPs(o, real.Procs())
	if err != nil {
		return nil, fmt.Errorf("the real run: %w", err)
	}
	t, err := newTimeline(w, title, o, []groupSpec{{name: "model", ps: len(ps), strip: true}, {name: realName, ps: len(rps)}})
	if err != nil {
		return nil, err
	}
	s := newModelSVG(t, 0, m, ps, [][]string{laneNames(ps), laneNames(rps)})
	s.then = func() { recordedLanes(t, 1, real, rps) }
	return s, nil
}

// WriteTraceHandout writes a Markdown handout of a runtime trace: what it
// holds, how long each P ran goroutines, its timeline (o.Timeline) and
// its first events in the model's words. title and the run's sentences
// are the trace's, and escaped.
func WriteTraceHandout(w io.Writer, title string, run *recorded.Run, sum *rtrace.Summary, o HandoutOptions) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# %s\n\n", safetext.Markdown(title))
	fmt.Fprintf(b, "A runtime trace: %d scheduler events over %v; %d goroutines created; %d Ps, %d threads. It records what goroutines and Ps did, not the scheduler's queues: runnext, the rings and the global queue are the model's to show (%s).\n",
		sum.Events, sim.FormatMillis(sum.Span), sum.Goroutines, sum.Ps, sum.Ms, safetext.CodeSpan("schedlab run"))
	if run.Note != "" {
		fmt.Fprintf(b, "\n%s.\n", safetext.Markdown(run.Note))
	}
	b.WriteString("\n## The Ps\n\n| P | ran goroutines for | share of the trace |\n|---|---|---|\n")
	ps := make([]int64, 0, len(sum.Running))
	for p := range sum.Running {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
	for _, p := range ps {
		share := 0.0
		if sum.Span > 0 {
			share = 100 * float64(sum.Running[p]) / float64(sum.Span)
		}
		fmt.Fprintf(b, "| P%d | %s | %.1f%% |\n", p, sim.FormatMillis(sum.Running[p]), share)
	}
	b.WriteString("\n## The run\n\n")
	if o.Timeline != "" {
		fmt.Fprintf(b, "![The trace as a timeline: a lane per P, a bar per goroutine run](%s)\n", timelineURL(o.Timeline))
	} else {
		b.WriteString("Export it with `--format svg` for its timeline.\n")
	}
	const first = 40
	fmt.Fprintf(b, "\n## The first events\n\n")
	for i, e := range run.Events[:min(first, len(run.Events))] {
		fmt.Fprintf(b, "- event %d, %s, %s: %s\n", i+1, sim.FormatMillis(e.T), e.Kind, safetext.Markdown(run.Text(i)))
	}
	if len(run.Events) > first {
		fmt.Fprintf(b, "\n(%d events more: %s lists them all.)\n", len(run.Events)-first, safetext.CodeSpan("schedlab trace FILE --format text"))
	}
	return b.Flush()
}
