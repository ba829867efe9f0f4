package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// With CPUs modelled, the Ms line says which CPU each thread runs on, and
// that a thread holding a P the kernel has descheduled is off-CPU.
func TestMsLineShowsCPUs(t *testing.T) {
	sc, err := scenarios.Load("steal")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.CPUs, cfg.Load = 1, 1
	a, err := New(sc, cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := draw(t, a, 160, 48).text; !strings.Contains(got, "M0 P0·G1 cpu0") {
		t.Fatalf("the Ms line does not say main's thread runs on CPU0:\n%s", got)
	}
	for range 2000 {
		key(a, tcell.KeyRight, 0)
		if e := a.Session().Event(a.Session().Cursor()); e.Kind == gmp.KindCPUOff && e.P != gmp.NoP && e.G != gmp.NoG {
			got := draw(t, a, 160, 48).text
			if want := e.M.String() + " " + e.P.String() + "·" + e.G.String() + " off-CPU"; !strings.Contains(got, want) {
				t.Fatalf("at %v's cpu-off the Ms line does not say %q:\n%s", e.M, want, got)
			}
			return
		}
	}
	t.Fatal("no thread running a goroutine lost its CPU")
}

// Without cpus: or load: the Ms line says nothing of CPUs.
func TestMsLineWithoutCPUs(t *testing.T) {
	a := newApp(t, "steal", false)
	if got := draw(t, a, 160, 48).text; strings.Contains(got, "cpu0") || strings.Contains(got, "off-CPU") {
		t.Fatalf("the Ms line names CPUs the run does not model:\n%s", got)
	}
}

// On a screen too narrow for every thread, the Ms line counts them by
// state, and the off-CPU ones apart, as some of those: a thread off its
// CPU is still running, spinning or waking for the runtime.
func TestMsSummaryCountsOffCPUApart(t *testing.T) {
	sc, err := scenarios.Load("sem-heavy")
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.CPUs, cfg.Load = 1, 2
	a, err := New(sc, cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		key(a, tcell.KeyRight, 0)
		got := draw(t, a, 80, 24).text
		i := strings.Index(got, "Ms 7: ")
		if i < 0 || !strings.Contains(got[i:], "off-CPU") {
			continue
		}
		line, _, _ := strings.Cut(got[i:], "\n")
		if !strings.Contains(line, " of them off-CPU)") {
			t.Fatalf("the Ms summary counts off-CPU threads as a state of their own: %q", line)
		}
		return
	}
	t.Fatal("no off-CPU thread in a summarised Ms line")
}
