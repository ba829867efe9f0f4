// Command child stands in, in real/prog's and schedlab's tests, for the two
// things a real run starts: the go command (when it runs as "go") and the
// program go build makes (under any other name). What it does is set by
// the environment, so that a test decides without building a program of
// its own for each case:
//
//	REALPROG_TEST_GO    as go: "ok" (go env prints a version, go build -o
//	                    BIN copies this executable to BIN), "block-env" or
//	                    "block-build" (that step never ends; block-build
//	                    first makes a go-build folder as go does)
//	REALPROG_TEST_PROG  as the program: "block" (never ends), "hog"
//	                    (allocates until stopped), "bigtrace" (writes its
//	                    trace file until stopped)
//	REALPROG_TEST_READY a FIFO: the process writes its PID there once it is
//	                    where a test wants to interrupt it
//
// Each mode that would run without end on an unbounded run stops by
// itself at a size well below a machine's, and says so, so that a test
// run before the bound existed fails instead of taking the machine.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

func main() {
	if filepath.Base(os.Args[0]) == "go" {
		goCommand(os.Getenv("REALPROG_TEST_GO"), os.Args[1:])
		return
	}
	program(os.Getenv("REALPROG_TEST_PROG"))
}

func goCommand(mode string, args []string) {
	switch {
	case len(args) == 2 && args[0] == "env" && args[1] == "GOVERSION":
		if mode == "block-env" {
			block()
		}
		fmt.Println("go1.26.0")
	case len(args) == 4 && args[0] == "build" && args[1] == "-o":
		if mode == "block-build" {
			// As go does: its scratch folder in GOTMPDIR, else the
			// system's temporary folder.
			tmp := os.Getenv("GOTMPDIR")
			if tmp == "" {
				tmp = os.TempDir()
			}
			work, err := os.MkdirTemp(tmp, "go-build")
			check(err)
			check(os.WriteFile(filepath.Join(work, "_pkg_.a"), []byte("partial"), 0o644))
			block()
		}
		self, err := os.Executable()
		check(err)
		b, err := os.ReadFile(self)
		check(err)
		check(os.WriteFile(args[2], b, 0o755))
	default:
		fmt.Fprintf(os.Stderr, "child as go: unexpected arguments %q\n", args)
		os.Exit(2)
	}
}

func program(mode string) {
	switch mode {
	case "block":
		block()
	case "hog":
		var keep [][]byte
		for total := 0; total < 512<<20; total += 8 << 20 {
			b := make([]byte, 8<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
		}
		fmt.Printf("hog: %d MiB and still running\n", len(keep)*8)
	case "bigtrace":
		f, err := os.Create(os.Args[1])
		check(err)
		chunk := make([]byte, 64<<10)
		for total := 0; total < 64<<20; total += len(chunk) {
			if _, err := f.Write(chunk); err != nil {
				// As runtime/trace does: a failed write is dropped, and
				// the program goes on to its end.
				break
			}
		}
		f.Close()
	default:
		fmt.Fprintf(os.Stderr, "child: REALPROG_TEST_PROG=%q\n", mode)
		os.Exit(2)
	}
}

// block says it is ready, then never returns (a sleep, which the runtime
// does not take for a deadlock).
func block() {
	if fifo := os.Getenv("REALPROG_TEST_READY"); fifo != "" {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		check(err)
		fmt.Fprintf(f, "%d\n", os.Getpid())
		f.Close()
	}
	for {
		time.Sleep(time.Hour)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(3)
	}
}
