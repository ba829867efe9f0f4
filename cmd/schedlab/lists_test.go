package main

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
)

// The help of every command that takes --policy, and list --policies,
// name every policy of gmp's policy table, in its order: both read the
// table, so a row added there shows in both with no edit here. Write the
// flag's help by hand, or list the policies from anywhere else, and this
// fails naming the command and the policy it leaves out.
func TestHelpListsEveryPolicy(t *testing.T) {
	names := gmp.PolicyNames()
	for _, cmd := range []string{"run", "tui", "compare", "check"} {
		code, out, errOut := cli(t, cmd, "--help")
		if code != 0 {
			t.Fatalf("%s --help: exit %d\n%s", cmd, code, errOut)
		}
		line := ""
		for _, l := range lines(out) {
			if strings.Contains(l, "--policy ") {
				line = l
			}
		}
		if !strings.Contains(line, "a what-if scheduler: "+strings.Join(names, ", ")+";") {
			t.Errorf("%s --help does not list the policy table's policies (%s):\n%s", cmd, strings.Join(names, ", "), line)
		}
	}
	_, out, _ := cli(t, "list", "--policies")
	var listed []string
	for _, l := range lines(out) {
		if l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "Join several") {
			listed = append(listed, l)
		}
	}
	if strings.Join(listed, ", ") != strings.Join(names, ", ") {
		t.Errorf("list --policies lists %v, the table has %v", listed, names)
	}
}
