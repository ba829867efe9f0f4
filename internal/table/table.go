// Package table writes the comparison tables of schedlab compare and
// schedlab bench: a column per mode, a row per figure, right-aligned, and
// the units both use.
package table

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Row is one figure of a table: its label, and how to show it for one
// result.
type Row[R any] struct {
	Label string
	Cell  func(R) string
}

// Write writes a column per result, headed by its name, and a row per
// figure, right-aligned.
func Write[R any](w io.Writer, results []R, name func(R) string, rows []Row[R]) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	cells := []string{""}
	for _, r := range results {
		cells = append(cells, name(r))
	}
	fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	for _, row := range rows {
		cells = append(cells[:0], row.Label)
		for _, r := range results {
			cells = append(cells, row.Cell(r))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	return tw.Flush()
}

// Duration writes d compactly, with three significant digits or so:
// 1.234s, 12.3ms, 450µs, 80ns.
func Duration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3fs", d.Seconds())
	case d >= 100*time.Millisecond:
		return fmt.Sprintf("%.0fms", float64(d)/1e6)
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/1e6)
	case d >= time.Microsecond:
		return fmt.Sprintf("%.1fµs", float64(d)/1e3)
	}
	return fmt.Sprintf("%dns", d)
}

// Bytes writes n in binary units: 4.1 MiB, 512.0 KiB, 300 B.
func Bytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Count writes n with thousands separators: 10,001.
func Count(n uint64) string {
	s := strconv.FormatUint(n, 10)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
