// Command preamble measures how long sysmon has run when a program that
// schedlab real writes starts its scenario: from runtime.main starting
// sysmon to the scenario's first action. The program's runtime start-up,
// its package inits, GOMAXPROCS, the until goroutine, runtime/trace.Start
// and, for a scenario with cpu actions, the cpu loop's 20ms calibration
// all come first, and sysmon's backing off from its 20µs sleeps to its
// 10ms ones runs through them: by the scenario's start its next looks are
// where verify's model puts them with Config.SysmonPrelude.
//
//	go run ./scripts/preamble forever-cooperative
//	go run ./scripts/preamble -runs 30 tour
//
// It writes the scenario's program as schedlab real does, adds one line
// at the start of the scenario that prints the time since
// runtime.runtimeInitTime (which runtime.main sets right after starting
// sysmon) to standard error, builds it with the linker's check of such
// references off (-checklinkname=0), and runs it, a fresh process a run.
// It prints each run's figure, then the median and range, with the load.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/real/prog"
	"github.com/schedlab/schedlab/scripts/internal/probe"
)

// marker begins the line the patched program prints.
const marker = "schedlab-preamble-ns"

func main() {
	runs := probe.RunsFlag()
	probe.SetUsage("go run ./scripts/preamble [-runs N] SCENARIO")
	flag.Parse()
	if flag.NArg() != 1 {
		probe.BadUsage()
	}
	probe.CheckRuns("preamble", *runs)
	sc, err := scenarios.Load(flag.Arg(0))
	if err != nil {
		probe.Fail("preamble", err)
	}
	dir, err := os.MkdirTemp("", "schedlab-preamble-")
	if err != nil {
		probe.Fail("preamble", err)
	}
	defer os.RemoveAll(dir)
	bin, err := build(sc, dir)
	if err != nil {
		os.RemoveAll(dir)
		probe.Fail("preamble", err)
	}
	fmt.Printf("%s: sysmon's start to the scenario's first action, load %s\n", sc.Name, probe.Loadavg())
	var got []float64
	for i := range *runs {
		us, err := run(bin, filepath.Join(dir, "trace.out"))
		if err != nil {
			os.RemoveAll(dir)
			probe.Fail("preamble", fmt.Errorf("run %d: %w", i+1, err))
		}
		fmt.Printf("run %d: %.0fµs\n", i+1, us)
		got = append(got, us)
	}
	fmt.Printf("%s (µs); load %s\n", probe.Summarize(got), probe.Loadavg())
}

// build writes sc's program into dir with the preamble's line added and
// builds it, returning the binary.
func build(sc *scenarios.Scenario, dir string) (string, error) {
	p, err := prog.Translate(sc, sc.Config())
	if err != nil {
		return "", err
	}
	patched, err := patch(p.Main)
	if err != nil {
		return "", err
	}
	p.Main = patched
	tc, err := prog.FindGo(context.Background())
	if err != nil {
		return "", err
	}
	if err := prog.Write(dir, p, tc); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "prog")
	cmd := exec.CommandContext(context.Background(), "go", "build", "-ldflags=-checklinkname=0", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// patch adds to a generated main.go the two runtime references, after
// its imports, and at the top of the scenario's function the line that
// prints the time since sysmon's start (println, which needs no import).
func patch(src []byte) ([]byte, error) {
	const pkg, mainFunc, scenario = "package main\n", "\nfunc main() {\n", "func scenario() {\n"
	for _, s := range []string{pkg, mainFunc, scenario} {
		if !bytes.Contains(src, []byte(s)) {
			return nil, fmt.Errorf("the generated program has no %q to patch: scripts/preamble needs updating", strings.TrimSpace(s))
		}
	}
	src = bytes.Replace(src, []byte(pkg), []byte(pkg+"\nimport _ \"unsafe\" // go:linkname\n"), 1)
	refs := `
//go:linkname runtimeInitTime runtime.runtimeInitTime
var runtimeInitTime int64

//go:linkname nanotime runtime.nanotime
func nanotime() int64
` + mainFunc
	src = bytes.Replace(src, []byte(mainFunc), []byte(refs), 1)
	line := scenario + "\tprintln(\"" + marker + "\", nanotime()-runtimeInitTime)\n"
	return bytes.Replace(src, []byte(scenario), []byte(line), 1), nil
}

// run runs bin once, its trace into trace, and returns the preamble in
// microseconds.
func run(bin, trace string) (float64, error) {
	cmd := exec.Command(bin, trace)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return 0, err
		}
		// A scenario that ends badly by design still printed its line.
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if rest, ok := strings.CutPrefix(l, marker+" "); ok {
			ns, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				return 0, fmt.Errorf("printed %q", l)
			}
			return ns / 1e3, nil
		}
	}
	return 0, fmt.Errorf("no preamble line in its standard error:\n%s", stderr.String())
}
