package taskmode

import "testing"

func TestParse(t *testing.T) {
	if m, err := Parse("pool, raw"); err != nil || len(m) != 2 || m[0] != Pool || m[1] != Raw {
		t.Errorf("Parse = %v, %v", m, err)
	}
	for _, bad := range []string{"pool,pool", "threads", ""} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted it", bad)
		}
	}
	for _, m := range All {
		if back, err := ParseOne(m.String()); err != nil || back != m {
			t.Errorf("%v does not parse back: %v, %v", m, back, err)
		}
	}
	if Raw.Bounded() || !Pool.Bounded() {
		t.Error("only raw is unbounded")
	}
}
