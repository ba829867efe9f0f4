package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// A select reads as Go writes one: its cases in order, the default last.
func TestParseSelect(t *testing.T) {
	sc := mustParse(t, "sel.yaml", `procs: 1
chans: {jobs: 0, out: 1}
main:
  - select:
      cases:
        - recv: jobs
          do: [{cpu: 1ms}]
        - send: out
        - after: 5ms
          do: [exit]
      default: [gosched]
  - select: {}
`)
	if len(sc.Main) != 2 {
		t.Fatalf("main has %d actions:\n%s", len(sc.Main), dumpOps(sc.Main))
	}
	op := sc.Main[0]
	if op.Kind != gmp.OpSelect || op.Pos != at("sel.yaml", 4, 5) || len(op.Cases) != 4 {
		t.Fatalf("select read as %+v", op)
	}
	want := []struct {
		dir  gmp.SelectDir
		ch   int
		dur  time.Duration
		body gmp.OpKind
		line int
	}{
		{gmp.SelectRecv, 0, 0, gmp.OpCPU, 6},
		{gmp.SelectSend, 1, 0, 0, 8},
		{gmp.SelectAfter, 0, 5 * time.Millisecond, gmp.OpExit, 9},
		{gmp.SelectDefault, 0, 0, gmp.OpGosched, 11},
	}
	for i, w := range want {
		c := op.Cases[i]
		var body gmp.OpKind
		if len(c.Body) > 0 {
			body = c.Body[0].Kind
		}
		if c.Dir != w.dir || c.Chan != w.ch || c.Dur.A != w.dur || body != w.body || c.Pos.Line != w.line {
			t.Errorf("case %d = %+v (line %d), want %v on %d, %v, running %v, line %d", i, c, c.Pos.Line, w.dir, w.ch, w.dur, w.body, w.line)
		}
	}
	if none := sc.Main[1]; none.Kind != gmp.OpSelect || len(none.Cases) != 0 {
		t.Errorf("select: {} read as %+v, want a select of no cases", none)
	}
}

// Mistakes in a select are reported where they are, with a hint.
func TestParseSelectErrors(t *testing.T) {
	head := "procs: 1\nchans: {jobs: 0}\nmain:\n"
	for _, tc := range []struct {
		name, src string
		want      []wantErr
	}{
		{"no value", head + "  - select:\n", []wantErr{{"4:5", "action select needs a mapping with cases", "write it as select: {cases:"}}},
		{"a list", head + "  - select: [recv: jobs]\n", []wantErr{{"4:5", "select needs a mapping", "select: {} to block for ever"}}},
		{"unknown key", head + "  - select: {cases: [], defualt: []}\n", []wantErr{{"4:25", `unknown key "defualt" in select`, "did you mean default?"}}},
		{"empty case", head + "  - select: {cases: [{do: [gosched]}]}\n", []wantErr{{"4:23", "a select case has none of recv, send or after", "default goes under select's default:"}}},
		{"two kinds", head + "  - select: {cases: [{recv: jobs, after: 1ms}]}\n", []wantErr{{"4:23", "a select case has recv and after: one is allowed", "a case for each"}}},
		{"misspelt key", head + "  - select: {cases: [{rcv: jobs}]}\n", []wantErr{
			{"4:23", `unknown key "rcv" in a select case`, "did you mean recv?"},
			{"4:23", "a select case has none of recv, send or after", ""}}},
		{"undeclared", head + "  - select: {cases: [{recv: job}, {after: 1ms}]}\n", []wantErr{{"4:29", `channel "job" is not declared`, "did you mean jobs?"}}},
		{"bad duration", head + "  - select: {cases: [{after: soon}]}\n", []wantErr{{"4:30", `"soon" is not a duration`, ""}}},
		{"too many", head + "  - select: {cases: [" + strings.Repeat("{recv: jobs}, ", 16) + "], default: []}\n", []wantErr{{"4:5", "a select of 17 cases: the model allows 16, default included", "split it"}}},
		{"too deep", head + `  - loop:
      times: 1
      do:
        - loop:
            times: 1
            do:
              - loop:
                  times: 1
                  do:
                    - loop:
                        times: 1
                        do:
                          - loop:
                              times: 1
                              do:
                                - select: {cases: [{recv: jobs, do: [gosched]}, {recv: jobs}]}
`, []wantErr{{"19:69", "a select's case inside 5 loops nests deeper than a goroutine allows", "flatten the loops"}}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkErrors(t, "dir/bad.yaml", tc.src, tc.want) })
	}
}
