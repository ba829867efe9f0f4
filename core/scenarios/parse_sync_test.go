package scenarios

import (
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
)

// Mutexes, rwmutexes and wait groups: the declarations and the actions
// that name them, each mistake at its line and column.
func TestParseSyncErrors(t *testing.T) {
	src := `procs: 1
mutexes: [mu, mu]
rwmutexes: [mu, rw]
waitgroups: [wg, "a\u0007b"]
main:
  - lock: nosuch
  - rlock: mu
  - wait: wgg
  - add: {wg: wg, n: x}
  - done: {}
  - go: {wg: nope, do: [{cpu: 1ms}]}
`
	checkErrors(t, "dir/bad.yaml", src, []wantErr{
		{"2:15", `"mu" is declared twice`, "a name of its own"},
		{"3:13", `"mu" is declared twice`, "a name of its own"},
		{"4:18", "contains a control character", "letters"},
		{"6:11", `mutex "nosuch" is not declared`, "mutexes: [NAME] or rwmutexes: [NAME]"},
		{"7:12", `rlock needs an rwmutex, and "mu" is a sync.Mutex`, "rwmutexes:"},
		{"8:11", "wait takes the word children or a wait group's name", "did you mean wg?"},
		{"9:22", `add n must be a whole number, not "x"`, "-1000000"},
		{"10:5", "done needs a wait group name", "wait group's name"},
		{"11:14", `wait group "nope" is not declared`, "waitgroups: [NAME]"},
	})
}

// What the sync actions read into: the object, the kind, and a wait
// group's index plus one (0 is no group: wait: children, a plain go).
func TestParseSyncActions(t *testing.T) {
	sc, err := Parse("ok.yaml", []byte(`procs: 2
mutexes: [a]
rwmutexes: [b]
waitgroups: [w, v]
main:
  - lock: b
  - rlock: b
  - add: {wg: v, n: -2}
  - add: w
  - go: {count: 3, wg: v, do: [{unlock: a}]}
  - wait: v
  - wait: children
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Program().Mutexes; len(got) != 2 || got[0].Name != "a" || got[0].RW || got[1].Name != "b" || !got[1].RW {
		t.Errorf("mutexes %+v", got)
	}
	m := sc.Main
	for i, want := range []gmp.Op{
		{Kind: gmp.OpLock, Mutex: 1},
		{Kind: gmp.OpRLock, Mutex: 1},
		{Kind: gmp.OpAdd, WG: 2, N: -2},
		{Kind: gmp.OpAdd, WG: 1, N: 1},
		{Kind: gmp.OpGo, WG: 2, Count: 3},
		{Kind: gmp.OpWait, WG: 2},
		{Kind: gmp.OpWait},
	} {
		got := m[i]
		if got.Kind != want.Kind || got.Mutex != want.Mutex || got.WG != want.WG || got.N != want.N || got.Count != want.Count {
			t.Errorf("action %d reads %v mutex %d wg %d n %d count %d, want %+v", i, got.Kind, got.Mutex, got.WG, got.N, got.Count, want)
		}
	}
	if b := m[4].Body; len(b) != 1 || b[0].Kind != gmp.OpUnlock || b[0].Mutex != 0 {
		t.Errorf("wg.Go's body %+v", b)
	}
}
