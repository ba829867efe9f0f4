package prog

import (
	_ "embed" // cpuwork's source
	"strings"
)

// ModulePath is the module path of a generated program.
const ModulePath = "schedlabreal"

// moduleOf returns the module an import path outside the standard library
// comes from, for the generated go.mod.
func moduleOf(importPath string) (string, bool) {
	for _, m := range []string{"golang.org/x/sync", "golang.org/x/sys"} {
		if importPath == m || strings.HasPrefix(importPath, m+"/") {
			return m, true
		}
	}
	return "", false
}

// The generated program's own functions, written after the scenario's
// code: each is included only when the scenario needs it.

const helperStart = `// startTrace writes the runtime trace to the file named by the first
// argument (trace.out without one) and returns what stops it.
func startTrace() (stop func()) {
	name := "trace.out"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	f, err := os.Create(name)
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	var once sync.Once
	cpuAtStart, _ = cputime.Process()
	return func() {
		once.Do(func() {
			trace.Stop()
			if err := f.Close(); err != nil {
				panic(err)
			}
		})
	}
}

// cpuAtStart is the process's CPU time as the scenario starts.
var cpuAtStart time.Duration

// logCPUTime logs, after the run's window, the CPU time the process had
// in it, in nanoseconds, where it can be read.
func logCPUTime() {
	if now, ok := cputime.Process(); ok {
		trace.Logf(context.Background(), "schedlab", "cpu time %d", int64(now-cpuAtStart))
	}
}
`

// helperCPU is package cpuwork's source from its marker comment on: the
// computation a cpu action runs, in a generated program.
var helperCPU = func() string {
	_, code, found := strings.Cut(cpuworkSource, cpuworkMarker)
	if !found {
		panic("realprog: cpuwork/cpuwork.go lost its marker comment")
	}
	return strings.TrimLeft(code, "\n")
}()

// cpuworkMarker is the comment in cpuwork/cpuwork.go after which its
// declarations are the generated programs' helpers.
const cpuworkMarker = "// The generated programs' helpers start here.\n"

//go:embed cpuwork/cpuwork.go
var cpuworkSource string

const helperSyscall = `// syscallFor makes one blocking system call that lasts d.
func syscallFor(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
	}
}
`

const helperNet = `// netRead reads a timerfd that fires after d. The file is non-blocking,
// so the read parks the goroutine in the network poller, as a socket
// read that waits for data does.
func netRead(d time.Duration) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		panic(err)
	}
	f := os.NewFile(uintptr(fd), "timerfd")
	defer f.Close()
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(max(int64(d), 1))}
	if err := unix.TimerfdSettime(fd, 0, &spec, nil); err != nil {
		panic(err)
	}
	var expirations [8]byte
	if _, err := f.Read(expirations[:]); err != nil {
		panic(err)
	}
}
`

const helperRandom = `func uniform(lo, hi time.Duration) time.Duration {
	rngMu.Lock()
	defer rngMu.Unlock()
	return lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
}

func exponential(mean time.Duration) time.Duration {
	rngMu.Lock()
	defer rngMu.Unlock()
	return time.Duration(rng.ExpFloat64() * float64(mean))
}
`

const helperPool = `func newPool(size int, opts ...pool.Option) *pool.Pool {
	p, err := pool.New(size, opts...)
	if err != nil {
		panic(err)
	}
	return p
}
`
