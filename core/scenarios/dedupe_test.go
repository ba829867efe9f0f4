package scenarios

import "testing"

// A list that holds itself twice through an alias is reached again and
// again while actions are read: each place's mistake is reported once,
// not once per use up to the error limit (which hid the rest).
func TestSelfReferenceReportedOnce(t *testing.T) {
	checkErrors(t, "self.yaml", "procs: 1\nmain: &m [{cpu: 1ms}, {go: {do: *m}}, {go: {do: *m}}]\n", []wantErr{
		{"2:12", "more than 100000 actions", "loop:"},
		{"2:33", "actions nested more than 32 deep", "flatten"},
		{"2:49", "actions nested more than 32 deep", "flatten"},
	})
}

// Distinct mistakes are all still reported, and the same message at two
// places is two mistakes.
func TestDedupeKeepsDistinctErrors(t *testing.T) {
	checkErrors(t, "two.yaml", actions+"  - cpu: 1x\n  - cpu: 1x\n", []wantErr{
		{"4:10", `"1x" is not a duration`, "duration"},
		{"5:10", `"1x" is not a duration`, "duration"},
	})
}
