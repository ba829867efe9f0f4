package verify

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/real/prog"
)

// What a program printed, and how an untraced one ended. Most published
// scheduler puzzles ask one thing, in what order a program prints, so the
// printed order is an observable of its own: the model's over its seeds
// against the real runs', read from the real program's standard output
// (its trace does not hold it). A run's answer is its order; the model
// agrees when the real runs' commonest order is one it gave.

// orderRow and endingRow name the rows these make.
const (
	orderRow  = "output order"
	endingRow = "ending"
)

// orderOf writes the first n lines as an order: each quoted as Go quotes
// it, space-separated (`"3" "1" "2"`).
func orderOf(lines []string, n int) string {
	var b strings.Builder
	for i, l := range lines[:min(n, len(lines))] {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Quote(l))
	}
	if b.Len() == 0 {
		return "nothing"
	}
	return b.String()
}

// judgeCategory makes a row of a category observable: each run's value
// is a word (an order, an ending); the row holds how often each came,
// on either side, and agrees when the real runs' commonest value is one
// the model gave.
func judgeCategory(name string, model, real []string) Row {
	row := Row{Observable: name, unit: unitCategory, Outcome: "none"}
	mt, rt := countOf(model), countOf(real)
	row.ModelValues, row.RealValues = tallyOf(mt), tallyOf(rt)
	if len(real) == 0 {
		row.Verdict = noReal
		return row
	}
	common := rt[0].value
	row.Within = slices.ContainsFunc(mt, func(c counted) bool { return c.value == common })
	seeds := 0
	for _, c := range mt {
		if c.value == common {
			seeds = c.n
		}
	}
	row.Outcome = "differs"
	if row.Within {
		row.Outcome = "agrees"
	}
	if row.Within {
		row.Verdict = fmt.Sprintf("the real runs' commonest (%d of %d) came on %d of %d seeds", rt[0].n, len(real), seeds, len(model))
	} else {
		row.Verdict = fmt.Sprintf("the real runs' commonest (%d of %d) never came from the model", rt[0].n, len(real))
	}
	return row
}

type counted struct {
	value string
	n     int
}

// countOf counts each value, the commonest first (then in order of first
// appearance).
func countOf(values []string) []counted {
	var out []counted
	for _, v := range values {
		i := slices.IndexFunc(out, func(c counted) bool { return c.value == v })
		if i < 0 {
			out = append(out, counted{v, 0})
			i = len(out) - 1
		}
		out[i].n++
	}
	slices.SortStableFunc(out, func(a, b counted) int { return b.n - a.n })
	return out
}

func tallyOf(cs []counted) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s x%d", c.value, c.n)
	}
	return strings.Join(parts, ", ")
}

// judgeOutput is the printed order's row, when some run printed: the
// orders of the lines every run printed (a run stopped at its until may
// print more or fewer lines than another).
func judgeOutput(model, real []Observables) (Row, bool) {
	return judgeOrders(model, real, false)
}

// judgeOrders is judgeOutput; with prints set (the scenario has print
// actions) a row is made even when no run printed: "nothing" is an
// answer, the one a program that returns first gives.
func judgeOrders(model, real []Observables, prints bool) (Row, bool) {
	n := -1
	printed := prints
	for _, o := range slices.Concat(model, real) {
		printed = printed || len(o.Output) > 0
		if n < 0 || len(o.Output) < n {
			n = len(o.Output)
		}
	}
	if !printed {
		return Row{}, false
	}
	if n == 0 {
		// Some run printed nothing: compare what each printed in full.
		n = int(^uint(0) >> 1)
	}
	orders := func(obs []Observables) []string {
		out := make([]string, len(obs))
		for i, o := range obs {
			out[i] = orderOf(o.Output, n)
		}
		return out
	}
	return judgeCategory(orderRow, orders(model), orders(real)), true
}

// endingOf says how an untraced real run ended, from its exit status and
// Go's message.
func endingOf(out prog.Output) string {
	if out.ExitCode == 2 {
		if bytes.Contains(out.Stderr, []byte("fatal error: all goroutines are asleep - deadlock!")) {
			return gmp.Deadlock.String()
		}
		for line := range bytes.Lines(out.Stderr) {
			if bytes.HasPrefix(line, []byte("panic: ")) {
				return gmp.Panicked.String()
			}
		}
	}
	return fmt.Sprintf("exit status %d", out.ExitCode)
}

// isEnding says whether s is one of endingOf's words, which a recording
// of untraced runs must hold (and a traced run's is empty).
func isEnding(s string) bool {
	if s == gmp.Deadlock.String() || s == gmp.Panicked.String() {
		return true
	}
	// Any status Go's os/exec reports, -1 for a process a signal ended
	// included: endingOf writes what it was given.
	code, ok := strings.CutPrefix(s, "exit status ")
	n, err := strconv.Atoi(code)
	return ok && err == nil && strconv.Itoa(n) == code
}

// judgeEnding is the row of how untraced runs ended, against the model's
// endings in Go's own words for a deadlock or a panic (endWords).
func judgeEnding(model []string, real []Observables) Row {
	return judgeCategory(endingRow, model, endedOf(real))
}

// endWords are the model's ends as endingOf words a real run's.
func endWords(ends []gmp.EndReason) []string {
	words := make([]string, len(ends))
	for i, e := range ends {
		words[i] = e.String()
		if e == gmp.MainReturned || e == gmp.UntilReached {
			words[i] = "exit status 0"
		}
	}
	return words
}

// endedOf is how each of the untraced runs obs ended.
func endedOf(obs []Observables) []string {
	ended := make([]string, len(obs))
	for i, o := range obs {
		ended[i] = o.Ended
	}
	return ended
}
