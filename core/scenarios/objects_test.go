package scenarios

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
)

// A kind gmp registers is read from its registry entry: conds: {NAME: MU}
// declares a cond on a mutex, its verbs read into OpObj naming it, and
// the errors say file:line:col with a did-you-mean.
func TestObjectsAreReadFromTheRegistry(t *testing.T) {
	sc, err := Parse("c.yaml", []byte("procs: 1\nmutexes: [a, mu]\nconds: {ready: mu, done: a}\nmain: [{cwait: done}, {signal: ready}, {broadcast: ready}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []gmp.ObjDecl{{Kind: 0, Name: "ready", Ref: 1}, {Kind: 0, Name: "done", Ref: 0}}
	if len(sc.Objects) != 2 || sc.Objects[0].Name != want[0].Name || sc.Objects[0].Ref != 1 || sc.Objects[1].Ref != 0 {
		t.Fatalf("objects %+v, want %+v", sc.Objects, want)
	}
	prog := sc.Program()
	var verbs []string
	for i := range prog.Main {
		verbs = append(verbs, prog.OpName(&prog.Main[i]))
	}
	if got := strings.Join(verbs, " "); got != "cwait signal broadcast" || prog.Main[0].Obj != 1 {
		t.Errorf("actions %q on %d, want cwait signal broadcast, the first on done", got, prog.Main[0].Obj)
	}
	for _, tc := range []struct{ src, want string }{
		{"mutexes: [mu]\nconds: {ready: mx}\nmain: [gosched]\n", `c.yaml:3:16: mutex "mx" is not declared`},
		{"mutexes: [mu]\nconds: {ready: mu}\nmain: [{signal: redy}]\n", `c.yaml:4:17: cond "redy" is not declared`},
		{"conds: [ready]\nmain: [gosched]\n", "c.yaml:2:8: conds must map cond names to their mutexes"},
		// cwait runs in a frame of its own: inside five loops it is one
		// too deep, told by the parser rather than by the run.
		{"mutexes: [mu]\nconds: {c: mu}\nmain: [" + strings.Repeat("{loop: {times: 1, do: [", 5) + "{cwait: c}" + strings.Repeat("]}}", 5) + "]\n",
			"cwait inside 5 loops nests deeper than the 5 levels a goroutine allows"},
	} {
		_, err := Parse("c.yaml", []byte("procs: 1\n"+tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
}
