package recorded

import (
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/real/rtrace"
)

// fakeTrace visits events as a trace would.
func fakeTrace(events ...rtrace.Event) func(func(rtrace.Event)) (*rtrace.Summary, error) {
	return func(visit func(rtrace.Event)) (*rtrace.Summary, error) {
		for _, e := range events {
			visit(e)
		}
		return &rtrace.Summary{Events: len(events)}, nil
	}
}

// TestATraceNamingAHugePIsRefused: a P's state is kept at its number, so
// a trace naming P 2,147,483,647 asked for 50 GB before the view opened,
// and one naming P 2^40 showed it as P0. Both are refused with the P.
func TestATraceNamingAHugePIsRefused(t *testing.T) {
	for _, p := range []int64{1<<31 - 1, 1 << 40, MaxProcs, -7} {
		_, _, err := fromTrace(fakeTrace(
			rtrace.Event{Kind: "proc-start", G: -1, G2: -1, P: 0, M: 1},
			rtrace.Event{Kind: "proc-start", G: -1, G2: -1, P: p, M: 2},
		), 0)
		if err == nil || !strings.Contains(err.Error(), "names P"+strconv.FormatInt(p, 10)) {
			t.Errorf("P%d: %v", p, err)
		}
	}
	run, _, err := fromTrace(fakeTrace(
		rtrace.Event{Kind: "proc-start", G: -1, G2: -1, P: MaxProcs - 1, M: 1},
		rtrace.Event{Kind: "go-start", G: 1 << 40, G2: -1, P: MaxProcs - 1, M: 1},
	), 0)
	if err != nil {
		t.Fatal(err)
	}
	if s := run.StateAfter(1); len(s.Procs) != MaxProcs || s.Procs[MaxProcs-1].G != 1<<40 || s.Of(1<<40) != GRunning {
		t.Errorf("the last P a trace may name: %d Ps, the last running G%d", len(s.Procs), s.Procs[len(s.Procs)-1].G)
	}
}
