package calibrate

import (
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/schedlab/schedlab/real/prog/cpuwork"
	"golang.org/x/sys/unix"
)

// measured says whether Measure can measure this system: the figures
// are Linux's (futex, nanosleep, sched_setaffinity), the runtime's
// threads' system.
const measured = true

// contextSwitch times a hop between two threads on one CPU through two
// pipes: a write, the reader's wake-up, the switch to it, and its read.
// Where the kernel does not let the threads be held to one CPU, it places
// them, and the figure may include a cross-CPU wake-up.
func contextSwitch(n int) []float64 {
	// there carries the hops out, back the echoes: [0] reads, [1] writes.
	there, back, closeRest, err := pipePair()
	if err != nil {
		return nil
	}
	defer closeRest()
	prev := runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	defer runtime.GOMAXPROCS(prev)
	cpu := firstCPU()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread() // never unlocked: the pinned thread ends here
		pinToCPU(cpu)
		b := make([]byte, 1)
		for {
			if k, err := readFull(there[0], b); k == 0 || err != nil {
				return
			}
			if _, err := syscall.Write(back[1], b); err != nil {
				return
			}
		}
	}()
	out := make(chan []float64)
	go func() {
		runtime.LockOSThread() // never unlocked, as above
		pinToCPU(cpu)
		b := []byte{1}
		samples := make([]float64, 0, n)
		for i := range n + warm(n) {
			t0 := time.Now()
			for range hopRounds {
				if _, err := syscall.Write(there[1], b); err != nil {
					break
				}
				if _, err := readFull(back[0], b); err != nil {
					break
				}
			}
			if i >= warm(n) {
				samples = append(samples, float64(time.Since(t0))/(2*hopRounds))
			}
		}
		syscall.Close(there[1]) // the echo reads the end of its pipe and ends
		out <- samples
	}()
	samples := <-out
	wg.Wait()
	return samples
}

// pipeWrite times the write of a short line ("pong\n") to a pipe whose
// reader waits for it in read, as a scenario's print reaches the pipe that
// schedlab real's parent reads: the write wakes the reader, and that
// wake-up is most of its cost. The reader acknowledges each line through a
// second pipe, and the writer lets it go back to its read (pipeSettle)
// before the next write, so that every write finds it waiting. The two
// threads are held to two CPUs where there are two, as a program and the
// parent reading it mostly are: left to the kernel, they shared a CPU in
// some runs (4.0-4.2µs a write) and not in others (6.2-6.6µs, median).
func pipeWrite(n int) []float64 {
	// lines carries the lines, acks the acknowledgements: [0] reads.
	lines, acks, closeRest, err := pipePair()
	if err != nil {
		return nil
	}
	defer closeRest()
	prev := runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	defer runtime.GOMAXPROCS(prev)
	writerCPU, readerCPU := twoCPUs()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread() // never unlocked: the pinned thread ends here
		pinToCPU(readerCPU)
		b := make([]byte, 64)
		for {
			k, err := syscall.Read(lines[0], b)
			if err == syscall.EINTR {
				continue
			}
			if k <= 0 || err != nil {
				return
			}
			if _, err := syscall.Write(acks[1], b[:1]); err != nil {
				return
			}
		}
	}()
	out := make(chan []float64)
	go func() {
		runtime.LockOSThread() // never unlocked, as above
		pinToCPU(writerCPU)
		line, ack := []byte("pong\n"), make([]byte, 1)
		samples := make([]float64, 0, n)
		for i := range n + warm(n) {
			for t := time.Now(); time.Since(t) < pipeSettle; {
			}
			t0 := time.Now()
			_, err := syscall.Write(lines[1], line)
			d := time.Since(t0)
			if err != nil {
				break
			}
			if _, err := readFull(acks[0], ack); err != nil {
				break
			}
			if i >= warm(n) {
				samples = append(samples, float64(d))
			}
		}
		syscall.Close(lines[1]) // the reader reads the end of its pipe and ends
		out <- samples
	}()
	samples := <-out
	wg.Wait()
	return samples
}

// pipeSettle is how long pipeWrite lets its reader get back into its read
// after an acknowledgement: a few microseconds do; fifty leave room on a
// busy machine.
const pipeSettle = 50 * time.Microsecond

// pipePair makes two pipes, [0] the end that reads and [1] the one that
// writes, for a measurement that sends on a and answers on b. closeRest
// closes every end but a's writing one, which the measurement closes
// itself when it is done: the thread reading a then reads the pipe's end
// and ends.
func pipePair() (a, b [2]int, closeRest func(), err error) {
	if err := syscall.Pipe(a[:]); err != nil {
		return a, b, nil, err
	}
	if err := syscall.Pipe(b[:]); err != nil {
		syscall.Close(a[0])
		syscall.Close(a[1])
		return a, b, nil, err
	}
	return a, b, func() {
		for _, fd := range []int{a[0], b[0], b[1]} {
			syscall.Close(fd)
		}
	}, nil
}

// readFull reads one byte, again if a signal (the runtime's preemption)
// interrupts the read.
func readFull(fd int, b []byte) (int, error) {
	for {
		k, err := syscall.Read(fd, b)
		if err != syscall.EINTR {
			return k, err
		}
	}
}

// nanosleepSlack times nanosleep(20µs), the system call under the
// runtime's usleep, and returns how much longer than asked each took.
func nanosleepSlack(n int) []float64 { return sleepSlackOf(nanosleepFor, n) }

// nanosleepSlackLong times n nanosleeps of 10ms the same way.
func nanosleepSlackLong(n int) []float64 { return sleepSlackOf(longNanosleepFor, n) }

// nanosleepSlackLongBusy times n nanosleeps of 10ms the same way while a
// goroutine computes on a thread of its own beside them, as the
// runtime's sysmon sleeps in a program that runs. On a virtual machine
// such a sleep comes back sooner than one with every CPU idle (gmp's
// sleepslack.go). With one CPU the two threads share it, and the
// sleeper's wake-up takes it from the one computing.
func nanosleepSlackLongBusy(n int) []float64 {
	if prev := runtime.GOMAXPROCS(0); prev < 2 {
		// A P for each: the sleeper, back from its system call, must not
		// wait for the computing goroutine's preemption.
		runtime.GOMAXPROCS(2)
		defer runtime.GOMAXPROCS(prev)
	}
	stop := make(chan struct{})
	done := make(chan uint64)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var result uint64
		for {
			select {
			case <-stop:
				done <- result
				return
			default:
				result += cpuwork.Alone(spinChunk)
			}
		}
	}()
	samples := sleepSlackOf(longNanosleepFor, n)
	close(stop)
	// The computing goroutine's result, kept alive so that its work is not
	// dropped.
	runtime.KeepAlive(<-done)
	return samples
}

// sleepSlackOf times n nanosleeps of d (after a few to warm up) and
// returns how much longer than d each lasted.
func sleepSlackOf(d time.Duration, n int) []float64 {
	ts := syscall.NsecToTimespec(int64(d))
	samples := make([]float64, 0, n)
	for i := range n + warm(n) {
		t0 := time.Now()
		if err := syscall.Nanosleep(&ts, nil); err != nil {
			continue // interrupted: not a whole sleep
		}
		if i >= warm(n) {
			samples = append(samples, float64(time.Since(t0)-d))
		}
	}
	return samples
}

// syscallCost times one-byte writes to /dev/null through package syscall,
// which enters and leaves the runtime's system-call state as a scenario's
// syscall action does.
func syscallCost(n int) []float64 {
	fd, err := syscall.Open(os.DevNull, syscall.O_WRONLY, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	b := []byte{0}
	samples := make([]float64, 0, n)
	for i := range n + warm(n) {
		t0 := time.Now()
		for range batch {
			syscall.Write(fd, b)
		}
		if i >= warm(n) {
			samples = append(samples, float64(time.Since(t0))/batch)
		}
	}
	return samples
}

// firstCPU is the lowest-numbered CPU this process may run on, or -1.
func firstCPU() int {
	if cpus := allowedCPUs(1); len(cpus) == 1 {
		return cpus[0]
	}
	return -1
}

// twoCPUs is the two lowest-numbered CPUs this process may run on, or
// -1 and -1 where it may run on fewer.
func twoCPUs() (int, int) {
	if cpus := allowedCPUs(2); len(cpus) == 2 {
		return cpus[0], cpus[1]
	}
	return -1, -1
}

// allowedCPUs is up to n of the CPUs this process may run on, the
// lowest-numbered first; none where the kernel does not say.
func allowedCPUs(n int) []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for cpu := 0; cpu < 1024 && len(cpus) < n; cpu++ {
		if set.IsSet(cpu) {
			cpus = append(cpus, cpu)
		}
	}
	return cpus
}

// pinToCPU holds the calling thread to cpu (the caller has locked its
// goroutine to the thread, and lets the thread end with it). Where the
// kernel refuses, the thread stays where the kernel puts it.
func pinToCPU(cpu int) {
	if cpu < 0 {
		return
	}
	var set unix.CPUSet
	set.Set(cpu)
	_ = unix.SchedSetaffinity(0, &set)
}

// netpollWake times the network poller's wake-up (netpollwake.go): with
// 2 Ps and nothing else to run, a goroutine reads a non-blocking timerfd
// armed to fire netpollWakeIdle ahead, through an os.File, so that the
// read parks it in the poller and the one M blocked in epoll_wait returns
// when the timer fires, as a real program's net action does (schedlab
// real's netRead).
// Each sample runs from the timer's expiry, by CLOCK_MONOTONIC, to the
// read's return.
func netpollWake(n int) []float64 {
	prev := runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	defer runtime.GOMAXPROCS(prev)
	mono := func() int64 {
		var ts unix.Timespec
		if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
			return -1
		}
		return ts.Nano()
	}
	samples := make([]float64, 0, n)
	for i := range n + warm(n) {
		fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
		if err != nil {
			return nil
		}
		f := os.NewFile(uintptr(fd), "timerfd")
		expiry := mono() + int64(netpollWakeIdle)
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(expiry)}
		if err := unix.TimerfdSettime(fd, unix.TFD_TIMER_ABSTIME, &spec, nil); err != nil {
			f.Close()
			return nil
		}
		var expirations [8]byte
		_, err = f.Read(expirations[:])
		back := mono()
		f.Close()
		if err != nil || back < 0 || expiry < 0 {
			return nil
		}
		if i >= warm(n) {
			samples = append(samples, float64(back-expiry))
		}
	}
	return samples
}
