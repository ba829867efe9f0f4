package gmp

import "strings"

// Error is a problem at a line of a scenario, with a hint: a mistake in
// the file (package scenarios reports those, as scenarios.Error) or one the
// program caused while it ran (a deadlock, a panic), reported at the line
// responsible.
type Error struct {
	Pos  Pos
	Msg  string
	Hint string
}

func (e *Error) Error() string {
	var b strings.Builder
	if p := e.Pos.String(); p != "" {
		b.WriteString(p)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Hint != "" {
		b.WriteString("\n\thint: ")
		b.WriteString(e.Hint)
	}
	return b.String()
}
