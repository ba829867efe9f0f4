package probe

import (
	"slices"
	"testing"
)

// Middle is the upper of the two middle figures, as the probes that print
// it always took it; Median averages them; the figures stay unsorted.
func TestSummarize(t *testing.T) {
	figures := []float64{4, 1, 3, 2}
	s := Summarize(figures)
	if want := (Summary{Runs: 4, Middle: 3, Median: 2.5, Low: 1, High: 4}); s != want {
		t.Errorf("Summarize = %+v, want %+v", s, want)
	}
	if !slices.Equal(figures, []float64{4, 1, 3, 2}) {
		t.Errorf("Summarize sorted its argument: %v", figures)
	}
	if got, want := s.String(), "4 runs: median 3, range 1–4"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, want := s.MeanMedian(), "4 runs: median 2.5, range 1–4"; got != want {
		t.Errorf("MeanMedian = %q, want %q", got, want)
	}
	if got := Summarize([]float64{7}); got.Middle != 7 || got.Median != 7 {
		t.Errorf("one run: %+v", got)
	}
}
