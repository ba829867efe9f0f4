package scenarios

import (
	"errors"
	"strings"
	"testing"
)

// Validate refuses a question about a P or a goroutine the run cannot
// have, at the name's line and column, against the configuration the run
// uses (procs from the file or the command line); it accepts the same
// file when the configuration has them, and every built-in as it is.
func TestValidateAskRefs(t *testing.T) {
	src := "procs: 1\nmain:\n  - go: {count: 2, do: [{cpu: 1ms}]}\n  - wait: children\nask:\n" +
		"  - on: {kind: go-create, p: P3, g: G9}\n    answer: {next-on: P1}\n" +
		"  - on: go-create\n    answer: {where: G3}\n"
	sc, err := Parse("refs.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	err = sc.Validate(sc.Config())
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Validate: %v, want an ErrorList", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Pos.String()+" "+strings.Fields(e.Msg)[1])
		if e.Hint == "" {
			t.Errorf("%v has no hint", e)
		}
	}
	want := "refs.yaml:6:30 P3, refs.yaml:6:37 G9, refs.yaml:7:23 P1"
	if strings.Join(got, ", ") != want {
		t.Errorf("errors at %s, want %s\n%v", strings.Join(got, ", "), want, err)
	}
	cfg := sc.Config()
	cfg.Procs = 4
	if err := sc.Validate(cfg); err == nil || strings.Contains(err.Error(), "names a P") {
		t.Errorf("with 4 Ps: %v, want only the goroutine refused", err)
	}
	// A --procs below the file's does not make its Ps mistakes: the file
	// is right, the run just may not reach the question.
	sc, err = Parse("four.yaml", []byte("procs: 4\nmain:\n  - cpu: 1ms\nask:\n  - on: go-start\n    answer: {next-on: P3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg = sc.Config()
	cfg.Procs = 1
	if err := sc.Validate(cfg); err != nil {
		t.Errorf("procs: 4 run with 1 P: %v", err)
	}

	// A pool starts goroutines as the run goes: no bound, no error.
	pooled := "procs: 1\npools: {p: {size: 1}}\nmain:\n  - submit: {pool: p, count: 2, do: [{cpu: 1ms}]}\n  - wait: children\nask:\n  - on: go-create\n    answer: {where: G50}\n"
	sc, err = Parse("pooled.yaml", []byte(pooled))
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Validate(sc.Config()); err != nil {
		t.Errorf("a scenario with a pool: %v", err)
	}

	all, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		if err := b.Validate(b.Config()); err != nil {
			t.Errorf("built-in %s: %v", b.Name, err)
		}
	}
}
