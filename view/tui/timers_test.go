package tui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
)

// sleepers is a state with thousands of timers on each of several Ps,
// some of them at the same instant (ties fire in arrival order), and a
// P count under timersShown on none.
const sleepers = `
procs: 8
main:
  - go:
      count: 40000
      do:
        - cpu: 10us
        - sleep: 1s
  - wait: children
`

// timersTextBySort is what timersText printed when it sorted every heap:
// the oracle its output must match byte for byte.
func timersTextBySort(st *gmp.Machine) string {
	var parts []string
	for i := range st.Procs() {
		p := st.P(gmp.PID(i))
		ts := p.Timers()
		if len(ts) == 0 {
			continue
		}
		var gs []string
		for j, tm := range ts {
			if j == 4 {
				gs = append(gs, fmt.Sprintf("+%d", len(ts)-4))
				break
			}
			if tm.Purge != 0 {
				gs = append(gs, fmt.Sprintf("purge:%s@%v", st.Pools()[tm.Purge-1].Decl.Name, tm.When))
				continue
			}
			gs = append(gs, fmt.Sprintf("%v@%v", tm.G, tm.When))
		}
		parts = append(parts, p.ID.String()+": "+strings.Join(gs, " "))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " · ")
}

// The timers line names each P's four earliest timers without copying or
// sorting its heap: what it allocates does not grow with the number of
// timers, and what it prints is what the full sort printed.
func TestTimersTextSelectsWithoutSorting(t *testing.T) {
	s := sessionOf(t, sleepers)
	timers := func() int {
		n := 0
		for i := range s.State().Procs() {
			n += s.State().P(gmp.PID(i)).TimerCount()
		}
		return n
	}
	checked := 0
	for timers() < 30000 {
		if s.Forward(2000) == 0 {
			t.Fatalf("the run ended with %d timers at most", timers())
		}
		if got, want := timersText(s.State()), timersTextBySort(s.State()); got != want {
			t.Fatalf("after %d events:\ngot  %s\nwant %s", s.Known(), got, want)
		}
		checked++
	}
	st := s.State()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	text := timersText(st)
	runtime.ReadMemStats(&after)
	// A sort copies every heap (24 bytes a timer, 720 kB here) and more;
	// the selection allocates the text and a few strings per P.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
		t.Errorf("timersText allocated %d bytes for %d timers: it copies the heaps", grew, timers())
	}
	if text != timersTextBySort(st) {
		t.Errorf("got  %s\nwant %s", text, timersTextBySort(st))
	}
	if checked < 5 {
		t.Errorf("only %d states compared", checked)
	}
}
