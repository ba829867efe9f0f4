package scenarios

import (
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/safetext"
)

// Error is a mistake in a scenario file, at a position: the model's
// positioned error, which also reports what a program does wrong as it
// runs, so both read alike.
type Error = gmp.Error

// ErrorList is every mistake found in one file, in file order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap lets errors.As find the individual errors.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// closest returns the candidate nearest to s by edit distance, if it is
// close enough to be a plausible typo.
func closest(s string, candidates []string) string {
	if len(s) > maxSuggested {
		return ""
	}
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if len(c) > maxSuggested {
			continue
		}
		if d := editDistance(strings.ToLower(s), c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= max(1, len(s)/3) {
		return best
	}
	return ""
}

// maxSuggested bounds the names a did-you-mean compares: the distance
// costs the product of the two lengths, and a name longer than this is not
// a typo of a short one.
const maxSuggested = 64

// maxQuoted bounds what of a user's text a message quotes.
const maxQuoted = safetext.QuoteMax

// clip shortens a user's text to quote it in a message: at most maxQuoted
// runes, the rest marked with an ellipsis.
func clip(s string) string { return safetext.Clip(s, maxQuoted) }

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of adjacent letters each cost 1, so
// "stael" is one edit from "steal".
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// hasControl reports whether s holds a character that changes how the
// text around it is shown instead of showing itself (safetext.Unsafe:
// control characters, line separators, bidirectional formatting), which
// can make a name read as something else.
func hasControl(s string) bool { return strings.ContainsFunc(s, safetext.Unsafe) }
