// Command underload measures, on the real runtime, the four patterns whose
// figures depend on what else the machine runs (issue 27): how long the
// first wake-up of an idle P takes, how a fan-in's consumer alternates
// between producers, how evenly a Gosched storm ends, and how long a 20ms
// sleep beside two call-free hogs lasts. The model's side of each is a
// scenario in core/scenarios/testdata/machine (go test -run
// TestMachineCases -v ./core/scenarios/).
//
//	go run ./scripts/underload first-wakeup
//	go run ./scripts/underload fan-in
//	go run ./scripts/underload gosched-storm
//	go run ./scripts/underload sleepers
//	go run ./scripts/underload -runs 20 fan-in
//
// Each run is a fresh process (the program runs itself again). The parent
// prints /proc/loadavg before the first run and after the last, one line a
// run, and each figure's median and range. Every run also reads its own
// threads' /proc schedstat over the pattern: "waited" is the share of the
// time its threads were runnable that they spent waiting for a CPU rather
// than on one. It says how busy the machine was for this program, which
// the load average, a count of runnable threads over every session, does
// not (the kernel's autogroups share the CPUs between sessions first); the
// model's --load is matched to it (core/gmp/machine_test.go).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// runEnv names the probe a child process runs once.
const runEnv = "SCHEDLAB_UNDERLOAD_RUN"

// A figure is one number a probe measures.
type figure struct {
	name string
	v    float64
}

// A pattern is what one name on the command line measures.
type pattern struct {
	what string
	run  func() []figure
}

var probes = map[string]pattern{
	"first-wakeup":  {"4 Ps, one G creates 16 then computes: first go to the first child starting", firstWakeup},
	"fan-in":        {"2 Ps, 4 producers × 500 sends of 20µs work into one consumer, unbuffered", fanIn},
	"gosched-storm": {"2 Ps, 4 goroutines × 2000 × (5µs + Gosched)", goschedStorm},
	"sleepers":      {"2 Ps, a 20ms sleeper beside two call-free hogs", sleepers},
}

func main() {
	runs := probe.RunsFlag()
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./scripts/underload [-runs N] first-wakeup|fan-in|gosched-storm|sleepers\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	name := flag.Arg(0)
	p, ok := probes[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "underload: no probe %q\n", name)
		flag.Usage()
		os.Exit(2)
	}
	if os.Getenv(runEnv) == name {
		figs := p.run()
		figs = append(figs, figure{"waited%", waited.share()})
		var parts []string
		for _, f := range figs {
			parts = append(parts, f.name+"="+strconv.FormatFloat(f.v, 'g', 6, 64))
		}
		fmt.Println(strings.Join(parts, " "))
		return
	}
	if *runs < 1 {
		fmt.Fprintln(os.Stderr, "underload: -runs must be at least 1")
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "underload:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %s\n", name, p.what)
	fmt.Printf("loadavg before: %s\n", probe.Loadavg())
	var names []string
	got := map[string][]float64{}
	for i := range *runs {
		cmd := exec.Command(self, name)
		cmd.Env = append(os.Environ(), runEnv+"="+name)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "underload: run %d: %v\n", i+1, err)
			os.Exit(1)
		}
		line := strings.TrimSpace(string(out))
		fmt.Printf("run %d: %s\n", i+1, line)
		for _, kv := range strings.Fields(line) {
			k, v, _ := strings.Cut(kv, "=")
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				fmt.Fprintf(os.Stderr, "underload: run %d printed %q\n", i+1, line)
				os.Exit(1)
			}
			if _, seen := got[k]; !seen {
				names = append(names, k)
			}
			got[k] = append(got[k], x)
		}
	}
	fmt.Printf("loadavg after: %s\n", probe.Loadavg())
	for _, k := range names {
		v := got[k]
		slices.Sort(v)
		fmt.Printf("%s %s, %d runs: median %.4g, range %.4g–%.4g\n", name, k, len(v), v[len(v)/2], v[0], v[len(v)-1])
	}
}

// schedstat sums every thread's /proc schedstat: the time on a CPU and
// the time runnable but waiting for one (run_delay), in ns.
func schedstat() (on, wait float64) {
	files, _ := filepath.Glob("/proc/self/task/*/schedstat")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fs := strings.Fields(string(b))
		if len(fs) < 2 {
			continue
		}
		a, _ := strconv.ParseFloat(fs[0], 64)
		w, _ := strconv.ParseFloat(fs[1], 64)
		on += a
		wait += w
	}
	return on, wait
}

// waitWindow is the program's threads' schedstat over the pattern alone,
// after the spin loop's calibration: a probe calls begin when its pattern
// starts and end when it is over.
type waitWindow struct{ on0, wait0, on, wait float64 }

var waited waitWindow

func (w *waitWindow) begin() { w.on0, w.wait0 = schedstat() }

func (w *waitWindow) end() {
	on, wait := schedstat()
	w.on, w.wait = on-w.on0, wait-w.wait0
}

// share is the share, in percent, of the time the threads could run that
// they spent waiting for a CPU.
func (w *waitWindow) share() float64 {
	if w.on+w.wait == 0 {
		return 0
	}
	return 100 * w.wait / (w.on + w.wait)
}

// firstWakeup: on 4 Ps, main creates 16 goroutines and then computes, so
// that a child can only start on another P, whose M the first go
// statement's wakep starts.
func firstWakeup() []figure {
	runtime.GOMAXPROCS(4)
	cpuwork.Calibrate()
	var first atomic.Int64
	var wg sync.WaitGroup
	waited.begin()
	start := time.Now()
	for range 16 {
		wg.Add(1)
		go func() {
			first.CompareAndSwap(0, int64(time.Since(start)))
			cpuwork.Compute(2 * time.Millisecond)
			wg.Done()
		}()
	}
	cpuwork.Compute(5 * time.Millisecond)
	wg.Wait()
	waited.end()
	return []figure{{"first_us", float64(first.Load()) / 1e3}}
}

// fanIn: on 2 Ps, four producers each compute 20µs and send their number,
// 500 times, into one unbuffered channel that main receives from.
func fanIn() []figure {
	runtime.GOMAXPROCS(2)
	cpuwork.Calibrate()
	ch := make(chan int)
	waited.begin()
	for id := range 4 {
		go func() {
			for range 500 {
				cpuwork.Compute(20 * time.Microsecond)
				ch <- id
			}
		}()
	}
	switches, run, longest, last := 0, 0, 0, -1
	for range 2000 {
		id := <-ch
		if id == last {
			run++
		} else {
			if last >= 0 {
				switches++
			}
			run = 1
			last = id
		}
		longest = max(longest, run)
	}
	waited.end()
	return []figure{{"switch%", 100 * float64(switches) / 1999}, {"longest_run", float64(longest)}}
}

// goschedStorm: on 2 Ps, four goroutines each compute 5µs and yield, 2000
// times; the spread is from the first to finish to the last, as a share of
// the whole run.
func goschedStorm() []figure {
	runtime.GOMAXPROCS(2)
	cpuwork.Calibrate()
	var wg sync.WaitGroup
	var ends [4]time.Duration
	waited.begin()
	start := time.Now()
	for i := range 4 {
		wg.Add(1)
		go func() {
			for range 2000 {
				cpuwork.Compute(5 * time.Microsecond)
				runtime.Gosched()
			}
			ends[i] = time.Since(start)
			wg.Done()
		}()
	}
	wg.Wait()
	waited.end()
	lo, hi := slices.Min(ends[:]), slices.Max(ends[:])
	return []figure{{"spread%", 100 * float64(hi-lo) / float64(hi)}, {"run_ms", float64(hi) / 1e6}}
}

// hogSink keeps the hogs' loops from being optimised away.
var hogSink atomic.Uint64

// hog spins without a function call (so without a safe point the runtime
// can use synchronously: only sysmon's signal stops it) until stop is set.
func hog(stop *atomic.Bool) {
	x := uint64(88172645463325252)
	for !stop.Load() {
		for range 1 << 12 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	hogSink.Add(x)
}

// sleepers: on 2 Ps, two call-free hogs compute while main sleeps 20ms,
// twenty times; the figure is the median of main's sleeps.
func sleepers() []figure {
	runtime.GOMAXPROCS(2)
	var stop atomic.Bool
	var wg sync.WaitGroup
	waited.begin()
	for range 2 {
		wg.Add(1)
		go func() { hog(&stop); wg.Done() }()
	}
	var took []float64
	for range 20 {
		t := time.Now()
		time.Sleep(20 * time.Millisecond)
		took = append(took, float64(time.Since(t).Microseconds())/1e3)
	}
	waited.end()
	stop.Store(true)
	wg.Wait()
	slices.Sort(took)
	return []figure{{"median_sleep_ms", took[len(took)/2]}, {"max_sleep_ms", took[len(took)-1]}}
}
