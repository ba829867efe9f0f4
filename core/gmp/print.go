package gmp

import "github.com/schedlab/schedlab/core/sim"

// What a program prints. print: is fmt.Println of a line: fmt formats it
// (user code), then os.Stdout's Write makes one write system call, which
// the model runs as any short system call (entersyscall: the P stays
// attached). The line is out when the write starts: a reader of the
// program's output sees the lines in the order of their writes.
//
// The costs are measured (go run ./scripts/puzzles println-cost and
// first-print): a line into a pipe takes about 0.5µs in all, but a
// program's first print takes 6 to 50µs, fmt's first use (its code and
// data paged in, its printer allocated) and the first write's. The first
// print to start pays Costs.FirstPrint (calibrate's first_print measures
// it); prints that start while it runs
// do not, which makes a second goroutine's line a little early. The
// first write pays Costs.FirstWrite, which a trace shows inside the
// system call: a profile measures it (calibrate's first_write), the
// defaults leave it in FirstPrint. The
// file's write lock (poll.FD's fdMutex), which makes a second writer wait
// for the first write to return, is not modelled: two writes on two
// threads overlap.

// MaxPrintText bounds the line a print action writes: a line of output,
// not a file.
const MaxPrintText = 200

// outputKept is how many of the last printed lines the machine keeps
// for the UI's console (Output); events carry every line.
const outputKept = 64

// Printed is a line the program printed.
type Printed struct {
	T    sim.Time
	G    GID
	Text string
}

// output is what the program printed so far.
type output struct {
	started bool // a print has started: fmt is warm
	first   GID  // the goroutine whose print pays for fmt's first use, until its line is out
	n       int  // lines printed
	last    []Printed
}

func (o output) clone() output {
	o.last = append([]Printed(nil), o.last...)
	return o
}

// fmtPrintln starts g's print: fmt formats the line, and on the
// program's first print warms up.
func (s *Machine) fmtPrintln(m *M, g *G) {
	cost := s.cfg.Costs.Print
	if !s.out.started {
		s.out.started = true
		s.out.first = g.ID
		// Measured from 1 to 18µs: with noise, up to half as long again.
		cost += s.late(s.cfg.Costs.FirstPrint, s.cfg.Costs.FirstPrint/2)
	}
	s.wakeMAt(m, s.after(cost), stepWrite)
}

// write is the second half of a print: the line goes out, in a write
// system call.
func (s *Machine) write(m *M) {
	g := s.g(m.CurG)
	op := s.OpOf(g)
	first := s.out.first == g.ID
	if first {
		s.out.first = NoG
	}
	s.out.n++
	s.emit(&Event{Kind: KindPrint, Rule: RulePrint, G: g.ID, P: m.P, M: m.ID, From: at(LocRunning, m.P), Op: op, N: s.out.n, Flag: first})
	if len(s.out.last) == outputKept {
		s.out.last = append(s.out.last[:0], s.out.last[1:]...)
	}
	s.out.last = append(s.out.last, Printed{T: s.now, G: g.ID, Text: op.Text})
	cost := s.cfg.Costs.Write
	if s.out.n == 1 {
		// The program's first write: with noise, up to half as long
		// again, as fmt's first use.
		cost += s.late(s.cfg.Costs.FirstWrite, s.cfg.Costs.FirstWrite/2)
	}
	s.entersyscall(m, g, cost, false)
}

// Output returns the last lines the program printed (up to 64), oldest
// first, and how many it printed in all.
func (s *Machine) Output() ([]Printed, int) { return s.out.last, s.out.n }

// Prints reports whether ops, or the actions nested in them (the body of
// a go, a loop, a task, and each select case's), print: whether the
// program has any output to show or judge.
func Prints(ops []Op) bool {
	for i := range ops {
		if ops[i].Kind == OpPrint || Prints(ops[i].Body) {
			return true
		}
		for k := range ops[i].Cases {
			if Prints(ops[i].Cases[k].Body) {
				return true
			}
		}
	}
	return false
}
