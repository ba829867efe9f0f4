package gmp

import (
	"strings"
	"testing"
)

// policySamples are the table's rows as ParsePolicy reads them, fairness=N
// with two values.
func policySamples() []string {
	var out []string
	for _, info := range policies {
		if info.Name == "fairness=N" {
			out = append(out, "fairness=3", "fairness=100")
			continue
		}
		out = append(out, info.Name)
	}
	return out
}

// Two policies that answer the same question of the scheduler differently
// are refused, with both names in the message, whatever their order.
func TestContradictoryPoliciesAreRefused(t *testing.T) {
	for _, pair := range [][2]string{
		{"no-steal", "steal-all"},
		{"fairness=3", "no-fairness"},
		{"fairness=3", "fairness=100"},
		{"no-runnext", "global-fifo"},
		{"no-preempt", "no-preempt"},
	} {
		for _, s := range []string{pair[0] + "+" + pair[1], pair[1] + "+" + pair[0]} {
			_, err := ParsePolicy(s)
			if err == nil || !strings.Contains(err.Error(), pair[0]) || !strings.Contains(err.Error(), pair[1]) {
				t.Errorf("ParsePolicy(%q) = %v, want an error naming both", s, err)
			}
		}
	}
	if _, err := ParsePolicy("no-steal+no-preempt+fairness=7+syscall-handoff"); err != nil {
		t.Errorf("policies that change different rules: %v", err)
	}
}

// Every pair of rows of the table, a new row included: either the pair is
// refused, or it reads the same in either order and keeps what each of
// the two does alone. The first catches a row that overwrites another's
// field; the second one whose effect the other's silently undoes.
func TestEveryPolicyPairIsRefusedOrIndependent(t *testing.T) {
	for _, info := range policies {
		if info.Name != "default" && info.changes == nil {
			t.Errorf("policy %s says it changes nothing: name the rules it changes", info.Name)
		}
	}
	all := policySamples()
	for _, a := range all {
		for _, b := range all {
			ab, errAB := ParsePolicy(a + "+" + b)
			ba, errBA := ParsePolicy(b + "+" + a)
			if (errAB == nil) != (errBA == nil) {
				t.Errorf("%s+%s: %v, but %s+%s: %v", a, b, errAB, b, a, errBA)
				continue
			}
			if errAB != nil {
				continue
			}
			if ab != ba {
				t.Errorf("%s+%s is %v, but %s+%s is %v: the order changes the run", a, b, ab, b, a, ba)
			}
			for _, one := range []string{a, b} {
				alone, _ := ParsePolicy(one)
				if !keeps(ab, alone) {
					t.Errorf("%s+%s is %v: it loses what %s does alone (%v)", a, b, ab, one, alone)
				}
			}
		}
	}
}

// keeps reports whether p has every switch that q turns on.
func keeps(p, q Policy) bool {
	return (!q.NoRunnext || p.NoRunnext) && (!q.NoSteal || p.NoSteal) && (!q.StealAll || p.StealAll) &&
		(q.Fairness == 0 || p.Fairness == q.Fairness) && (!q.NoPreempt || p.NoPreempt) &&
		(!q.SyscallHandoff || p.SyscallHandoff) && (!q.GlobalFIFO || p.GlobalFIFO)
}
