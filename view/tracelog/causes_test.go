package tracelog

import (
	"bytes"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
)

// Only the JSON lines write causes, so only they pay for finding them:
// the text trace, --format none and schedtrace alone run without (issue
// 30), and the JSON lines still carry them.
func TestOnlyJSONLinesTrackCauses(t *testing.T) {
	sc, err := scenarios.Load("steal")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o    Options
		want bool
	}{
		{Options{Format: Text}, false},
		{Options{Format: None}, false},
		{Options{Format: JSONL, NoEvents: true}, false},
		{Options{Format: JSONL}, true},
	} {
		if got := !c.o.Config(sc).NoCauses; got != c.want {
			t.Errorf("format %d, no events %v: causes tracked %v, want %v", c.o.Format, c.o.NoEvents, got, c.want)
		}
	}
	var out bytes.Buffer
	if _, _, err := Run(sc, Options{Format: JSONL}, &out); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte(`,"cause":`)) {
		t.Errorf("the JSON lines name no cause:\n%s", out.Bytes())
	}
}
