package scenarios

import (
	"strings"
	"testing"
)

// check warns where a note or a question may not land on what it names
// (issue 26: a student's first scenario, whose point — the waiter, made
// last, running first through runnext — never happened, passed check with
// "ok"). No built-in draws a warning.
func TestLandingsWarn(t *testing.T) {
	src := `procs: 1
main:
  - go: {do: [{cpu: 1ms}]}
  - go: {do: [{sleep: 5ms}, {cpu: 1ms}]}
  - cpu: 2ms
  - wait: children
ask:
  - at: 0s
    question: "Where does G3 go?"
    answer: {where: G2}
notes:
  - on: go-block
    text: G5, the waiter, created last, runs first through runnext.
  - on: steal
    text: an idle P steals.
  - at: 0s
    text: G3 is made last.
`
	sc, err := Parse("student.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range Landings(sc, sc.Config()) {
		got = append(got, w.String())
	}
	want := []string{
		"student.yaml:8:5: warning: the question names G3, but its answer is about G2",
		"student.yaml:12:5: warning: the note names G5, but no event",
		"student.yaml:14:5: warning: the note on steal is never reached",
	}
	if len(got) != len(want) {
		t.Fatalf("warnings:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("warning %d: %q, want %q…", i, got[i], want[i])
		}
	}
	all, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		for _, w := range Landings(sc, sc.Config()) {
			t.Errorf("%s", w)
		}
	}
}

// An unknown event kind's hint maps the words people use to the kinds
// that mean them: "preempt" is go-stop.
func TestKindWords(t *testing.T) {
	for word, want := range map[string]string{"preempt": "did you mean go-stop?", "wakeup": "did you mean go-unblock?", "retake": "did you mean proc-steal?", "Spinning": "did you mean m-start?"} {
		_, err := Parse("w.yaml", []byte("procs: 1\nmain: [{cpu: 1ms}]\nnotes:\n  - on: "+word+"\n    text: x\n"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("on: %s: %v, want %q", word, err, want)
		}
	}
}

// marks: name moments a presenter jumps to; a bad name, a name twice, a
// mark the run never reaches are each said where they are.
func TestMarks(t *testing.T) {
	sc, err := Parse("m.yaml", []byte("procs: 1\nmain: [{cpu: 1ms}, gosched]\nmarks:\n  - {name: start, at: 0s}\n  - {name: yield, on: go-stop}\n  - {name: never, on: steal}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Marks) != 3 || sc.Marks[1].Name != "yield" || sc.Marks[1].Pos.Line != 5 {
		t.Fatalf("marks %+v", sc.Marks)
	}
	ws := Landings(sc, sc.Config())
	if len(ws) != 1 || !strings.HasPrefix(ws[0].String(), "m.yaml:6:6: warning: the mark never (on steal) is never reached") {
		t.Errorf("warnings %v", ws)
	}
	for src, want := range map[string]string{
		"marks: {a: 1}":                                    "marks must be a list",
		"marks: [{name: Bad, at: 0s}]":                     `mark name "Bad"`,
		"marks: [{at: 0s}]":                                "a mark has no name",
		"marks: [{name: a, at: 0s}, {name: a, on: steal}]": `a second mark named "a"`,
		"marks: [{name: a}]":                               "a mark needs at: (a time) or on: (an event kind)",
		"marks: [{name: a, on: prempt}]":                   "did you mean go-stop?",
	} {
		_, err := Parse("m.yaml", []byte("procs: 1\nmain: [{cpu: 1ms}]\n"+src+"\n"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}
