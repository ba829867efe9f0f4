package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

//go:embed builtin/*.yaml
var builtinFS embed.FS

// Order is the order in which built-ins are listed: roughly the order in
// which a course would meet the mechanisms.
var Order = []string{
	"tour",
	"runnext", "overflow", "steal", "spinning", "fairness61",
	"preempt", "gosched", "pingpong", "pingpong-2p", "hog-pingpong",
	"select-fanin", "select-timeout",
	"syscall-busy", "syscall-idle",
	"timer-1p", "timer-2p", "timer-bursts", "netpoll",
	"freelist",
	"burst", "burst-queue", "purge", "purge-coarse", "nested-submit", "nested-nonblocking", "sem-heavy",
	"mutex-starvation", "mutex-retake", "waitgroup-fanout",
	"print-order-2p", "pingpong-table", "done-flag", "starved-sleeper", "forever-cooperative",
}

// DefaultName is the built-in the UI opens with no arguments.
const DefaultName = "tour"

// Builtins returns every built-in scenario, in Order and then by name.
func Builtins() ([]*Scenario, error) {
	entries, err := fs.ReadDir(builtinFS, "builtin")
	if err != nil {
		return nil, err
	}
	rank := map[string]int{}
	for i, n := range Order {
		rank[n] = i + 1
	}
	var out []*Scenario
	var errs []error
	for _, e := range entries {
		sc, err := loadBuiltin(strings.TrimSuffix(e.Name(), ".yaml"))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, sc)
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank[out[i].Name], rank[out[j].Name]
		if ri == 0 {
			ri = len(Order) + 1
		}
		if rj == 0 {
			rj = len(Order) + 1
		}
		if ri != rj {
			return ri < rj
		}
		return out[i].Name < out[j].Name
	})
	return out, errors.Join(errs...)
}

// BuiltinNames lists the names of the built-ins.
func BuiltinNames() []string {
	all, _ := Builtins()
	names := make([]string, len(all))
	for i, s := range all {
		names[i] = s.Name
	}
	return names
}

func loadBuiltin(name string) (*Scenario, error) {
	file := path.Join("builtin", name+".yaml")
	data, err := builtinFS.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, data)
}

// Load reads a scenario by file path, or by built-in name when no such
// file exists and the argument does not look like a path.
func Load(arg string) (*Scenario, error) { return LoadFrom(arg, nil) }

// StdinName names a scenario read from standard input in messages.
const StdinName = "<stdin>"

// MaxFileSize bounds a scenario file: the largest built-in is 2 KiB, and
// a file of megabytes is a mistake that would only make the parser slow
// and hungry.
const MaxFileSize = 1 << 20

// LoadFrom is Load, reading the scenario from stdin when arg is "-".
func LoadFrom(arg string, stdin io.Reader) (*Scenario, error) {
	if arg == "" {
		return nil, errors.New("no scenario given: name a built-in (see schedlab list) or a .yaml file")
	}
	if arg == "-" && stdin != nil {
		data, err := readBounded(stdin, StdinName)
		if err != nil {
			return nil, err
		}
		return Parse(StdinName, data)
	}
	looksLikeFile := strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml")
	if f, err := os.Open(arg); err == nil {
		defer f.Close()
		data, err := readBounded(f, arg)
		if err != nil {
			return nil, err
		}
		return Parse(arg, data)
	} else if looksLikeFile {
		return nil, fmt.Errorf("cannot read scenario file: %w", err)
	}
	if sc, err := loadBuiltin(arg); err == nil {
		return sc, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	names := BuiltinNames()
	hint := "built-ins: " + strings.Join(names, ", ")
	if c := closest(arg, names); c != "" {
		hint = "did you mean " + c + "? (" + hint + ")"
	}
	return nil, fmt.Errorf("no built-in scenario or file named %q\n\thint: %s", arg, hint)
}

// readBounded reads a scenario, refusing one larger than MaxFileSize.
func readBounded(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read scenario file: %s: %w", name, err)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: the file is larger than %d MiB; a scenario is a few lines of YAML", name, MaxFileSize>>20)
	}
	return data, nil
}
