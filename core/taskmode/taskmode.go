// Package taskmode names the ways a program can run many tasks, which
// schedlab compares in the simulation (package compare) and on the real
// runtime (package realbench): a goroutine per task, a pool, a weighted
// semaphore, an errgroup with a limit. The two comparisons share the names
// so that their tables read the same.
package taskmode

import (
	"fmt"
	"slices"
	"strings"
)

// Mode is a way to run tasks.
type Mode uint8

const (
	Raw       Mode = iota // a goroutine per task, no limit
	Pool                  // a pool of workers (package pool)
	Semaphore             // a goroutine per task behind a semaphore.Weighted
	Errgroup              // errgroup.Group with SetLimit
)

// All lists every mode, in the order tables show them.
var All = []Mode{Raw, Pool, Semaphore, Errgroup}

var names = [...]string{"raw", "pool", "semaphore", "errgroup"}

func (m Mode) String() string {
	if int(m) < len(names) {
		return names[m]
	}
	return fmt.Sprintf("mode(%d)", m)
}

// Bounded reports whether the mode runs at most a limit of tasks at once.
func (m Mode) Bounded() bool { return m != Raw }

// ParseOne reads one mode name.
func ParseOne(name string) (Mode, error) {
	name = strings.TrimSpace(name)
	i := slices.Index(names[:], name)
	if i < 0 {
		return 0, fmt.Errorf("unknown mode %q: use %s", name, strings.Join(names[:], ", "))
	}
	return Mode(i), nil
}

// Parse reads a comma-separated list of mode names, each at most once.
func Parse(s string) ([]Mode, error) {
	var out []Mode
	for _, name := range strings.Split(s, ",") {
		m, err := ParseOne(name)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, m) {
			return nil, fmt.Errorf("mode %s is given twice", m)
		}
		out = append(out, m)
	}
	return out, nil
}
