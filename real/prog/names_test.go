package prog_test

import (
	"testing"

	"github.com/schedlab/schedlab/real/prog"
)

// TestNamesThatSpellAlikeBuild: a-b and a_b, é and è, are different
// names of a valid scenario; their programs once declared ch_a_b twice
// and did not build. Every kind of declaration, built for real.
func TestNamesThatSpellAlikeBuild(t *testing.T) {
	const src = `procs: 1
chans: {a-b: 1, a_b: 1, a_b_2: 1, é: 1, è: 1, _u00e9: 1}
sems: {a-b: 1, a_b: 1, é: 1, è: 1}
pools: {a-b: {size: 1}, a_b: {size: 1}, é: {size: 1}, è: {size: 1}}
main:
  - send: a-b
  - send: a_b
  - send: a_b_2
  - send: é
  - send: è
  - send: _u00e9
  - acquire: {sem: a-b, n: 1}
  - acquire: {sem: a_b, n: 1}
  - acquire: {sem: é, n: 1}
  - acquire: {sem: è, n: 1}
  - submit: {pool: a-b, do: [{recv: a-b}]}
  - submit: {pool: a_b, do: [{recv: a_b}]}
  - submit: {pool: é, do: [{recv: é}, {recv: a_b_2}]}
  - submit: {pool: è, do: [{recv: è}, {recv: _u00e9}]}
  - wait: children
`
	program := translate(t, src)
	ctx, _ := withGo(t)
	if _, err := prog.Prepare(ctx, program, prog.Options{}); err != nil {
		t.Fatalf("%v\n%s", err, program.Main)
	}
}
