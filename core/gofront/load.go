package gofront

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schedlab/schedlab/core/scenarios"
)

// LoadFrom reads what a command names: a Go program (a file whose name
// ends in .go, or standard input that starts as one does) through the
// front end, anything else as scenarios.LoadFrom does (a built-in, a
// YAML file, standard input for "-").
func LoadFrom(arg string, stdin io.Reader, opts Options) (*scenarios.Scenario, error) {
	if arg == "-" && stdin != nil {
		data, err := readBounded(stdin, scenarios.StdinName)
		if err != nil {
			return nil, err
		}
		if IsGoSource(data) {
			return Translate(scenarios.StdinName, data, opts)
		}
		return scenarios.LoadFrom(arg, bytes.NewReader(data))
	}
	if !strings.HasSuffix(arg, ".go") {
		return scenarios.LoadFrom(arg, stdin)
	}
	f, err := os.Open(arg)
	if err != nil {
		return nil, fmt.Errorf("cannot read Go program: %w", err)
	}
	defer f.Close()
	data, err := readBounded(f, arg)
	if err != nil {
		return nil, err
	}
	return Translate(arg, data, opts)
}

// Load is LoadFrom with no standard input and the default options.
func Load(arg string) (*scenarios.Scenario, error) { return LoadFrom(arg, nil, Options{}) }

// IsGoSource says whether data starts as a Go file does: after blank
// lines and comments, a package clause. A scenario file cannot: YAML has
// no package key that schedlab reads.
func IsGoSource(data []byte) bool {
	s := string(data)
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "//"):
			_, rest, ok := strings.Cut(s, "\n")
			if !ok {
				return false
			}
			s = rest
		case strings.HasPrefix(s, "/*"):
			_, rest, ok := strings.Cut(s[2:], "*/")
			if !ok {
				return false
			}
			s = rest
		default:
			return strings.HasPrefix(s, "package ") || strings.HasPrefix(s, "package\t")
		}
	}
}

// readBounded reads a program, refusing one larger than a scenario file
// may be.
func readBounded(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, scenarios.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	if len(data) > scenarios.MaxFileSize {
		return nil, fmt.Errorf("%s: the file is larger than %d MiB", name, scenarios.MaxFileSize>>20)
	}
	return data, nil
}
