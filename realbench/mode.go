package realbench

import (
	"fmt"
	"slices"
	"strings"
)

// Mode is a way to run the tasks. The names are those of schedlab compare,
// so the simulated and the real comparison read the same.
type Mode uint8

const (
	Raw Mode = iota
	Pool
	Semaphore
	Errgroup
)

// Modes lists every mode, in the order tables show them.
var Modes = []Mode{Raw, Pool, Semaphore, Errgroup}

var modeNames = [...]string{"raw", "pool", "semaphore", "errgroup"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", m)
}

// bounded reports whether the mode runs at most Concurrency tasks at once.
func (m Mode) bounded() bool { return m != Raw }

// ParseMode reads one mode name.
func ParseMode(name string) (Mode, error) {
	i := slices.Index(modeNames[:], strings.TrimSpace(name))
	if i < 0 {
		return 0, fmt.Errorf("unknown mode %q: use %s", strings.TrimSpace(name), strings.Join(modeNames[:], ", "))
	}
	return Mode(i), nil
}

// ParseModes reads a comma-separated list of mode names, each at most once.
func ParseModes(s string) ([]Mode, error) {
	var out []Mode
	for _, name := range strings.Split(s, ",") {
		m, err := ParseMode(name)
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
