package verify

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/real/prog"
)

func printed(lines ...string) Observables {
	return Observables{Output: lines, Goroutines: 2, PeakLive: 3}
}

// The printed order is judged as a category: the model agrees when the
// real runs' commonest order is one of its seeds' orders, over the lines
// every run printed.
func TestJudgeOutputOrder(t *testing.T) {
	model := []Observables{printed("3", "2", "1"), printed("3", "2", "1"), printed("1", "3", "2")}
	real := []Observables{printed("3", "2", "1"), printed("3", "1", "2"), printed("3", "2", "1")}
	rep := &Report{Scenario: "x", Procs: 2, Seeds: []uint64{1, 2, 3}, Runs: 3, Go: "go1.26.0", Load: "load"}
	rep.Judge(model, real)
	row := rep.row(orderRow)
	if row == nil {
		t.Fatalf("no output row in %+v", rep.Rows)
	}
	if !row.Within || row.ModelValues != `"3" "2" "1" x2, "1" "3" "2" x1` || row.RealValues != `"3" "2" "1" x2, "3" "1" "2" x1` {
		t.Errorf("row %+v", row)
	}
	if !strings.Contains(row.Verdict, "(2 of 3) came on 2 of 3 seeds") {
		t.Errorf("verdict %q", row.Verdict)
	}
	// A model that never gives the real runs' commonest order differs.
	rep.Judge([]Observables{printed("1", "2", "3")}, real)
	if row := rep.row(orderRow); row.Within || !strings.Contains(row.Verdict, "never came from the model") {
		t.Errorf("row %+v", row)
	}
	// Runs stopped at their until print different numbers of lines:
	// the lines all of them printed are compared.
	rep.Judge([]Observables{printed("pong", "ping", "pong")}, []Observables{printed("pong", "ping"), printed("pong", "ping", "pong", "ping")})
	if row := rep.row(orderRow); !row.Within || row.RealValues != `"pong" "ping" x2` {
		t.Errorf("row %+v", row)
	}
	// Nothing printed: no row.
	rep.Judge([]Observables{{}}, []Observables{{}})
	if rep.row(orderRow) != nil {
		t.Errorf("an output row for a program that prints nothing")
	}
	var b strings.Builder
	rep.Judge(model, real)
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "output order") || !strings.Contains(b.String(), `"3" "2" "1" x2`) {
		t.Errorf("the table lacks the output row:\n%s", b.String())
	}
	b.Reset()
	if err := WriteSummary(&b, []*Report{rep}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "output") || !strings.Contains(b.String(), "on 0 of 8 observables") {
		t.Errorf("the summary lacks the output column:\n%s", b.String())
	}
}

// An untraced run's ending is Go's: exit status 2 with the deadlock or
// panic message, or its exit status.
func TestEndingOf(t *testing.T) {
	for _, c := range []struct {
		out  prog.Output
		want string
	}{
		{prog.Output{ExitCode: 2, Stderr: []byte("fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n")}, "deadlock"},
		{prog.Output{ExitCode: 2, Stderr: []byte("panic: close of closed channel\n\ngoroutine 1 [running]:\n")}, "panic"},
		{prog.Output{ExitCode: 0}, "exit status 0"},
		{prog.Output{ExitCode: 2, Stderr: []byte("something else\n")}, "exit status 2"},
	} {
		if got := endingOf(c.out); got != c.want {
			t.Errorf("endingOf(%q, %d) = %q, want %q", c.out.Stderr, c.out.ExitCode, got, c.want)
		}
	}
	row := judgeEnding(endWords([]gmp.EndReason{gmp.Deadlock, gmp.Deadlock}), []Observables{
		{Untraced: true, Ended: "deadlock"}, {Untraced: true, Ended: "deadlock"}, {Untraced: true, Ended: "exit status 0"}})
	if !row.Within || row.RealValues != "deadlock x2, exit status 0 x1" {
		t.Errorf("row %+v", row)
	}
}

// Untraced real runs have no trace: the rows of the trace have no real
// run, and the printed order is still judged.
func TestJudgeUntraced(t *testing.T) {
	rep := &Report{Scenario: "x", Procs: 1, Seeds: []uint64{1}, Runs: 1}
	rep.Judge([]Observables{printed("a")}, []Observables{{Untraced: true, Ended: "deadlock", Output: []string{"a"}}})
	for _, r := range rep.Rows {
		if r.Observable == orderRow {
			if !r.Within {
				t.Errorf("output row %+v", r)
			}
		} else if r.Verdict != noReal {
			t.Errorf("row %s has verdict %q, want %q", r.Observable, r.Verdict, noReal)
		}
	}
}

// A scenario that prints may print nothing, on both sides: judged as the
// order "nothing".
func TestJudgeNothingPrinted(t *testing.T) {
	row, ok := judgeOrders([]Observables{{}, {}}, []Observables{{}}, true)
	if !ok || !row.Within || row.ModelValues != "nothing x2" || row.RealValues != "nothing x1" {
		t.Errorf("row %+v, %v", row, ok)
	}
}
