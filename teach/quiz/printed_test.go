package quiz_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/teach/quiz"
)

// printed: asks for the order of the program's lines, settled by the
// Nth print or, for all, by the end of the run; its wrong choices are the
// same lines in other orders.
func TestPrintedOrderQuestion(t *testing.T) {
	qs, err := settle(t, `procs: 1
main:
  - go: {do: [{print: "1"}]}
  - go: {do: [{print: "2"}]}
  - print: "3"
  - wait: children
ask:
  - at: 0s
    answer: {printed: all}
  - at: 0s
    answer: {printed: 2}
    choices: ["3 2", "3 1", "1 2"]
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 {
		t.Fatalf("%d questions", len(qs))
	}
	all := qs[0]
	if all.Correct() != "3 2 1" || all.Text != "What does the program print, in order?" {
		t.Errorf("question %q answers %q, want 3 2 1 (runnext first, then the ring)", all.Text, all.Correct())
	}
	if len(all.Choices) != 4 {
		t.Errorf("choices %q, want the answer and three other orders", all.Choices)
	}
	for _, c := range all.Choices {
		if len(strings.Fields(c)) == 3 && !sortedEq(c, "1 2 3") {
			t.Errorf("a wrong choice %q is not an order of the same lines", c)
		}
	}
	if qs[1].Correct() != "3 2" {
		t.Errorf("the first two lines are %q, want 3 2", qs[1].Correct())
	}
}

func sortedEq(a, b string) bool {
	x, y := strings.Fields(a), strings.Fields(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// A program that prints nothing before main returns answers "nothing",
// and a line with a space is quoted.
func TestPrintedNothingAndQuoting(t *testing.T) {
	qs, err := settle(t, `procs: 1
main:
  - go: {do: [{print: "done!"}]}
ask:
  - at: 0s
    answer: {printed: all}
`)
	if err != nil {
		t.Fatal(err)
	}
	if qs[0].Correct() != "nothing" || !slices.Contains(qs[0].Choices, "done!") {
		t.Errorf("answer %q among %q, want nothing, with done! a wrong choice", qs[0].Correct(), qs[0].Choices)
	}
	if got := quiz.OrderText([]string{"pong 1", "ping", ""}); got != `"pong 1" ping ""` {
		t.Errorf("OrderText = %s", got)
	}
}

// printed: takes a number of lines or all.
func TestParsePrintedFact(t *testing.T) {
	for arg, want := range map[string]int{"all": 0, "1": 1, "12": 12} {
		f, err := quiz.ParseFact("printed", arg, nil)
		if err != nil || f.Lines != want || f.Kind != quiz.FactPrinted {
			t.Errorf("printed: %s = %+v, %v", arg, f, err)
		}
	}
	for _, bad := range []string{"0", "-1", "x", "1001"} {
		if _, err := quiz.ParseFact("printed", bad, nil); err == nil || !strings.Contains(err.Error(), "how many lines") {
			t.Errorf("printed: %s: %v", bad, err)
		}
	}
}

// The lines a printed: question offers as wrong choices include those a
// select case's body prints: here the case not taken prints "late".
func TestPrintedLinesInSelectCases(t *testing.T) {
	qs, err := settle(t, `procs: 1
chans: {c: 1}
main:
  - send: c
  - select:
      cases:
        - recv: c
          do: [{print: "got"}]
        - after: 1ms
          do: [{print: "late"}]
ask:
  - at: 0s
    answer: {printed: all}
`)
	if err != nil {
		t.Fatal(err)
	}
	if qs[0].Correct() != "got" || !slices.Contains(qs[0].Choices, "late") {
		t.Errorf("answer %q among %q, want got, with late a wrong choice", qs[0].Correct(), qs[0].Choices)
	}
}
