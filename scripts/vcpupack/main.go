//go:build linux && (amd64 || arm64)

// Command vcpupack measures where Linux puts a thread that a busy thread
// wakes while another CPU is idle: on the idle CPU, as upstream Linux's
// select_idle_sibling does, or on the waker's busy CPU, packed beside it.
//
//	go run ./scripts/vcpupack                     # 10 runs, the woken thread last ran on the waker's CPU, asleep 1ms
//	go run ./scripts/vcpupack -prev other -sleep 8ms
//	go run ./scripts/vcpupack -prev other -sleep 8ms -busy 30
//
// Each run is a fresh process with two threads, on the first two CPUs the
// process may use. The waker computes on the first (pinned there); the
// sleeper runs 50µs on the CPU -prev names (the waker's, or the other),
// pinned there for it, then may run on any of the process's CPUs again
// and blocks in read(2) on a pipe. After -sleep, the waker writes
// a byte; the sleeper, back from read, asks getcpu(2) where it runs and
// when. So each round says where the kernel put the woken thread and how
// long it waited to run. With -busy below 100 the waker computes only that
// share of each millisecond and sleeps the rest (nanosleep), writing only
// while it computes, so that its CPU is partly idle as the kernel averages
// it; each run's line gives the share it computed, the timer slack
// lengthening its sleeps. Both threads stay in raw system calls and
// functions without a stack check, with the runtime's asynchronous
// preemption off, so that no goroutine switch or signal of the runtime's
// own moves them; the runtime's sysmon still wakes now and then.
//
// The figure is the share of rounds in which the woken thread ran on the
// waker's CPU; the line gives its median wait there and elsewhere. What it
// found on this project's machine, and why that machine's kernel packs, is
// in docs/fidelity.md ("Packed on a busy CPU").
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/schedlab/schedlab/scripts/internal/probe"
)

const (
	prog   = "vcpupack"
	runEnv = "SCHEDLAB_VCPUPACK_RUN"
	// warm is how long the sleeper runs on its first CPU each round.
	warm = 50 * time.Microsecond
	// giveUp is how long the waker computes after its write for the
	// sleeper to run before it goes on to the next round; the round
	// counts all the same, with the wait it had.
	giveUp = 50 * time.Millisecond
)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

func main() {
	runs := probe.RunsFlag()
	rounds := flag.Int("rounds", 100, "rounds per run: run on -prev, sleep, be woken")
	prev := flag.String("prev", "waker", "where the sleeper runs before it sleeps: waker (the waker's CPU) or other (another idle one)")
	sleep := flag.Duration("sleep", time.Millisecond, "how long the sleeper is blocked before the waker wakes it")
	busy := flag.Int("busy", 100, "the share of each millisecond, in percent, that the waker computes; it sleeps the rest and writes only while it computes")
	probe.SetUsage("vcpupack [-runs N] [-rounds N] [-prev waker|other] [-sleep D] [-busy PERCENT]")
	flag.Parse()
	if flag.NArg() != 0 {
		probe.BadUsage()
	}
	if *rounds < 1 || *rounds > 10000 || *sleep < 100*time.Microsecond || *sleep > time.Second {
		fmt.Fprintf(os.Stderr, "%s: -rounds must be 1 to 10000 and -sleep 100µs to 1s\n", prog)
		os.Exit(2)
	}
	if *busy < 10 || *busy > 100 {
		fmt.Fprintf(os.Stderr, "%s: -busy must be 10 to 100 (percent), got %d\n", prog, *busy)
		os.Exit(2)
	}
	if *prev != "waker" && *prev != "other" {
		fmt.Fprintf(os.Stderr, "%s: -prev must be waker or other, got %q\n", prog, *prev)
		os.Exit(2)
	}
	cpus, err := allowed()
	if err != nil {
		probe.Fail(prog, err)
	}
	if os.Getenv(runEnv) == "1" && os.Getenv("GODEBUG") != "asyncpreemptoff=1" {
		// The child runs with the runtime's preemption signals off.
		probe.Fail(prog, fmt.Errorf("a run needs GODEBUG=asyncpreemptoff=1"))
	}
	os.Setenv("GODEBUG", "asyncpreemptoff=1")
	shares := probe.Fresh(prog, runEnv, *runs, os.Args[1:], func() (float64, string) {
		return summarize(measure(cpus, *rounds, *prev == "other", *sleep, *busy))
	})
	where := "the waker's CPU"
	if *prev == "other" {
		where = "another CPU"
	}
	duty := ""
	if *busy < 100 {
		duty = fmt.Sprintf(", the waker computing %d%% of each millisecond", *busy)
	}
	fmt.Printf("woken on the waker's CPU (%%, the sleeper on %s before, asleep %v%s), %s\n", where, *sleep, duty, probe.Summarize(shares))
}

// A wake is one round: whether the woken thread ran on the waker's CPU,
// and how long after the write it ran.
type wake struct {
	packed bool
	wait   time.Duration
}

// A cpuSet is the kernel's CPU mask (cpu_set_t, 1024 CPUs).
type cpuSet [16]uint64

// cpus are the CPUs a run uses: the waker's, another, and every CPU the
// process may use, which the sleeper gets back before it blocks.
type cpus struct {
	waker, other int
	all          cpuSet
}

// allowed finds the process's first two CPUs.
func allowed() (cpus, error) {
	var c cpus
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(c.all), uintptr(unsafe.Pointer(&c.all))); e != 0 {
		return c, fmt.Errorf("sched_getaffinity: %v", e)
	}
	var found []int
	for k := 0; k < 64*len(c.all) && len(found) < 2; k++ {
		if c.all[k/64]&(1<<(k%64)) != 0 {
			found = append(found, k)
		}
	}
	if len(found) < 2 {
		return c, fmt.Errorf("needs 2 CPUs, and this process may use %d", len(found))
	}
	c.waker, c.other = found[0], found[1]
	return c, nil
}

// one is the mask of CPU k alone.
func one(k int) cpuSet {
	var m cpuSet
	m[k/64] = 1 << (k % 64)
	return m
}

// summarize gives the share of wakes on the waker's CPU, in percent, and
// the run's line; computed, if not negative, is the share of the run the
// waker computed, in percent.
func summarize(w []wake, computed float64) (float64, string) {
	var packed, spread []time.Duration
	for _, x := range w {
		if x.packed {
			packed = append(packed, x.wait)
		} else {
			spread = append(spread, x.wait)
		}
	}
	share := 100 * float64(len(packed)) / float64(len(w))
	line := fmt.Sprintf("%d rounds: %d on the waker's CPU (wait median %s, max %s), %d elsewhere (median %s)",
		len(w), len(packed), median(packed), maxOf(packed), len(spread), median(spread))
	if computed >= 0 {
		line += fmt.Sprintf("; the waker computed %.0f%% of the run", computed)
	}
	return share, line
}

func median(d []time.Duration) string {
	if len(d) == 0 {
		return "-"
	}
	s := slices.Sorted(slices.Values(d))
	return s[len(s)/2].Round(time.Microsecond).String()
}

func maxOf(d []time.Duration) string {
	if len(d) == 0 {
		return "-"
	}
	return slices.Max(d).Round(time.Microsecond).String()
}

// shared is what the two threads exchange.
type shared struct {
	blocked atomic.Int64 // when the sleeper went to read, 0 once the waker has written
	wrote   atomic.Int64 // the time of the waker's last write
	woke    atomic.Int64 // the round's write time, when the sleeper has run again
	slept   int64        // the waker's time in its -busy sleeps
	fds     [2]int
	written []int64 // per round: the write's time
	ran     []int64 // per round: the sleeper's time back from read
	cpus    []int32 // per round: the sleeper's CPU then
}

// measure runs rounds rounds and returns them, with the share of the run
// the waker computed, in percent (-1 if it always computes).
func measure(c cpus, rounds int, other bool, sleep time.Duration, busy int) ([]wake, float64) {
	runtime.GOMAXPROCS(3)
	var sh shared
	if err := syscall.Pipe(sh.fds[:]); err != nil {
		probe.Fail(prog, err)
	}
	sh.written = make([]int64, rounds)
	sh.ran = make([]int64, rounds)
	sh.cpus = make([]int32, rounds)
	done := make(chan error, 2)
	start := nanotime()
	go func() {
		runtime.LockOSThread()
		m := one(c.waker)
		done <- pin(&m)
		wakerLoop(&sh, rounds, int64(sleep), int64(busy))
		done <- nil
	}()
	if err := <-done; err != nil {
		probe.Fail(prog, err)
	}
	go func() {
		runtime.LockOSThread()
		first := one(c.waker)
		if other {
			first = one(c.other)
		}
		done <- pin(&first)
		sleeperLoop(&sh, rounds, &first, &c.all)
		done <- nil
	}()
	if err := <-done; err != nil {
		probe.Fail(prog, err)
	}
	<-done
	<-done
	computed := -1.0
	if busy < 100 {
		computed = 100 * (1 - float64(sh.slept)/float64(nanotime()-start))
	}
	out := make([]wake, rounds)
	for i := range out {
		out[i] = wake{packed: int(sh.cpus[i]) == c.waker, wait: time.Duration(sh.ran[i] - sh.written[i])}
	}
	return out, computed
}

// pin keeps the calling thread on the CPUs of m.
//
//go:nosplit
func pin(m *cpuSet) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(*m), uintptr(unsafe.Pointer(m)))
	if e != 0 {
		return e
	}
	return nil
}

// wakerLoop computes on its CPU (busy percent of each millisecond, and
// sleeps the rest); each round it waits for the sleeper to block, lets it
// sleep, writes, and goes on until the sleeper has run.
//
//go:nosplit
func wakerLoop(sh *shared, rounds int, sleep, busy int64) {
	b := [1]byte{1}
	const period = int64(time.Millisecond)
	rest := syscall.Timespec{Nsec: (100 - busy) * period / 100}
	phase := nanotime()
	for i := 0; i < rounds; i++ {
		var since int64
		for since = sh.blocked.Load(); since == 0; since = sh.blocked.Load() {
			phase = duty(sh, phase, busy*period/100, &rest)
		}
		for nanotime()-since < sleep {
			phase = duty(sh, phase, busy*period/100, &rest)
		}
		t := nanotime()
		sh.written[i] = t
		sh.wrote.Store(t)
		sh.blocked.Store(0)
		syscall.RawSyscall(syscall.SYS_WRITE, uintptr(sh.fds[1]), uintptr(unsafe.Pointer(&b[0])), 1)
		for sh.woke.Load() != t && nanotime()-t < int64(giveUp) {
			phase = duty(sh, phase, busy*period/100, &rest)
		}
	}
}

// duty sleeps for rest once the waker has computed for compute since
// phase, and returns when the next stretch of computing began.
//
//go:nosplit
func duty(sh *shared, phase, compute int64, rest *syscall.Timespec) int64 {
	if rest.Nsec == 0 || nanotime()-phase < compute {
		return phase
	}
	t := nanotime()
	syscall.RawSyscall(syscall.SYS_NANOSLEEP, uintptr(unsafe.Pointer(rest)), 0, 0)
	now := nanotime()
	sh.slept += now - t
	return now
}

// sleeperLoop, each round, runs warm on the CPU of first, is let free
// (all), and blocks in read until the waker writes; then it notes where
// and when it runs.
//
//go:nosplit
func sleeperLoop(sh *shared, rounds int, first, all *cpuSet) {
	var b [1]byte
	for i := 0; i < rounds; i++ {
		pin(first)
		for t := nanotime(); nanotime()-t < int64(warm); {
		}
		pin(all)
		sh.blocked.Store(nanotime())
		syscall.RawSyscall(syscall.SYS_READ, uintptr(sh.fds[0]), uintptr(unsafe.Pointer(&b[0])), 1)
		t := nanotime()
		var cpu uint32
		syscall.RawSyscall(sysGetcpu, uintptr(unsafe.Pointer(&cpu)), 0, 0)
		sh.ran[i] = t
		sh.cpus[i] = int32(cpu)
		sh.woke.Store(sh.wrote.Load())
	}
}
