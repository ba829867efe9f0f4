package bench

import (
	"fmt"
	"slices"
	"strings"
)

// Shape is what a task does for its TaskTime.
type Shape uint8

const (
	// CPU tasks compute: a busy loop of a calibrated number of iterations.
	CPU Shape = iota
	// Sleep tasks block in time.Sleep, as a task waiting on I/O would.
	Sleep
	// Mixed alternates by task index: even tasks compute, odd tasks sleep,
	// so every mode gets the same tasks in the same order.
	Mixed
)

var shapeNames = [...]string{"cpu", "sleep", "mixed"}

func (s Shape) String() string {
	if int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return fmt.Sprintf("shape(%d)", s)
}

// ParseShape reads a shape name.
func ParseShape(name string) (Shape, error) {
	i := slices.Index(shapeNames[:], strings.TrimSpace(name))
	if i < 0 {
		return 0, fmt.Errorf("unknown shape %q: use %s", name, strings.Join(shapeNames[:], ", "))
	}
	return Shape(i), nil
}

// computes reports whether task i of this shape is a busy loop (else it
// sleeps).
func (s Shape) computes(i int) bool {
	switch s {
	case CPU:
		return true
	case Mixed:
		return i%2 == 0
	}
	return false
}
