package prog

import (
	"go/token"
	"slices"
	"strings"
	"testing"
)

// TestIdentifiersStandOneForOne: every declaration gets its own valid,
// ASCII Go identifier, the same for the same file; the first name of a
// spelling keeps the plain spelling.
func TestIdentifiersStandOneForOne(t *testing.T) {
	names := []string{"done", "a-b", "a_b", "a_b_2", "a-b_2", "é", "è", "_u00e9", "a b", "a.b", "日本", "e\u0301", "done"}
	self := func(s string) string { return s }
	ids := identifiers("ch_", names, self)
	if again := identifiers("ch_", names, self); !slices.Equal(ids, again) {
		t.Errorf("two translations of one file spell its names %v and %v", ids, again)
	}
	seen := map[string]string{}
	for i, id := range ids {
		if !token.IsIdentifier(id) || strings.ContainsFunc(id, func(r rune) bool { return r > 0x7f }) {
			t.Errorf("%q is written %q, not an ASCII Go identifier", names[i], id)
		}
		if prev, ok := seen[id]; ok {
			t.Errorf("%q and %q are both written %s", prev, names[i], id)
		}
		seen[id] = names[i]
	}
	for i, want := range map[int]string{0: "ch_done", 1: "ch_a_b", 2: "ch_a_b_2", 5: "ch__u00e9", 6: "ch__u00e8"} {
		if ids[i] != want {
			t.Errorf("%q is written %s, want %s", names[i], ids[i], want)
		}
	}
}

// TestManyNamesSpellingAlike: 2^13 names that all spell a_a_…_a (each
// separator - or _) get distinct identifiers; the suffix search resumes
// where it stopped, so this is not quadratic.
func TestManyNamesSpellingAlike(t *testing.T) {
	names := []string{"a"}
	for range 13 {
		var next []string
		for _, n := range names {
			next = append(next, n+"-a", n+"_a")
		}
		names = next
	}
	ids := identifiers("ch_", names, func(s string) string { return s })
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("%s is given twice", id)
		}
		seen[id] = true
	}
}
