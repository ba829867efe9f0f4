// Command wakeplace reads a kernel scheduler trace of a Go program, as
// perf script prints the events sched_switch, sched_waking and
// sched_wakeup, and says where the kernel put the program's threads when
// they woke: on the CPU they last ran on, on the CPU of the thread that
// woke them, or on another, and whether another CPU was idle at that
// moment; and how the program's run time was spread over the CPUs. The
// model's CPUs (core/gmp/cpus.go, place) stand for this choice
// (select_task_rq_fair), which no runtime trace shows.
//
//	schedlab real pingpong-2p --runs 0 --emit /tmp/pp && cd /tmp/pp && go build -o prog .
//	perf record -a -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup -o perf.data ./prog t.trace
//	perf script -i perf.data > s1.txt
//	go run ./scripts/wakeplace s1.txt s2.txt …
//
// Record every CPU (-a): without it perf keeps only the events that
// happen in the program's own threads, so a switch from the idle task to
// one of them, and a wake-up by an interrupt, are missing, and the run
// times and the waits that end in such a switch with them.
// Each file is one trace, read on its own and added to the counts; with
// no file it reads one from standard input. A wake-up is a sched_wakeup of
// a thread of the program (-comm); the sched_waking before it says which
// CPU woke it (the one the event came on) and where it last ran
// (target_cpu), and sched_wakeup where it was put. A CPU is idle while
// its last switch was to the idle task (swapper), from the trace's first
// switch on that CPU.
//
// It also says how the threads woken beside a running thread of the
// program got their CPU: by taking it from that thread, which stayed
// runnable (a wake-up preemption), or when it slept; how soon a
// preemption came and how long the thread it took the CPU from waited to
// run again (the 10th, 50th and 90th percentiles); and how often a
// preempted thread of the program waited over 1ms to run again, and
// whether on the CPU it waited on or pulled to another.
//
// Recorded with call stacks (perf record -g), it also tells the futex
// wake-ups (the runtime's notewakeup, which startm makes) from a timer's,
// and says how many of the futex wake-ups the program made of its
// threads beside another running one waited over 1ms to run, by how long
// the woken thread had slept: a thread that waits for the running one's
// turn to end rather than taking its CPU.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// event is one line of perf script: a tracepoint on a CPU.
type event struct {
	at     float64 // seconds
	cpu    int
	comm   string // the task the event came in
	name   string // sched_switch, sched_waking, sched_wakeup
	fields map[string]string
	// via is, for a sched_waking recorded with its call stack (perf
	// record -g), what made the wake-up: "futex" (a futex wake, the
	// runtime's notewakeup), "timer" (an hrtimer: a sleep's end), or ""
	// when the stack says neither or there is none.
	via string
}

// viaOf reads one line of a call stack under an event, as perf script
// prints it ("\tffffffff81234567 futex_wake+0x9c ([kernel.kallsyms])"),
// and says what it shows made a wake-up, if anything.
func viaOf(line string) string {
	f := strings.Fields(line)
	if len(f) < 2 {
		return ""
	}
	fn, _, _ := strings.Cut(f[1], "+")
	switch {
	case strings.HasPrefix(fn, "futex_wake"):
		return "futex"
	case fn == "hrtimer_wakeup":
		return "timer"
	}
	return ""
}

// parseLine reads an event line, "COMM PID [CPU] TIME: sched:NAME: k=v …";
// other lines are not events. A comm may hold spaces, so the line is read
// from its [CPU] field.
func parseLine(line string) (event, bool) {
	open := strings.Index(line, " [")
	if open < 0 {
		return event{}, false
	}
	close := strings.Index(line[open:], "]")
	if close < 0 {
		return event{}, false
	}
	cpu, err := strconv.Atoi(line[open+2 : open+close])
	if err != nil {
		return event{}, false
	}
	head := strings.Fields(line[:open])
	if len(head) < 2 {
		return event{}, false
	}
	rest := strings.Fields(line[open+close+1:])
	if len(rest) < 2 || !strings.HasSuffix(rest[0], ":") || !strings.HasPrefix(rest[1], "sched:") {
		return event{}, false
	}
	at, err := strconv.ParseFloat(strings.TrimSuffix(rest[0], ":"), 64)
	if err != nil {
		return event{}, false
	}
	e := event{at: at, cpu: cpu, comm: strings.Join(head[:len(head)-1], " "),
		name: strings.TrimSuffix(strings.TrimPrefix(rest[1], "sched:"), ":"), fields: map[string]string{}}
	if e.name == "" {
		return event{}, false
	}
	for _, kv := range rest[2:] {
		if k, v, ok := strings.Cut(kv, "="); ok {
			e.fields[k] = v
		}
	}
	return e, true
}

// A placement is one wake-up's circumstances and outcome.
type placement struct {
	waker     string // "the program", "an interrupt", "another task"
	lastRan   string // "the waker's CPU", "another CPU"
	put       string // "there", "on the waker's CPU", "elsewhere"
	lastIdle  bool   // the CPU it last ran on was idle (it was not the waker's)
	otherIdle bool   // a CPU other than the one it was put on was idle
}

// tally is what the traces showed.
type tally struct {
	places map[placement]int
	ran    map[int]float64 // seconds of the program's threads on each CPU
	// busiest is, for each trace, the share of the program's run time on
	// the CPU where it ran most.
	busiest []float64
	// Of the wake-ups put on a CPU where another of the program's
	// threads was running, the waits (seconds) of those that took the
	// CPU from it while it stayed runnable (a preemption), of those that
	// got it when it slept, and how many got it otherwise.
	tookFrom, afterSleep []float64
	besideOther          int
	// The waits (seconds) of the threads those preemptions took the CPU
	// from, until they ran again.
	preemptedWaits []float64
	// Of the program's threads preempted (switched out still runnable),
	// the waits over longWait before they ran again, how many of those
	// ran again on the CPU they waited on, and how many each trace had.
	longWaits   []float64
	sameCPU     int
	longByTrace []int
	// stacks says that the traces had call stacks; futex holds, for the
	// futex wake-ups made in a thread of the program and put beside a
	// running thread of it, how long the woken thread had slept and how
	// long after the wake-up it ran (seconds).
	stacks bool
	futex  []sleptWait
	// futexAll holds how long the woken thread had slept, for every
	// futex wake-up the program made of its own threads, beside a
	// running one or not.
	futexAll []float64
}

// sleptWait is a wake-up's sleep before it and the wait after it.
type sleptWait struct{ slept, wait float64 }

// sleptBounds part the futex wake-ups beside a running thread by how
// long the woken thread slept (seconds): a thread parked a moment ago,
// one parked up to 2ms (the first of calibrate's wake_after_idle points),
// up to 8ms, longer.
var sleptBounds = []float64{250e-6, 2e-3, 8e-3}

// longWait is the shortest wait of a preempted thread counted: longer
// than a switch between two busy threads' turns could explain below a
// tick, well past the kernel's wake-up latencies.
const longWait = 1e-3

func newTally() tally { return tally{places: map[placement]int{}, ran: map[int]float64{}} }

// read adds one trace's events to t.
func (t *tally) read(r io.Reader, comm string) error {
	ran := map[int]float64{}
	curr := map[int]int{}      // CPU -> pid of the running task; absent: unknown
	waking := map[int]*event{} // a thread of the program -> its pending sched_waking
	type run struct {
		cpu   int
		since float64
	}
	running := map[int]run{} // a thread of the program on a CPU
	// beside holds, for a thread of the program woken onto a CPU where
	// another of its threads ran, when; preempted, for one switched out
	// still runnable, when and where.
	beside := map[int]float64{}
	preempted := map[int]run{}
	// byWake holds, for a thread of the program a woken one took the CPU
	// from, when.
	byWake := map[int]float64{}
	// asleep holds when each thread of the program last went to sleep;
	// futexBeside, for one woken beside a running thread of the program
	// by a futex wake of the program, how long it had slept, until it
	// runs.
	asleep := map[int]float64{}
	futexBeside := map[int]sleptWait{}
	var lastWaking *event // the sched_waking whose stack lines follow
	longBefore := len(t.longWaits)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		e, ok := parseLine(sc.Text())
		if !ok {
			if lastWaking != nil && lastWaking.via == "" {
				if v := viaOf(sc.Text()); v != "" {
					lastWaking.via = v
					t.stacks = true
				}
			}
			continue
		}
		lastWaking = nil
		switch e.name {
		case "sched_switch":
			prev, _ := strconv.Atoi(e.fields["prev_pid"])
			next, _ := strconv.Atoi(e.fields["next_pid"])
			if r, ok := running[prev]; ok {
				ran[r.cpu] += e.at - r.since
				delete(running, prev)
			}
			ours := e.fields["prev_comm"] == comm
			stillRunnable := strings.HasPrefix(e.fields["prev_state"], "R")
			if woke, ok := beside[next]; ok && e.fields["next_comm"] == comm {
				delete(beside, next)
				switch {
				case ours && stillRunnable:
					t.tookFrom = append(t.tookFrom, e.at-woke)
					byWake[prev] = e.at
				case ours:
					t.afterSleep = append(t.afterSleep, e.at-woke)
				default:
					t.besideOther++
				}
			}
			if fw, ok := futexBeside[next]; ok && e.fields["next_comm"] == comm {
				delete(futexBeside, next)
				fw.wait = e.at - fw.wait
				t.futex = append(t.futex, fw)
			}
			if ours && (strings.HasPrefix(e.fields["prev_state"], "S") || strings.HasPrefix(e.fields["prev_state"], "D")) {
				asleep[prev] = e.at
			}
			if at, ok := byWake[next]; ok && e.fields["next_comm"] == comm {
				delete(byWake, next)
				t.preemptedWaits = append(t.preemptedWaits, e.at-at)
			}
			if p, ok := preempted[next]; ok && e.fields["next_comm"] == comm {
				delete(preempted, next)
				if e.at-p.since > longWait {
					t.longWaits = append(t.longWaits, e.at-p.since)
					if p.cpu == e.cpu {
						t.sameCPU++
					}
				}
			}
			if ours && stillRunnable {
				preempted[prev] = run{e.cpu, e.at}
			}
			curr[e.cpu] = next
			if e.fields["next_comm"] == comm {
				running[next] = run{e.cpu, e.at}
			}
		case "sched_waking":
			// Only the program's wake-ups are classified: keep no others.
			if e.fields["comm"] == comm {
				pid, _ := strconv.Atoi(e.fields["pid"])
				waking[pid] = &e
				lastWaking = &e
			}
		case "sched_wakeup":
			if e.fields["comm"] != comm {
				continue
			}
			pid, _ := strconv.Atoi(e.fields["pid"])
			w, ok := waking[pid]
			if !ok {
				continue
			}
			delete(waking, pid)
			put, err1 := strconv.Atoi(e.fields["target_cpu"])
			last, err2 := strconv.Atoi(w.fields["target_cpu"])
			if err1 != nil || err2 != nil {
				continue
			}
			t.places[classify(*w, last, put, curr, comm)]++
			if _, on := running[curr[put]]; on && curr[put] != pid {
				beside[pid] = e.at
				if s, ok := asleep[pid]; ok && w.comm == comm && w.via == "futex" {
					futexBeside[pid] = sleptWait{slept: w.at - s, wait: w.at}
				}
			}
			if s, ok := asleep[pid]; ok && w.comm == comm && w.via == "futex" {
				t.futexAll = append(t.futexAll, w.at-s)
			}
		}
	}
	t.longByTrace = append(t.longByTrace, len(t.longWaits)-longBefore)
	// A thread still running when the trace ends is not counted for that
	// last run: where it ends is not known.
	var sum, most float64
	for c, d := range ran {
		t.ran[c] += d
		sum += d
		most = max(most, d)
	}
	if sum > 0 {
		t.busiest = append(t.busiest, most/sum)
	}
	return sc.Err()
}

// classify says what a wake-up was: who woke the thread (the waking
// event's task), where it last ran, where it was put, and whether a CPU
// other than that one was idle.
func classify(w event, last, put int, curr map[int]int, comm string) placement {
	var p placement
	switch {
	case w.comm == comm:
		p.waker = "the program"
	case strings.HasPrefix(w.comm, "swapper"):
		p.waker = "an interrupt"
	default:
		p.waker = "another task"
	}
	switch {
	case last == w.cpu:
		p.lastRan = "the waker's CPU"
	default:
		p.lastRan = "another CPU"
		pid, known := curr[last]
		p.lastIdle = known && pid == 0
	}
	switch {
	case put == last:
		p.put = "there"
	case put == w.cpu:
		p.put = "on the waker's CPU"
	default:
		p.put = "elsewhere"
	}
	for cpu, pid := range curr {
		if cpu != put && pid == 0 {
			p.otherIdle = true
		}
	}
	return p
}

func (t tally) write(w io.Writer) {
	keys := make([]placement, 0, len(t.places))
	total := 0
	for k, n := range t.places {
		keys = append(keys, k)
		total += n
	}
	sort.Slice(keys, func(i, j int) bool {
		if a, b := t.places[keys[i]], t.places[keys[j]]; a != b {
			return a > b
		}
		return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j])
	})
	fmt.Fprintf(w, "%d wake-ups of the program's threads in %d traces\n", total, len(t.busiest))
	for _, k := range keys {
		last := k.lastRan
		if k.lastIdle {
			last += ", idle"
		}
		idle := "no other CPU idle"
		if k.otherIdle {
			idle = "another CPU idle"
		}
		fmt.Fprintf(w, "%6d  woken by %s, last ran on %s, put %s (%s)\n", t.places[k], k.waker, last, k.put, idle)
	}
	cpus := make([]int, 0, len(t.ran))
	var sum, most float64
	for c, s := range t.ran {
		cpus = append(cpus, c)
		sum += s
		most = max(most, s)
	}
	sort.Ints(cpus)
	fmt.Fprintf(w, "the program's run time by CPU:")
	for _, c := range cpus {
		fmt.Fprintf(w, " CPU%d %.1fms", c, 1e3*t.ran[c])
	}
	if sum > 0 {
		fmt.Fprintf(w, "; %.0f%% on the busiest", 100*most/sum)
	}
	fmt.Fprintln(w)
	if len(t.busiest) > 0 {
		fmt.Fprintf(w, "each trace's share on its busiest CPU:")
		for _, b := range t.busiest {
			fmt.Fprintf(w, " %.0f%%", 100*b)
		}
		fmt.Fprintln(w)
	}
	if n := len(t.tookFrom) + len(t.afterSleep) + t.besideOther; n > 0 {
		fmt.Fprintf(w, "%d wake-ups put beside a running thread of the program: %d took the CPU from it, still runnable, %s; %d got it when it slept, %s; %d otherwise\n",
			n, len(t.tookFrom), medianWait(t.tookFrom), len(t.afterSleep), medianWait(t.afterSleep), t.besideOther)
	}
	if len(t.tookFrom) > 0 {
		fmt.Fprintf(w, "the wake-up preemptions took the CPU %s after the wake-up", spread(t.tookFrom))
		if len(t.preemptedWaits) > 0 {
			fmt.Fprintf(w, "; the thread they took it from ran again %s after (%d of %d ran again in the trace)",
				spread(t.preemptedWaits), len(t.preemptedWaits), len(t.tookFrom))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "preempted threads of the program that waited over %.0fms to run again: %d", 1e3*longWait, len(t.longWaits))
	if len(t.longWaits) > 0 {
		s := probe.Summarize(t.longWaits)
		fmt.Fprintf(w, ", %.2f to %.2fms (p10 %.2fms, median %.2fms, p90 %.2fms), %d of them on the CPU they waited on", 1e3*s.Low, 1e3*s.High, 1e3*s.P10, 1e3*s.Median, 1e3*s.P90, t.sameCPU)
	}
	fmt.Fprintf(w, "; by trace:")
	for _, n := range t.longByTrace {
		fmt.Fprintf(w, " %d", n)
	}
	fmt.Fprintln(w)
	t.writeFutex(w)
}

// writeFutex says, of the futex wake-ups the program made of its own
// threads beside another running one, how many waited over longWait to
// run, by how long the woken thread had slept: the wake-ups startm makes.
func (t tally) writeFutex(w io.Writer) {
	if !t.stacks {
		fmt.Fprintln(w, "no call stacks in the traces: record with perf record -g to tell futex wake-ups from a timer's")
		return
	}
	n := make([]int, len(sleptBounds)+1)
	late, all := make([]int, len(n)), make([]int, len(n))
	var waits []float64
	for _, f := range t.futex {
		i := probe.Bucket(sleptBounds, f.slept)
		n[i]++
		if f.wait > longWait {
			late[i]++
			waits = append(waits, f.wait)
		}
	}
	for _, slept := range t.futexAll {
		all[probe.Bucket(sleptBounds, slept)]++
	}
	fmt.Fprintf(w, "%d futex wake-ups by the program of its threads, %d put beside a running one; by how long the woken thread had slept, how many of these waited over %.0fms to run, of how many beside and in all:", len(t.futexAll), len(t.futex), 1e3*longWait)
	for i, name := range probe.BucketNames(sleptBounds, ms) {
		sep := ", "
		if i == 0 {
			sep = " "
		}
		fmt.Fprintf(w, "%s%s %d of %d of %d", sep, name, late[i], n[i], all[i])
	}
	if len(waits) > 0 {
		s := probe.Summarize(waits)
		fmt.Fprintf(w, "; those waited p10 %.2fms, median %.2fms, p90 %.2fms", 1e3*s.P10, 1e3*s.Median, 1e3*s.P90)
	}
	fmt.Fprintln(w)
}

// ms says a time in seconds as a short duration.
func ms(s float64) string {
	if s < 1e-3 {
		return fmt.Sprintf("%.0fµs", 1e6*s)
	}
	return fmt.Sprintf("%.0fms", 1e3*s)
}

// medianWait says the median of waits (seconds) after a wake-up, in µs.
func medianWait(waits []float64) string {
	if len(waits) == 0 {
		return "none"
	}
	return fmt.Sprintf("a median %.0fµs after the wake-up", 1e6*probe.Summarize(waits).Median)
}

// spread says the 10th, 50th and 90th percentiles of waits (seconds),
// in µs.
func spread(waits []float64) string {
	s := probe.Summarize(waits)
	return fmt.Sprintf("p10 %.0fµs, median %.0fµs, p90 %.0fµs", 1e6*s.P10, 1e6*s.Median, 1e6*s.P90)
}

func main() {
	comm := flag.String("comm", "prog", "the program's command name, as perf script shows its threads")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: perf script -i perf.data > s.txt; wakeplace [-comm NAME] [s.txt …]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *comm == "" {
		flag.Usage()
		os.Exit(2)
	}
	t := newTally()
	if flag.NArg() == 0 {
		if err := t.read(os.Stdin, *comm); err != nil {
			fmt.Fprintln(os.Stderr, "wakeplace:", err)
			os.Exit(1)
		}
	}
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "wakeplace:", err)
			os.Exit(1)
		}
		err = t.read(f, *comm)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "wakeplace: %s: %v\n", name, err)
			os.Exit(1)
		}
	}
	t.write(os.Stdout)
}
