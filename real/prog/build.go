package prog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/pool"
	"github.com/schedlab/schedlab/internal/cputime"
	"github.com/schedlab/schedlab/internal/table"
)

// moduleVersions are the versions a generated program requires: the ones
// schedlab itself is built with (a test keeps them equal to go.mod), so the
// module cache that built schedlab can build the program.
var moduleVersions = map[string]string{
	"golang.org/x/sync": "v0.24.0",
	"golang.org/x/sys":  "v0.38.0",
}

// MinGoMinor is the oldest Go (1.MinGoMinor) that builds a generated
// program: range over an integer needs 1.22, as does the trace format
// schedlab reads.
const MinGoMinor = 22

// Toolchain is the local go command.
type Toolchain struct {
	Path    string // the go binary
	Version string // as go env GOVERSION prints it: go1.26.0
}

// FindGo finds the go command and checks that it is recent enough. It
// runs go env as Build runs go build: in a process group of its own,
// killed with all it started when ctx ends.
func FindGo(ctx context.Context) (Toolchain, error) {
	path, err := exec.LookPath("go")
	if err != nil {
		return Toolchain{}, errors.New("the go command is not on PATH: schedlab real builds the program with the local Go toolchain (Go 1.22 or later; see https://go.dev/dl)")
	}
	cmd := exec.Command(path, "env", "GOVERSION")
	var out, errOut capped
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = runGroup(ctx, cmd, nil)
	if err := stopped(ctx, "go env GOVERSION"); err != nil {
		return Toolchain{}, err
	}
	if err != nil {
		return Toolchain{}, fmt.Errorf("%s env GOVERSION failed: %v\n%s", path, err, bytes.TrimSpace(errOut.Bytes()))
	}
	v := strings.TrimSpace(string(out.Bytes()))
	if minor, ok := goMinor(v); !ok || minor < MinGoMinor {
		return Toolchain{}, fmt.Errorf("%s is %q: schedlab real needs Go 1.%d or later", path, v, MinGoMinor)
	}
	return Toolchain{Path: path, Version: v}, nil
}

// goMinor reads the minor version of "go1.26.0" (26), or of a development
// version "devel go1.27-…".
func goMinor(v string) (int, bool) {
	i := strings.Index(v, "go1.")
	if i < 0 {
		return 0, false
	}
	rest := v[i+len("go1."):]
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.Atoi(rest[:end])
	return n, err == nil
}

// schedlabPoolPath is package pool's import path in schedlab; the copy
// Write makes of it imports its own subpackages at ModulePath instead.
const schedlabPoolPath = "github.com/schedlab/schedlab/core/pool"

// Write writes prog into dir as a module that tc's go build builds:
// main.go, go.mod, when the program is traced a copy of package cputime,
// and when it submits to a pool a copy of package pool.
//
// go.mod's go line is tc's own release, as go mod init writes it. The
// line sets the program's default GODEBUG: a module that says go 1.22,
// built by Go 1.26, runs with 1.22's settings, among them the timer
// channels of before Go 1.23 (asynctimerchan=1: a time.After's timer in a
// P's heap from its creation, fired whether or not anyone waits), whose
// first time.After costs about 0.1ms more on this project's machine. The
// program is to run the toolchain's runtime as a program written today
// does, the one the model follows.
func Write(dir string, prog *Program, tc Toolchain) error {
	minor, ok := goMinor(tc.Version)
	if !ok || minor < MinGoMinor {
		return fmt.Errorf("writing a program for Go %q: want Go 1.%d or later", tc.Version, MinGoMinor)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var mod bytes.Buffer
	fmt.Fprintf(&mod, "module %s\n\ngo 1.%d\n", ModulePath, minor)
	if len(prog.Needs) > 0 {
		mod.WriteString("\nrequire (\n")
		for _, m := range prog.Needs {
			fmt.Fprintf(&mod, "\t%s %s\n", m, moduleVersions[m])
		}
		mod.WriteString(")\n")
	}
	files := map[string][]byte{"go.mod": mod.Bytes(), "main.go": prog.Main}
	if !prog.Untraced {
		// Package cputime, which a traced program's startTrace and
		// logCPUTime read.
		if err := copySource(files, dir, "cputime", cputime.Source, nil); err != nil {
			return err
		}
	}
	if prog.UsesPool {
		// Package pool and the decisions it imports, at this module's
		// path instead of schedlab's.
		rewrite := func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`"`+schedlabPoolPath), []byte(`"`+ModulePath+"/pool"))
		}
		if err := copySource(files, dir, "pool", pool.Source, rewrite); err != nil {
			return err
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copySource adds the files of src to files under the folder sub, each
// through rewrite if there is one, and makes their folders in dir.
func copySource(files map[string][]byte, dir, sub string, src fs.FS, rewrite func([]byte) []byte) error {
	return fs.WalkDir(src, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(src, name)
		if err != nil {
			return err
		}
		if rewrite != nil {
			b = rewrite(b)
		}
		path := filepath.Join(sub, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(path)), 0o755); err != nil {
			return err
		}
		files[path] = b
		return nil
	})
}

// Build builds the module in dir into dir/prog and returns the binary's
// path. It lets go fetch the required modules (GOFLAGS=-mod=mod) and uses
// the local toolchain as it is (GOTOOLCHAIN=local). The toolchain's
// scratch folders (go-build…) go into dir/.gotmp (GOTMPDIR), so that
// removing dir removes them too, even those of a build killed midway.
// go build runs in a process group of its own, killed with its compilers
// when ctx ends. An error names no path inside dir: dir is usually a
// temporary folder, gone by the time the error is read.
func Build(ctx context.Context, tc Toolchain, dir string) (string, error) {
	bin := filepath.Join(dir, "prog")
	gotmp := filepath.Join(dir, ".gotmp")
	if err := os.MkdirAll(gotmp, 0o755); err != nil {
		return "", err
	}
	cmd := exec.Command(tc.Path, "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOTMPDIR="+gotmp)
	var out capped
	cmd.Stdout, cmd.Stderr = &out, &out
	err := runGroup(ctx, cmd, nil)
	if err := stopped(ctx, "go build"); err != nil {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("%w: %v\n%s", ErrBuildFailed, err, outside(out.Bytes(), dir))
	}
	return bin, nil
}

// ErrBuildFailed marks a go build that ran and failed.
var ErrBuildFailed = errors.New("go build failed")

// ErrInterrupted is what a build or a run returns when its context was
// cancelled (by a signal, in schedlab): it was stopped, with all it
// started.
var ErrInterrupted = errors.New("interrupted")

// stopped says why step ended early when ctx has ended: past its
// deadline (--timeout), or cancelled.
func stopped(ctx context.Context, step string) error {
	switch {
	case ctx.Err() == nil:
		return nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s did not finish within --timeout: it was stopped (a first build that fetches modules may need a longer --timeout)", step)
	}
	return interrupted(ctx)
}

// interrupted is ErrInterrupted with what interrupted it: the signal,
// when a signal.NotifyContext ended ctx.
func interrupted(ctx context.Context) error {
	if cause := context.Cause(ctx); cause != nil && cause != context.Canceled {
		return fmt.Errorf("%w (%v)", ErrInterrupted, cause)
	}
	return ErrInterrupted
}

// capped keeps the first outputCap bytes written to it: a program's or
// a build's output goes into an error message, and a program that writes
// without end must not fill memory with it.
type capped struct {
	b       bytes.Buffer
	dropped int64
}

const outputCap = 64 << 10

func (c *capped) Write(p []byte) (int, error) {
	keep := min(len(p), outputCap-c.b.Len())
	c.b.Write(p[:keep])
	c.dropped += int64(len(p) - keep)
	return len(p), nil
}

// Bytes is what was kept, with a last line saying how much was not.
func (c *capped) Bytes() []byte {
	if c.dropped == 0 {
		return c.b.Bytes()
	}
	return fmt.Appendf(bytes.Clone(c.b.Bytes()), "\n[%d more bytes of output left out]", c.dropped)
}

// Limits bound a real program's build and runs. A zero field takes its
// default.
type Limits struct {
	// Timeout bounds each step: go env, go build, and each run.
	Timeout time.Duration
	// Memory bounds a run's private writable memory (RLIMIT_DATA), in
	// bytes: the program's heap, stacks and the runtime's own.
	Memory int64
	// Trace bounds a run's trace file, in bytes.
	Trace int64
}

// The bounds a real program gets when none are given. A scenario the
// model runs to its end within its event limit needs far less than
// these; they stop one that would take the machine with it.
const (
	DefaultTimeout = time.Minute
	DefaultMemory  = 1 << 30
	DefaultTrace   = 512 << 20
)

func (l Limits) orDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	if l.Trace <= 0 {
		l.Trace = DefaultTrace
	}
	return l
}

// watchEvery is how often a run's trace file is measured: the kernel
// stops the file at the bound (RLIMIT_FSIZE), and this stops the program
// soon after instead of letting it run on without its trace.
const watchEvery = 100 * time.Millisecond

// Run runs the built program once with GOMAXPROCS set to procs, writing
// its runtime trace to tracePath, within the bounds of l. The program's
// own output, if any, is returned with the error when it fails.
func Run(ctx context.Context, bin string, procs int, tracePath string, l Limits) error {
	_, err := RunOutput(ctx, bin, procs, tracePath, l)
	return err
}

// Output is what a run of the program wrote, each stream capped at 64KiB,
// and how it exited.
type Output struct {
	// Stdout is the program's standard output: the lines its prints
	// wrote, in the order they came out.
	Stdout []byte
	// Stderr is its standard error: Go's fatal message, for one.
	Stderr []byte
	// ExitCode is its exit status (2 for a Go program that died of a
	// deadlock or a panic).
	ExitCode int
}

// Lines are the lines the program printed.
func (o Output) Lines() []string {
	if len(o.Stdout) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(o.Stdout), "\n"), "\n")
}

// RunOutput is Run, and returns what the program wrote. With tracePath ""
// the program is an untraced one (Program.Untraced): it writes no trace,
// and an exit with a failure is no error here, since the scenario may
// mean it (a deadlock): the caller judges Output.ExitCode and Stderr.
func RunOutput(ctx context.Context, bin string, procs int, tracePath string, l Limits) (Output, error) {
	l = l.orDefaults()
	run, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	var args []string
	if tracePath != "" {
		args = append(args, tracePath)
	}
	cmd := limitedCommand(l, bin, args...)
	cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(procs))
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	traceFull := func() bool {
		if tracePath == "" {
			return false
		}
		fi, err := os.Stat(tracePath)
		return err == nil && fi.Size() >= l.Trace
	}
	err := runGroup(run, cmd, traceFull)
	out := Output{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	if cmd.ProcessState != nil {
		out.ExitCode = cmd.ProcessState.ExitCode()
	}
	both := append(bytes.Clone(out.Stdout), out.Stderr...)
	switch {
	case ctx.Err() != nil:
		return out, interrupted(ctx)
	case traceFull():
		return out, fmt.Errorf("the program's trace reached %s, the most --max-trace allows: it was stopped (a shorter run, --until, or a larger --max-trace)", table.Bytes(uint64(l.Trace)))
	case run.Err() != nil && tracePath == "":
		return out, fmt.Errorf("the program did not finish within --timeout (%v): a scenario that never ends needs an until (--until), and a long one a longer --timeout", l.Timeout)
	case run.Err() != nil:
		return out, fmt.Errorf("the program did not finish within --timeout (%v): a scenario that never ends needs an until (--until), one that deadlocks waits forever (the runtime does not detect a deadlock while it traces), and a long one a longer --timeout", l.Timeout)
	case err != nil && outOfMemory(both):
		return out, fmt.Errorf("the program needed more memory than --max-memory allows (%s) and the runtime stopped it: %v", table.Bytes(uint64(l.Memory)), err)
	case err != nil && tracePath == "" && out.ExitCode > 0:
		return out, nil
	case err != nil:
		return out, fmt.Errorf("the program failed: %v\n%s", err, outside(both, filepath.Dir(bin)))
	}
	return out, nil
}

// outside is a build's or a program's output without the folder it was
// built in: go's messages and a panic's stack name files there (main.go,
// not /tmp/schedlab-real-…/main.go), and the folder is gone by the time
// the message is read.
func outside(out []byte, dir string) []byte {
	return bytes.ReplaceAll(bytes.TrimSpace(out), []byte(dir+string(filepath.Separator)), nil)
}

// outOfMemory reports whether a program's output says the runtime could
// not get memory: what a Go program over RLIMIT_DATA prints as it dies,
// "fatal error: runtime: out of memory" from the heap or "fatal error:
// out of memory allocating heap arena map" at start-up, or a failed
// thread or mapping ("cannot allocate memory").
func outOfMemory(out []byte) bool {
	for line := range bytes.Lines(out) {
		if bytes.HasPrefix(line, []byte("fatal error: ")) && bytes.Contains(line, []byte("out of memory")) {
			return true
		}
	}
	return bytes.Contains(out, []byte("cannot allocate memory"))
}

// ErrEmitNotEmpty is what Prepare returns for an --emit folder that holds
// files already, unless told to write over them.
var ErrEmitNotEmpty = errors.New("not empty")

// Options say where a program is kept and how it is bounded.
type Options struct {
	// Emit, if set, is a folder to keep the program in, and the traces of
	// the runs kept with Session.Keep. It must be new or empty unless
	// Force is set.
	Emit  string
	Force bool
	Limits
}

// Session is a translated program built in a folder of its own, ready to
// run.
type Session struct {
	Prog *Program
	// Dir is the session's own temporary folder: the module as it was
	// built, the binary, the toolchain's scratch and the runs' traces.
	// No other session reads or writes it; Close removes it.
	Dir string
	// Emit is Options.Emit.
	Emit      string
	Toolchain Toolchain
	Limits    Limits
	bin       string
}

// Prepare writes prog into a temporary folder of its own (and into
// o.Emit) and builds it there. The build is the session's own even when
// another run writes the same --emit folder at the same time. go env and
// go build each run within o.Timeout. On an error nothing is left behind
// but the --emit folder.
func Prepare(ctx context.Context, prog *Program, o Options) (*Session, error) {
	l := o.orDefaults()
	if o.Emit != "" {
		if err := checkEmit(o.Emit, o.Force); err != nil {
			return nil, err
		}
	}
	step, cancel := context.WithTimeout(ctx, l.Timeout)
	tc, err := FindGo(step)
	cancel()
	if err != nil {
		return nil, err
	}
	if o.Emit != "" {
		if err := Write(o.Emit, prog, tc); err != nil {
			return nil, fmt.Errorf("--emit: writing the program: %w", err)
		}
	}
	dir, err := os.MkdirTemp("", "schedlab-real-")
	if err != nil {
		return nil, err
	}
	s := &Session{Prog: prog, Dir: dir, Emit: o.Emit, Toolchain: tc, Limits: l}
	if err := Write(dir, prog, tc); err != nil {
		s.Close()
		return nil, fmt.Errorf("writing the program: %w", err)
	}
	step, cancel = context.WithTimeout(ctx, l.Timeout)
	s.bin, err = Build(step, tc, dir)
	cancel()
	if err != nil {
		s.Close()
		return nil, err
	}
	if o.Emit != "" {
		if err := keepModuleFiles(dir, o.Emit); err != nil {
			s.Close()
			return nil, fmt.Errorf("--emit: %w", err)
		}
	}
	return s, nil
}

// keepModuleFiles copies go.mod and go.sum as the build in dir left them into
// the --emit folder: for a program that requires a module (golang.org/x/sys
// for a net action, x/sync for a semaphore) go build -mod=mod completes
// go.mod and writes go.sum, and without them go run . there stops at
// "updates to go.mod needed". A program that requires none has no go.sum.
func keepModuleFiles(dir, emit string) error {
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(emit, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// checkEmit refuses an --emit folder that holds anything, unless force.
func checkEmit(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("--emit %s: %w", dir, err)
	case len(entries) == 0 || force:
		return nil
	}
	var names []string
	for _, e := range entries[:min(len(entries), 3)] {
		names = append(names, strconv.Quote(e.Name()))
	}
	holds := strings.Join(names, ", ")
	if len(entries) > len(names) {
		holds += fmt.Sprintf(" and %d more", len(entries)-len(names))
	}
	return fmt.Errorf("--emit %s: the folder is %w (it holds %s): name a new or empty folder, or add --force to write the program over what is there", dir, ErrEmitNotEmpty, holds)
}

// Close removes the session's temporary folder, and with it whatever its
// builds and runs left there.
func (s *Session) Close() error {
	return os.RemoveAll(s.Dir)
}

// Run runs the program once, limited to timeout (the session's Timeout
// if 0) and to the session's other bounds, and returns the path of its
// trace: run-N.trace in the session's folder.
func (s *Session) Run(ctx context.Context, n int, timeout time.Duration) (string, error) {
	path, _, err := s.RunOutput(ctx, n, timeout)
	return path, err
}

// RunOutput is Run, and returns what the program wrote. An untraced
// program (Program.Untraced) has no trace: its path is "".
func (s *Session) RunOutput(ctx context.Context, n int, timeout time.Duration) (string, Output, error) {
	l := s.Limits
	if timeout > 0 {
		l.Timeout = timeout
	}
	path := filepath.Join(s.Dir, fmt.Sprintf("run-%d.trace", n))
	if s.Prog.Untraced {
		path = ""
	}
	out, err := RunOutput(ctx, s.bin, s.Prog.Procs, path, l)
	if err != nil {
		return "", out, fmt.Errorf("run %d: %w", n, err)
	}
	return path, out, nil
}

// Keep moves run n's trace from the session's folder into the --emit
// folder, as run-N.trace, and returns where it now is; without an --emit
// folder it leaves it where it is.
func (s *Session) Keep(n int, trace string) (string, error) {
	if s.Emit == "" || trace == "" {
		return trace, nil
	}
	kept := filepath.Join(s.Emit, fmt.Sprintf("run-%d.trace", n))
	if err := os.Rename(trace, kept); err == nil {
		return kept, nil
	}
	// The temporary folder may be on another file system.
	if err := copyFile(kept, trace); err != nil {
		return "", fmt.Errorf("--emit: keeping run %d's trace: %w", n, err)
	}
	os.Remove(trace)
	return kept, nil
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
