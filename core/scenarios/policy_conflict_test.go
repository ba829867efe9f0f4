package scenarios

import (
	"strings"
	"testing"
)

// A file's policy: that joins two policies changing the same rule is a
// mistake at its line and column, naming both, with a hint to keep one.
func TestContradictoryPolicyInAFile(t *testing.T) {
	_, err := Parse("pol.yaml", []byte("procs: 2\npolicy: fairness=3+no-fairness\nmain:\n  - cpu: 1ms\n"))
	if err == nil {
		t.Fatal("fairness=3+no-fairness accepted")
	}
	msg := err.Error()
	for _, want := range []string{"pol.yaml:2:9: ", `"fairness=3"`, `"no-fairness"`, "hint: keep one of the two"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}
