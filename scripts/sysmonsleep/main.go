// Command sysmonsleep measures how long the runtime's sysmon thread
// really sleeps when it asks for its longest sleep, 10ms (sysmon's delay
// after a while with nothing to do), beside goroutines that compute. A
// look that comes late moves every later look, and with them the
// moment sysmon preempts a goroutine that has run 10ms: the model's
// sysmon sleeps its delay plus the timer slack (core/gmp sysmon.go,
// usleep), and docs/fidelity.md ("Sysmon's late looks on two Ps") has
// what this found on the project's machine.
//
// It is two programs in one. With -busy N it is the workload: on 2 Ps,
// N goroutines compute for -for (150ms unless told), checking the clock,
// while main waits (and with -trace FILE, runtime/trace records it, as
// verify's real programs are recorded); run it under perf:
//
//	go build -o /tmp/sysmonsleep ./scripts/sysmonsleep
//	perf record -e syscalls:sys_enter_nanosleep -e syscalls:sys_exit_nanosleep -o p.data /tmp/sysmonsleep -busy 1
//	perf script -i p.data -F tid,time,event > b1-1.txt
//
// Without -busy it reads such perf script output, one file a run (or
// standard input), and reports each run's long sleeps of sysmon's, the
// thread that made the most nanosleep calls: how many lasted at least
// -long (9ms), how many of those more than -late (10.5ms), and how long
// those lasted; then the same over every run, with how far beyond 10ms
// the counted sleeps came back (their 10th percentile, median and 90th),
// to set beside calibrate's nanosleep_slack_long_busy. The program a
// scenario's verify runs can be the workload too: schedlab real NAME
// --runs 0 --emit DIR writes it, go build in DIR builds it.
//
//	go run ./scripts/sysmonsleep b1-*.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/trace"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
)

// call is one nanosleep system call of one thread: when it entered and
// when it returned, in seconds.
type call struct{ enter, exit float64 }

// parseLine reads a line of perf script -F tid,time,event:
// "TID TIME: syscalls:sys_enter_nanosleep: …". It returns the thread,
// the time, and whether the event is an entry (else an exit); ok is
// false for any other line.
func parseLine(line string) (tid int, at float64, enter, ok bool) {
	f := strings.Fields(line)
	if len(f) < 3 {
		return 0, 0, false, false
	}
	tid, err := strconv.Atoi(f[0])
	if err != nil {
		return 0, 0, false, false
	}
	at, err = strconv.ParseFloat(strings.TrimSuffix(f[1], ":"), 64)
	if err != nil || !strings.HasSuffix(f[1], ":") {
		return 0, 0, false, false
	}
	switch strings.TrimSuffix(f[2], ":") {
	case "syscalls:sys_enter_nanosleep":
		return tid, at, true, true
	case "syscalls:sys_exit_nanosleep":
		return tid, at, false, true
	}
	return 0, 0, false, false
}

// sleeps reads one run's trace and returns the sleeps of the thread that
// made the most nanosleep calls, sysmon (the runtime's usleep is a
// nanosleep, and sysmon calls it every 20µs to 10ms), and that thread.
func sleeps(r io.Reader) (tid int, out []call, err error) {
	open := map[int]float64{}
	calls := map[int][]call{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		t, at, enter, ok := parseLine(sc.Text())
		if !ok {
			continue
		}
		if enter {
			open[t] = at
			continue
		}
		if from, ok := open[t]; ok {
			calls[t] = append(calls[t], call{from, at})
			delete(open, t)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, nil, err
	}
	best := -1
	for t, c := range calls {
		if best < 0 || len(c) > len(calls[best]) || len(c) == len(calls[best]) && t < best {
			best = t
		}
	}
	if best < 0 {
		return 0, nil, fmt.Errorf("no nanosleep call that returned: record syscalls:sys_enter_nanosleep and sys_exit_nanosleep")
	}
	return best, calls[best], nil
}

// tally is the long sleeps over the runs read.
type tally struct {
	long, late time.Duration
	runs       int
	longN      int
	lates      []time.Duration
	// over is each counted sleep's time beyond sysmon's 10ms: the slack
	// the model's long sleeps take (calibrate's nanosleep_slack_long and
	// nanosleep_slack_long_busy).
	over []time.Duration
}

// add counts one run's sleeps and returns its line of the report.
func (t *tally) add(name string, tid int, cs []call) string {
	t.runs++
	n := 0
	var lates []string
	for _, c := range cs {
		d := time.Duration((c.exit - c.enter) * 1e9)
		if d < t.long {
			continue
		}
		n++
		t.over = append(t.over, d-10*time.Millisecond)
		if d > t.late {
			t.lates = append(t.lates, d)
			lates = append(lates, ms(d))
		}
	}
	t.longN += n
	line := fmt.Sprintf("%s: sysmon (thread %d): %d sleeps of %s or more, %d over %s", name, tid, n, ms(t.long), len(lates), ms(t.late))
	if len(lates) > 0 {
		line += ": " + strings.Join(lates, ", ")
	}
	return line
}

// summary is the report's last line.
func (t *tally) summary() string {
	sort.Slice(t.lates, func(i, j int) bool { return t.lates[i] < t.lates[j] })
	line := fmt.Sprintf("%d run%s: %d sleeps of %s or more, %d over %s", t.runs, plural(t.runs), t.longN, ms(t.long), len(t.lates), ms(t.late))
	if n := len(t.lates); n > 0 {
		line += fmt.Sprintf(" (%s to %s, median %s)", ms(t.lates[0]), ms(t.lates[n-1]), ms(t.lates[n/2]))
	}
	if n := len(t.over); n > 0 {
		sort.Slice(t.over, func(i, j int) bool { return t.over[i] < t.over[j] })
		line += fmt.Sprintf("; beyond 10ms, p10 %s, median %s, p90 %s", us(t.over[n/10]), us(t.over[n/2]), us(t.over[n*9/10]))
	}
	return line
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/1e6) }

func us(d time.Duration) string { return fmt.Sprintf("%.0fµs", float64(d)/1e3) }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// work is the workload: on 2 Ps, busy goroutines each compute for d in
// the loop a scenario's cpu action runs (cpuwork), reading the clock
// between rounds, while main waits for them; traced into
// traceFile if it is not empty, as verify's real programs are.
func work(busy int, d time.Duration, traceFile string) error {
	runtime.GOMAXPROCS(2)
	if traceFile != "" {
		f, err := os.Create(traceFile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return err
		}
		defer trace.Stop()
	}
	var wg sync.WaitGroup
	sink := make([]uint64, busy)
	for i := range busy {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var x uint64
			for end := time.Now().Add(d); time.Now().Before(end); {
				x ^= cpuwork.Alone(1000)
			}
			sink[i] = x
		}()
	}
	wg.Wait()
	return nil
}

func main() {
	busy := flag.Int("busy", 0, "be the workload: this many goroutines (1 or 2) compute on 2 Ps")
	length := flag.Duration("for", 150*time.Millisecond, "how long the workload's goroutines compute")
	traceFile := flag.String("trace", "", "the workload: record a runtime trace into this file meanwhile")
	long := flag.Duration("long", 9*time.Millisecond, "the shortest sleep counted: sysmon's longest asks for 10ms")
	late := flag.Duration("late", 10500*time.Microsecond, "a counted sleep that lasts longer than this is late")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: sysmonsleep -busy N [-for D]   (the workload, under perf record)\n       sysmonsleep [-long D] [-late D] [perf-script.txt …]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *busy != 0 {
		if *busy < 1 || *busy > 2 || *length <= 0 || *length > time.Minute || flag.NArg() > 0 {
			flag.Usage()
			os.Exit(2)
		}
		if err := work(*busy, *length, *traceFile); err != nil {
			fmt.Fprintln(os.Stderr, "sysmonsleep:", err)
			os.Exit(1)
		}
		return
	}
	if *long <= 0 || *late < *long {
		flag.Usage()
		os.Exit(2)
	}
	t := &tally{long: *long, late: *late}
	read := func(name string, r io.Reader) {
		tid, cs, err := sleeps(r)
		if err != nil {
			fmt.Fprintf(os.Stderr, "sysmonsleep: %s: %v\n", name, err)
			os.Exit(1)
		}
		fmt.Println(t.add(name, tid, cs))
	}
	if flag.NArg() == 0 {
		read("standard input", os.Stdin)
	}
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sysmonsleep:", err)
			os.Exit(1)
		}
		read(name, f)
		f.Close()
	}
	fmt.Println(t.summary())
}
