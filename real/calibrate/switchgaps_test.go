package calibrate

import (
	"bytes"
	"runtime/trace"
	"strings"
	"testing"
)

// Each switch probe makes the switches its gap figure reads, of the kind
// it is read for: switchGaps returns a sample only for each 16 gaps after
// the warm-up, so a probe that made too few, or switches of another kind
// (a park where an exit was meant), would leave its figure short.
func TestSwitchProbesMakeTheirSwitches(t *testing.T) {
	const n = 5
	for _, c := range []struct {
		kind string
		work func(int)
	}{
		{"park", parkSwitches},
		{"exit", exitSwitches},
		{"yield", yieldSwitches},
	} {
		got := onOneP(func() []float64 { return switchGaps(n, c.kind, c.work) })
		if len(got) != n {
			t.Errorf("%s: %d samples, want %d", c.kind, len(got), n)
		}
		for i, v := range got {
			if v < 0 {
				t.Errorf("%s: sample %d is %v, a gap cannot be negative", c.kind, i, v)
			}
		}
	}
}

// Switches makes, for a program that traces itself as scripts/freshgaps
// does, at least as many switches of a kind as asked, each one gap that
// GapsOf reads from the trace; of another kind it reads fewer. An unknown
// kind is an error from both.
func TestSwitchesGiveGapsOfTheirKind(t *testing.T) {
	const n = 200
	for kind := range SwitchKinds {
		var buf bytes.Buffer
		onOneP(func() []float64 {
			if err := trace.Start(&buf); err != nil {
				t.Fatal(err)
			}
			defer trace.Stop()
			if err := Switches(kind, n); err != nil {
				t.Fatal(err)
			}
			return nil
		})
		b := buf.Bytes()
		gaps, err := GapsOf(bytes.NewReader(b), kind)
		if err != nil {
			t.Fatal(err)
		}
		if len(gaps) < n {
			t.Errorf("%s: %d gaps from %d switches", kind, len(gaps), n)
		}
		for other := range SwitchKinds {
			if other == kind {
				continue
			}
			if o, err := GapsOf(bytes.NewReader(b), other); err != nil || len(o) >= n {
				t.Errorf("%s's switches read as %d %s gaps (%v)", kind, len(o), other, err)
			}
		}
	}
	if err := Switches("spin", 1); err == nil || !strings.Contains(err.Error(), `"spin"`) {
		t.Errorf("Switches of an unknown kind: %v", err)
	}
	if _, err := GapsOf(strings.NewReader(""), "spin"); err == nil {
		t.Error("GapsOf of an unknown kind: no error")
	}
}
