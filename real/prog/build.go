package prog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/pool"
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

// FindGo finds the go command and checks that it is recent enough.
func FindGo(ctx context.Context) (Toolchain, error) {
	path, err := exec.LookPath("go")
	if err != nil {
		return Toolchain{}, errors.New("the go command is not on PATH: schedlab real builds the program with the local Go toolchain (Go 1.22 or later; see https://go.dev/dl)")
	}
	out, err := exec.CommandContext(ctx, path, "env", "GOVERSION").Output()
	if err != nil {
		return Toolchain{}, fmt.Errorf("%s env GOVERSION failed: %v", path, err)
	}
	v := strings.TrimSpace(string(out))
	if minor, ok := goMinor(v); !ok || minor < MinGoMinor {
		return Toolchain{}, fmt.Errorf("%s is %s: schedlab real needs Go 1.%d or later", path, v, MinGoMinor)
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

// Write writes prog into dir as a module that go build builds: main.go,
// go.mod and, when the program submits to a pool, a copy of package pool.
func Write(dir string, prog *Program) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var mod bytes.Buffer
	fmt.Fprintf(&mod, "module %s\n\ngo 1.%d\n", ModulePath, MinGoMinor)
	if len(prog.Needs) > 0 {
		mod.WriteString("\nrequire (\n")
		for _, m := range prog.Needs {
			fmt.Fprintf(&mod, "\t%s %s\n", m, moduleVersions[m])
		}
		mod.WriteString(")\n")
	}
	files := map[string][]byte{"go.mod": mod.Bytes(), "main.go": prog.Main}
	if prog.UsesPool {
		// Package pool and the decisions it imports, at this module's
		// path instead of schedlab's.
		err := fs.WalkDir(pool.Source, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := pool.Source.ReadFile(name)
			if err != nil {
				return err
			}
			b = bytes.ReplaceAll(b, []byte(`"`+schedlabPoolPath), []byte(`"`+ModulePath+"/pool"))
			path := filepath.Join(dir, "pool", filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			files[filepath.Join("pool", filepath.FromSlash(name))] = b
			return nil
		})
		if err != nil {
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

// Build builds the module in dir into dir/prog and returns the binary's
// path. It lets go fetch the required modules (GOFLAGS=-mod=mod) and uses
// the local toolchain as it is (GOTOOLCHAIN=local).
func Build(ctx context.Context, tc Toolchain, dir string) (string, error) {
	bin := filepath.Join(dir, "prog")
	cmd := exec.CommandContext(ctx, tc.Path, "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building the program in %s failed: %v\n%s", dir, err, bytes.TrimSpace(out))
	}
	return bin, nil
}

// Run runs the built program once with GOMAXPROCS set to procs, writing
// its runtime trace to tracePath. The program's own output, if any, is
// returned with the error when it fails.
func Run(ctx context.Context, bin string, procs int, tracePath string) error {
	cmd := exec.CommandContext(ctx, bin, tracePath)
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(procs))
	out, err := cmd.CombinedOutput()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return errors.New("the program did not finish in time: a scenario that never ends needs an until (--until), one that deadlocks waits forever (the runtime does not detect a deadlock while it traces), and a long one a longer --timeout")
	}
	if ctx.Err() != nil {
		return errors.New("interrupted")
	}
	if err != nil {
		return fmt.Errorf("the program failed: %v\n%s", err, bytes.TrimSpace(out))
	}
	return nil
}

// Session is a translated program built in a directory, ready to run.
type Session struct {
	Prog      *Program
	Dir       string
	Toolchain Toolchain
	bin       string
}

// Prepare writes prog into dir and builds it.
func Prepare(ctx context.Context, prog *Program, dir string) (*Session, error) {
	tc, err := FindGo(ctx)
	if err != nil {
		return nil, err
	}
	if err := Write(dir, prog); err != nil {
		return nil, fmt.Errorf("writing the program: %w", err)
	}
	bin, err := Build(ctx, tc, dir)
	if err != nil {
		return nil, err
	}
	return &Session{Prog: prog, Dir: dir, Toolchain: tc, bin: bin}, nil
}

// Run runs the program once, each run limited to timeout, and returns
// the path of its trace: run-N.trace in the session's directory.
func (s *Session) Run(ctx context.Context, n int, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	path := filepath.Join(s.Dir, fmt.Sprintf("run-%d.trace", n))
	if err := Run(ctx, s.bin, s.Prog.Procs, path); err != nil {
		return "", fmt.Errorf("run %d: %w", n, err)
	}
	return path, nil
}
