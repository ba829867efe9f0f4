package calibrate

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Where the kernel puts a woken thread (wakepack.go says what for): two
// threads on the first two CPUs the process may use. The waker computes
// on the first, pinned there, busy percent of each millisecond, and
// sleeps (nanosleep) the rest; the sleeper runs packWarm on the CPU it
// starts a round on (the waker's, or the other), pinned there for it,
// then may run on both again and blocks in read(2) on a pipe. After the
// round's sleep the waker, computing, writes a byte; the sleeper, back
// from read, asks getcpu(2) where it runs and when. Both threads stay in
// raw system calls and functions without a stack check, so that no
// goroutine switch of the runtime's moves them; the process must run
// with GODEBUG=asyncpreemptoff=1, or the runtime's preemption signals
// would (PackRounds refuses otherwise).

const (
	// packWarm is how long the sleeper runs on its first CPU each round.
	packWarm = 50 * time.Microsecond
	// packGiveUp is how long the waker waits after its write for the
	// sleeper to run before it goes on to the next round; the round
	// counts all the same, with the wait it had.
	packGiveUp = 50 * time.Millisecond
)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// A cpuMask is the kernel's CPU mask (cpu_set_t, 1024 CPUs), set by raw
// system calls in functions without a stack check.
type cpuMask [16]uint64

func maskOf(k int) cpuMask {
	var m cpuMask
	m[k/64] = 1 << (k % 64)
	return m
}

// PackRounds runs rounds rounds in which a thread asleep for sleep, which
// last ran on the waker's CPU if beside and on the other CPU if not, is
// woken by a thread that computes as duty says. It returns them with the
// share of the time the waker computed, in percent (its sleeps last their
// timer slack longer than asked). It needs two CPUs and
// GODEBUG=asyncpreemptoff=1.
func PackRounds(beside bool, sleep time.Duration, duty PackDuty, rounds int) ([]PackRound, float64, error) {
	if err := duty.Check(); err != nil {
		return nil, 0, err
	}
	if rounds < 1 || sleep <= 0 {
		return nil, 0, fmt.Errorf("want at least a round of a positive sleep, got %d and %v", rounds, sleep)
	}
	busy := duty.Busy
	if !asyncPreemptOff() {
		return nil, 0, errors.New("needs GODEBUG=asyncpreemptoff=1: the runtime's preemption signals would move the threads")
	}
	waker, other := twoCPUs()
	if waker < 0 {
		return nil, 0, errors.New("needs two CPUs this process may use")
	}
	var all cpuMask
	if _, _, e := unix.RawSyscall(unix.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(all), uintptr(unsafe.Pointer(&all))); e != 0 {
		return nil, 0, fmt.Errorf("sched_getaffinity: %v", e)
	}
	prev := runtime.GOMAXPROCS(max(3, runtime.GOMAXPROCS(0)))
	defer runtime.GOMAXPROCS(prev)
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		return nil, 0, err
	}
	defer unix.Close(p[0])
	defer unix.Close(p[1])
	sh := &packShared{rfd: p[0], wfd: p[1], sleep: int64(sleep), busy: int64(busy),
		period: int64(duty.Period), settle: int64(duty.Settle),
		written: make([]int64, rounds), ran: make([]int64, rounds), cpus: make([]int32, rounds)}
	sh.rest = unix.NsecToTimespec(int64(100-busy) * int64(duty.Period) / 100)
	done := make(chan error, 2)
	start := nanotime()
	go func() {
		runtime.LockOSThread()
		m := maskOf(waker)
		done <- pinMask(&m)
		packWaker(sh, rounds)
		done <- nil
	}()
	if err := <-done; err != nil {
		return nil, 0, err
	}
	go func() {
		runtime.LockOSThread()
		first := maskOf(waker)
		if !beside {
			first = maskOf(other)
		}
		done <- pinMask(&first)
		packSleeper(sh, rounds, &first, &all)
		done <- nil
	}()
	if err := <-done; err != nil {
		return nil, 0, err
	}
	<-done
	<-done
	computed := 100.0
	if busy < 100 {
		computed = 100 * (1 - float64(sh.slept)/float64(nanotime()-start))
	}
	out := make([]PackRound, rounds)
	for i := range out {
		out[i] = PackRound{Packed: int(sh.cpus[i]) == waker, Wait: time.Duration(sh.ran[i] - sh.written[i])}
	}
	return out, computed, nil
}

// asyncPreemptOff says whether GODEBUG turns the runtime's preemption
// signals off.
func asyncPreemptOff() bool {
	return slices.Contains(strings.Split(os.Getenv("GODEBUG"), ","), "asyncpreemptoff=1")
}

// packShared is what the two threads exchange. The waker's own fields
// (slept, phase) are read by PackRounds after it has said it is done.
type packShared struct {
	blocked  atomic.Int64 // when the sleeper went to read, 0 once the waker has written
	wrote    atomic.Int64 // the time of the waker's last write
	woke     atomic.Int64 // the round's write time, once the sleeper has run again
	rfd, wfd int
	sleep    int64
	busy     int64
	period   int64         // the waker's period of computing and sleeping
	settle   int64         // how long it keeps to it before the first round
	rest     unix.Timespec // the waker's sleep each period
	phase    int64         // when the waker's current stretch of computing began
	slept    int64         // the waker's time in its sleeps
	written  []int64       // per round: the write's time
	ran      []int64       // per round: the sleeper's time back from read
	cpus     []int32       // per round: the sleeper's CPU then
}

// pinMask holds the calling thread to the CPUs of m.
//
//go:nosplit
func pinMask(m *cpuMask) error {
	if _, _, e := unix.RawSyscall(unix.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(*m), uintptr(unsafe.Pointer(m))); e != 0 {
		return e
	}
	return nil
}

// duty sleeps the rest of the period once the waker has computed its
// share of it.
//
//go:nosplit
func (sh *packShared) duty() {
	if sh.busy == 100 || nanotime()-sh.phase < sh.busy*sh.period/100 {
		return
	}
	t := nanotime()
	unix.RawSyscall(unix.SYS_NANOSLEEP, uintptr(unsafe.Pointer(&sh.rest)), 0, 0)
	now := nanotime()
	sh.slept += now - t
	sh.phase = now
}

// packWaker keeps to its share of computing for its settling time, then each
// round waits for the sleeper to block, lets it sleep, writes, and goes
// on until the sleeper has run.
//
//go:nosplit
func packWaker(sh *packShared, rounds int) {
	b := [1]byte{1}
	sh.phase = nanotime()
	for t := nanotime(); nanotime()-t < sh.settle; {
		sh.duty()
	}
	for i := 0; i < rounds; i++ {
		var since int64
		for since = sh.blocked.Load(); since == 0; since = sh.blocked.Load() {
			sh.duty()
		}
		for nanotime()-since < sh.sleep {
			sh.duty()
		}
		t := nanotime()
		sh.written[i] = t
		sh.wrote.Store(t)
		sh.blocked.Store(0)
		unix.RawSyscall(unix.SYS_WRITE, uintptr(sh.wfd), uintptr(unsafe.Pointer(&b[0])), 1)
		for sh.woke.Load() != t && nanotime()-t < int64(packGiveUp) {
			sh.duty()
		}
	}
}

// packSleeper, each round, runs packWarm on the CPUs of first, is let
// free (all), and blocks in read until the waker writes; then it notes
// where and when it runs.
//
//go:nosplit
func packSleeper(sh *packShared, rounds int, first, all *cpuMask) {
	var b [1]byte
	for i := 0; i < rounds; i++ {
		pinMask(first)
		for t := nanotime(); nanotime()-t < int64(packWarm); {
		}
		pinMask(all)
		sh.blocked.Store(nanotime())
		unix.RawSyscall(unix.SYS_READ, uintptr(sh.rfd), uintptr(unsafe.Pointer(&b[0])), 1)
		t := nanotime()
		var cpu uint32
		unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0)
		sh.ran[i] = t
		sh.cpus[i] = int32(cpu)
		sh.woke.Store(sh.wrote.Load())
	}
}
