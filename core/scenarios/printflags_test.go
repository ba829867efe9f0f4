package scenarios

import (
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
)

// print, set and the loops that do not count read into the program's
// actions; flags are named by their first use, in order.
func TestPrintFlagsAndLoops(t *testing.T) {
	src := `procs: 1
start: warm
main:
  - go: {do: [{set: ready}, {print: "done!"}]}
  - loop: {until: ready}
  - loop: {until: ready, do: [{cpu: 1us}]}
  - loop: {forever: true, do: [{set: other}]}
  - loop: forever
  - print: "héllo, \"world\""
`
	sc, err := Parse("f.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !sc.WarmStart || !sc.Config().WarmStart {
		t.Errorf("start: warm not read into the configuration")
	}
	if len(sc.Flags) != 2 || sc.Flags[0] != "ready" || sc.Flags[1] != "other" {
		t.Errorf("flags %q, want [ready other]", sc.Flags)
	}
	m := sc.Main
	set := m[0].Body[0]
	if set.Kind != gmp.OpSet || set.Flag != 0 || m[0].Body[1].Kind != gmp.OpPrint || m[0].Body[1].Text != "done!" {
		t.Errorf("go body = %+v", m[0].Body)
	}
	if m[1].Kind != gmp.OpLoop || m[1].Loop != gmp.LoopUntil || m[1].Flag != 0 || len(m[1].Body) != 0 {
		t.Errorf("loop until without do = %+v", m[1])
	}
	if m[2].Loop != gmp.LoopUntil || len(m[2].Body) != 1 {
		t.Errorf("loop until with do = %+v", m[2])
	}
	if m[3].Loop != gmp.LoopForever || m[3].Body[0].Flag != 1 {
		t.Errorf("loop forever = %+v", m[3])
	}
	if m[4].Loop != gmp.LoopForever || len(m[4].Body) != 0 {
		t.Errorf("loop: forever = %+v", m[4])
	}
	if m[5].Text != `héllo, "world"` {
		t.Errorf("print text %q", m[5].Text)
	}
	if p := sc.Program(); len(p.Flags) != 2 {
		t.Errorf("the program has flags %q", p.Flags)
	}
}

func TestPrintFlagsAndLoopsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []wantErr
	}{
		{"a flag nothing sets", "procs: 1\nmain:\n  - loop: {until: done}\n",
			[]wantErr{{"3:19", `no set: sets the flag "done", so this loop never ends`, "add set: done"}}},
		{"two ends", "procs: 1\nmain:\n  - set: x\n  - loop: {times: 2, until: x, do: [gosched]}\n",
			[]wantErr{{"4:12", "more than one of times:, until: and forever:", "keep one"}}},
		{"times without do", "procs: 1\nmain:\n  - loop: {times: 2}\n",
			[]wantErr{{"3:12", "loop has no do:", "do lists"}}},
		{"forever false", "procs: 1\nmain:\n  - loop: {forever: false, do: [gosched]}\n",
			[]wantErr{{"3:21", "forever: false says nothing", "leave forever out"}}},
		{"a print of two lines", "procs: 1\nmain:\n  - print: \"a\\nb\"\n",
			[]wantErr{{"3:12", "print writes one line", "one print for each line"}}},
		{"a print of a mapping", "procs: 1\nmain:\n  - print: {x: 1}\n",
			[]wantErr{{"3:13", "print needs a line of text", `print: "hello"`}}},
		{"a long print", "procs: 1\nmain:\n  - print: " + longText(201) + "\n",
			[]wantErr{{"3:12", "more than the 200", "shorten it"}}},
		{"a flag with a control character", "procs: 1\nmain:\n  - set: \"a\\u0007\"\n",
			[]wantErr{{"3:10", "contains a control character", "use letters"}}},
		{"unknown start", "procs: 1\nstart: hot\nmain: []\n",
			[]wantErr{{"2:8", `unknown start "hot"`, "start: warm"}}},
		{"loop word not forever", "procs: 1\nmain:\n  - loop: always\n",
			[]wantErr{{"3:5", "loop needs a mapping", "loop: forever"}}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkErrors(t, "dir/bad.yaml", tc.src, tc.want) })
	}
}

func longText(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'x'
	}
	return string(b)
}
