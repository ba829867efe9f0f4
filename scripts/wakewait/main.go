// Command wakewait reads a kernel scheduler trace of a Go program, as
// perf sched timehist --state prints it, and says how long the program's
// threads waited for a CPU after they woke, by how long they had slept;
// and how long a busy thread kept its CPU before another busy thread of
// the program took it. These are the two behaviours of the kernel's
// scheduler that the model's CPUs (core/gmp/cpus.go) stand for, measured
// where the model cannot see: the threads under the runtime.
//
//	schedlab real burst --runs 0 --emit /tmp/burst && cd /tmp/burst && go build -o prog .
//	GOMAXPROCS=4 perf sched record -o perf.data ./prog t.trace
//	perf sched timehist -i perf.data --state | go run ./scripts/wakewait
//
// Several traces' timehist output may be read one after the other. A
// wake-up is a switch-in of a thread of the program (-comm) whose last
// switch-out left it asleep (state S); its sleep is the timehist's wait
// time and its wait for a CPU the scheduling delay. Sleeps are short
// under 0.2ms (a usleep back-off: 3µs and the timer slack), long from
// 2ms (a parked thread, sysmon). What ran on the CPU before the woken
// thread says whether it preempted a running thread (R), took a CPU
// another thread had just left asleep (S), or an idle one. The long
// sleeps of the program's threads other than sysmon are then split by
// whether a wait of 1ms or more followed, with the median run just before
// the sleep: under EEVDF a thread that ran longer slept with less lag. A
// turn is a busy thread's time on a CPU, the brief runs of other threads
// (under 0.5ms) inside it not ending it.
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

// A switch is one line of timehist: a thread left a CPU.
type switchOut struct {
	at    float64 // seconds
	cpu   string
	task  string
	wait  float64 // ms: asleep or waiting before this run
	delay float64 // ms: from its wake-up to this run
	run   float64 // ms
	state string  // what it left the CPU as: R, S, D, I, X…
}

// parseLine reads a switch line; other lines (the header, awakened:
// lines, the separator) are not switches.
func parseLine(line string) (switchOut, bool) {
	f := strings.Fields(line)
	if len(f) != 7 || !strings.HasPrefix(f[1], "[") {
		return switchOut{}, false
	}
	var s switchOut
	var err error
	nums := make([]float64, 4)
	for i, x := range []string{f[0], f[3], f[4], f[5]} {
		if nums[i], err = strconv.ParseFloat(x, 64); err != nil {
			return switchOut{}, false
		}
	}
	s.at, s.wait, s.delay, s.run = nums[0], nums[1], nums[2], nums[3]
	s.cpu, s.task, s.state = f[1], f[2], f[6]
	return s, true
}

// tally is what the trace showed.
type tally struct {
	wakes map[string]int // "sleep delay before"
	turns []float64      // ms
	// parks are the long sleeps of each thread: how long it ran just
	// before, and whether it then waited 1ms or more for a CPU.
	parks map[string][]park
}

type park struct {
	ranBefore float64 // ms
	waited    bool
}

const (
	shortSleep = 0.2 // ms
	longSleep  = 2.0
	briefRun   = 0.5
)

func sleepKind(ms float64) string {
	switch {
	case ms < shortSleep:
		return "short"
	case ms < longSleep:
		return "mid"
	}
	return "long"
}

func delayKind(ms float64) string {
	switch {
	case ms < 0.02:
		return "at once"
	case ms < 1:
		return "under 1ms"
	}
	return "1ms or more"
}

func read(r io.Reader, comm string) (tally, error) {
	t := tally{wakes: map[string]int{}, parks: map[string][]park{}}
	last := map[string]string{}      // by thread: the state it last left its CPU in
	lastRun := map[string]float64{}  // by thread: its last run, ms
	before := map[string]string{}    // by CPU: what left it last
	turnOf := map[string]string{}    // by CPU: the busy thread whose turn it is
	turnFrom := map[string]float64{} // by CPU: when that turn began
	turnTo := map[string]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		s, ok := parseLine(sc.Text())
		if !ok {
			continue
		}
		ours := strings.HasPrefix(s.task, comm+"[")
		if ours && last[s.task] == "S" {
			key := sleepKind(s.wait) + "|" + delayKind(s.delay) + "|" + before[s.cpu]
			t.wakes[key]++
			if s.wait >= longSleep {
				t.parks[s.task] = append(t.parks[s.task], park{ranBefore: lastRun[s.task], waited: s.delay >= 1})
			}
		}
		if ours {
			last[s.task], lastRun[s.task] = s.state, s.run
		}
		switch {
		case strings.HasPrefix(s.task, "<idle>"):
			before[s.cpu] = "idle"
		case ours:
			before[s.cpu] = "a thread of the program that left it " + s.state
		default:
			before[s.cpu] = "another program"
		}
		if !ours || s.run < briefRun {
			continue
		}
		if turnOf[s.cpu] == s.task {
			turnTo[s.cpu] = s.at
			continue
		}
		if turnOf[s.cpu] != "" {
			t.turns = append(t.turns, (turnTo[s.cpu]-turnFrom[s.cpu])*1000)
		}
		turnOf[s.cpu], turnFrom[s.cpu], turnTo[s.cpu] = s.task, s.at-s.run/1000, s.at
	}
	return t, sc.Err()
}

func (t tally) write(w io.Writer) {
	sleeps := map[string]int{}
	for k, n := range t.wakes {
		sleeps[strings.SplitN(k, "|", 2)[0]] += n
	}
	fmt.Fprintln(w, "wake-ups by sleep (short < 0.2ms, long from 2ms), wait for a CPU and what ran on it before:")
	for _, sl := range []string{"short", "mid", "long"} {
		if sleeps[sl] == 0 {
			continue
		}
		fmt.Fprintf(w, "%s sleeps: %d\n", sl, sleeps[sl])
		var keys []string
		for k := range t.wakes {
			if strings.HasPrefix(k, sl+"|") {
				keys = append(keys, k)
			}
		}
		rank := map[string]int{"at once": 0, "under 1ms": 1, "1ms or more": 2}
		sort.Slice(keys, func(i, j int) bool {
			a, b := strings.Split(keys[i], "|"), strings.Split(keys[j], "|")
			if rank[a[1]] != rank[b[1]] {
				return rank[a[1]] < rank[b[1]]
			}
			return a[2] < b[2]
		})
		for _, k := range keys {
			p := strings.Split(k, "|")
			fmt.Fprintf(w, "  ran %s, after %s: %d\n", p[1], p[2], t.wakes[k])
		}
	}
	t.writeParks(w)
	if len(t.turns) == 0 {
		return
	}
	bounds := []float64{3.5, 4.5, 7.5, 8.5}
	counts := make([]int, len(bounds)+1)
	for _, d := range t.turns {
		counts[sort.SearchFloat64s(bounds, d)]++
	}
	fmt.Fprintf(w, "busy threads' turns on a CPU: %d; under 3.5ms %d, 3.5–4.5ms %d, 4.5–7.5ms %d, 7.5–8.5ms %d, 8.5ms or more %d\n",
		len(t.turns), counts[0], counts[1], counts[2], counts[3], counts[4])
}

func main() {
	comm := flag.String("comm", "prog", "the program's command name, as timehist shows its threads (NAME[tid/pid])")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: perf sched timehist -i perf.data --state | go run ./scripts/wakewait [-comm NAME]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 || *comm == "" {
		flag.Usage()
		os.Exit(2)
	}
	t, err := read(os.Stdin, *comm)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wakewait:", err)
		os.Exit(1)
	}
	if len(t.wakes) == 0 && len(t.turns) == 0 {
		fmt.Fprintf(os.Stderr, "wakewait: no thread of %s in the trace (perf sched timehist --state output on standard input)\n", *comm)
		os.Exit(1)
	}
	t.write(os.Stdout)
}

// writeParks compares the long sleeps after which a thread waited 1ms or
// more for a CPU with the others, by how long it ran just before it
// slept: under EEVDF a thread that ran longer has had more than its share
// when it sleeps, and comes back with no lag to preempt with. In each
// process (several traces may be read), sysmon, the thread that sleeps
// long most often, is left out: its passes are not the program's runs.
// The medians are of each kind's runs.
func (t tally) writeParks(w io.Writer) {
	sysmon := map[string]string{} // by process
	for task, ps := range t.parks {
		pid := process(task)
		if s, ok := sysmon[pid]; !ok || len(ps) > len(t.parks[s]) || (len(ps) == len(t.parks[s]) && task < s) {
			sysmon[pid] = task
		}
	}
	var waited, soon []float64
	for task, ps := range t.parks {
		if sysmon[process(task)] == task {
			continue
		}
		for _, p := range ps {
			if p.waited {
				waited = append(waited, p.ranBefore)
			} else {
				soon = append(soon, p.ranBefore)
			}
		}
	}
	if len(waited)+len(soon) == 0 {
		return
	}
	fmt.Fprintf(w, "long sleeps of the threads but sysmon, by the run just before: waited 1ms or more %d, median run %s; ran sooner %d, median run %s\n",
		len(waited), medianMs(waited), len(soon), medianMs(soon))
}

// process is the process a timehist task name belongs to: NAME[tid/pid]
// or, for its first thread, NAME[pid].
func process(task string) string {
	open := strings.LastIndex(task, "[")
	if open < 0 || !strings.HasSuffix(task, "]") {
		return task
	}
	id := task[open+1 : len(task)-1]
	if i := strings.Index(id, "/"); i >= 0 {
		return id[i+1:]
	}
	return id
}

// medianMs is the median of ms, or "-" for none.
func medianMs(ms []float64) string {
	if len(ms) == 0 {
		return "-"
	}
	return strconv.FormatFloat(probe.Summarize(ms).Middle, 'f', 3, 64) + "ms"
}
