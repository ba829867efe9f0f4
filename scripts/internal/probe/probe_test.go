package probe

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// Middle is the upper of the two middle figures, as the probes that print
// it always took it; Median averages them; the figures stay unsorted.
func TestSummarize(t *testing.T) {
	figures := []float64{4, 1, 3, 2}
	s := Summarize(figures)
	if want := (Summary{Runs: 4, Middle: 3, Median: 2.5, Low: 1, High: 4, P10: 1, P90: 4}); s != want {
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
	if got := Summarize([]float64{7}); got.Middle != 7 || got.Median != 7 || got.P10 != 7 || got.P90 != 7 {
		t.Errorf("one run: %+v", got)
	}
	// The percentiles by nearest rank: of twenty figures, the 3rd and 19th.
	var twenty []float64
	for i := 20; i >= 1; i-- {
		twenty = append(twenty, float64(i))
	}
	if got := Summarize(twenty); got.P10 != 3 || got.P90 != 19 {
		t.Errorf("twenty figures: p10 %v, p90 %v, want 3 and 19", got.P10, got.P90)
	}
}

// Trace writes a runtime trace to the file it makes, whole once stopped:
// a trace begins with its "go 1.N trace" header.
func TestTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.out")
	stop, err := Trace(path)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("go 1.")) {
		t.Errorf("the file begins %q, want a runtime trace's header", b[:min(len(b), 16)])
	}
	if _, err := Trace(filepath.Join(t.TempDir(), "no", "such", "folder", "trace.out")); err == nil {
		t.Error("a trace into a folder that does not exist started")
	}
}

// A figure falls in the class below the first bound it does not reach;
// the classes are named by their bounds.
func TestBucket(t *testing.T) {
	bounds := []float64{1, 10, 100}
	for _, c := range []struct {
		x    float64
		want int
	}{{0, 0}, {0.99, 0}, {1, 1}, {9, 1}, {10, 2}, {100, 3}, {1e9, 3}} {
		if got := Bucket(bounds, c.x); got != c.want {
			t.Errorf("Bucket(%v, %v) = %d, want %d", bounds, c.x, got, c.want)
		}
	}
	got := BucketNames(bounds, func(b float64) string { return strconv.FormatFloat(b, 'g', -1, 64) })
	if want := []string{"under 1", "1-10", "10-100", "100 or more"}; !slices.Equal(got, want) {
		t.Errorf("BucketNames = %q, want %q", got, want)
	}
}
