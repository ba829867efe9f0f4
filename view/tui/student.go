package tui

import (
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// A student alone at home starts with tour (what schedlab opens with no
// arguments) and goes on through studentPath, then an exercise. The UI
// says so where it helps: a hint as tour opens, the next step at the end
// of each, and why a preemption comes when it does where the first one
// shows. README's "For students" and docs/guide.md say the same.

// studentPath is the order the built-ins are best met in, alone.
var studentPath = []string{"tour", "runnext", "steal", "preempt"}

// pathExercise is the step after the path.
const pathExercise = "schedlab exercise runnext --seed 2"

// builtinName is sc's name when it is a built-in, else "".
func builtinName(sc *scenarios.Scenario) string {
	if sc.File == "builtin/"+sc.Name+".yaml" {
		return sc.Name
	}
	return ""
}

// firstRunHint is what the status bar says as tour opens.
func firstRunHint(sc *scenarios.Scenario) string {
	if builtinName(sc) != studentPath[0] {
		return ""
	}
	return "new here? → steps, ] next note, L what words mean"
}

// nextInPath is what the end of a built-in of the path says comes next.
func nextInPath(sc *scenarios.Scenario) string {
	i := slices.Index(studentPath, builtinName(sc))
	switch {
	case i < 0:
		return ""
	case i == len(studentPath)-1:
		return "next: " + pathExercise
	}
	return "next: o " + studentPath[i+1]
}

// whyNow explains, at the first preemption of a run (sysmon's request,
// and the stop it causes), why it comes when it does: sysmon stops a slice
// it has seen for 10ms, and it sees it first only when it wakes, so a
// slice runs 10 to 20ms. It is "" for any other event.
func whyNow(f frame, i int, e gmp.Event) string {
	if f.firstOf == nil {
		return ""
	}
	switch e.Rule {
	case gmp.RuleSysmonPreempt:
		if f.firstOf(e.Rule) != i {
			return ""
		}
	case gmp.RulePreemptAsync, gmp.RulePreemptSync:
		first := f.firstOf(gmp.RulePreemptAsync)
		if s := f.firstOf(gmp.RulePreemptSync); s >= 0 && (first < 0 || s < first) {
			first = s
		}
		if first != i || e.Cause < 0 {
			return ""
		}
		if e = f.events.Event(int(e.Cause)); e.Rule != gmp.RuleSysmonPreempt {
			return ""
		}
	default:
		return ""
	}
	firstSeen := e.T.Add(-e.Seen())
	return fmt.Sprintf("Why now, and not after 10ms: sysmon stops a time slice once it has seen it for 10ms, but it looks only when it wakes "+
		"(every 20µs at first, backing off to 10ms when it finds nothing to do). It first saw this slice at %v and asked at %v, "+
		"so a slice runs 10ms plus sysmon's wait to first see it: 10 to 20ms.", firstSeen, e.T)
}
