package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/realtest"
	"github.com/schedlab/schedlab/real/calibrate"
)

// profileFixture is a valid cost profile (real/calibrate's test data).
const (
	profileFixture    = "../../real/calibrate/testdata/costs.json"
	profileFixtureV2  = "../../real/calibrate/testdata/costs-v2.json"
	profileFixtureV3  = "../../real/calibrate/testdata/costs-v3.json"
	profileFixtureV5  = "../../real/calibrate/testdata/costs-v5.json"
	profileFixtureV6  = "../../real/calibrate/testdata/costs-v6.json"
	profileFixtureV7  = "../../real/calibrate/testdata/costs-v7.json"
	profileFixtureV8  = "../../real/calibrate/testdata/costs-v8.json"
	profileFixtureV9  = "../../real/calibrate/testdata/costs-v9.json"
	profileFixtureV10 = "../../real/calibrate/testdata/costs-v10.json"
	profileFixtureV11 = "../../real/calibrate/testdata/costs-v11.json"
	profileFixtureV12 = "../../real/calibrate/testdata/costs-v12.json"
	profileFixtureV13 = "../../real/calibrate/testdata/costs-v13.json"
)

// TestCostsChangeTheRunDeterministically: --costs FILE times the model's
// runtime work with the profile, the same way every time, on every
// command that runs the model.
func TestCostsChangeTheRunDeterministically(t *testing.T) {
	for _, args := range [][]string{
		{"run", "pingpong", "--until", "1ms"},
		{"export", "pingpong", "--until", "1ms", "--format", "md"},
		{"compare", "burst"},
	} {
		_, plain, errOut := cli(t, args...)
		if errOut != "" {
			t.Fatalf("%q: %s", args, errOut)
		}
		withCosts := append(args[:len(args):len(args)], "--costs", profileFixture)
		code, once, errOut := cli(t, withCosts...)
		if code != exitOK {
			t.Fatalf("%q: exit %d, %s", withCosts, code, errOut)
		}
		_, again, _ := cli(t, withCosts...)
		if once != again {
			t.Errorf("%q: two runs differ", withCosts)
		}
		if once == plain {
			t.Errorf("%q: the profile changed nothing", withCosts)
		}
		_, builtin, _ := cli(t, append(args[:len(args):len(args)], "--costs", "builtin")...)
		if builtin != plain {
			t.Errorf("%q --costs builtin differs from the default costs", args)
		}
	}
	// The profile's go statement costs 81ns, its hand-off's Schedule 20ns
	// and Execute 60ns (real/calibrate's TestCostsFromAProfile): main
	// creates G2 at 60ns (its 150ns Execute scaled to 60).
	_, out, _ := cli(t, "run", "pingpong", "--until", "1ms", "--costs", profileFixture)
	if !strings.Contains(out, "0.000060ms  P0  M0   go-create      G1 creates G2") {
		t.Errorf("with the profile, G1 does not create G2 at 60ns:\n%s", out)
	}
	if code, out, errOut := cli(t, "check", "tour", "--costs", profileFixture); code != exitOK || !strings.Contains(out, "tour.yaml: ok") {
		t.Errorf("check --costs: exit %d, %s%s", code, out, errOut)
	}
}

// TestCostsRefusesABadProfile: a bad profile is a mistake in a file,
// named with its line and column, on every command.
func TestCostsRefusesABadProfile(t *testing.T) {
	bad := writeScenario(t, "bad.json", strings.Replace(mustRead(t, profileFixture), `"median_ns": 206`, `"median_ns": -1`, 1))
	for _, cmd := range []string{"run", "check", "compare", "export", "tui", "verify"} {
		code, _, errOut := cli(t, cmd, "tour", "--costs", bad)
		if code != exitUsage || !strings.Contains(errOut, bad+":48:20: figures.syscall.median_ns: want a positive figure") {
			t.Errorf("%s --costs with a negative cost: exit %d, %q", cmd, code, errOut)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "tour", "--costs", filepath.Join(t.TempDir(), "none.json")}, "none.json: no such file"},
		{[]string{"run", "tour", "--costs", ""}, "--costs needs a cost profile's file"},
		{[]string{"real", "tour", "--costs", profileFixture}, "--costs applies to the model only"},
		{[]string{"calibrate", "now"}, `calibrate takes no arguments, got "now"`},
		{[]string{"calibrate", "--samples", "0"}, "--samples 0: want 1 to 100000"},
		{[]string{"calibrate", "--rounds", "0"}, "--rounds 0: want 1 to --samples (500)"},
		{[]string{"calibrate", "--samples", "3", "--rounds", "4"}, "--rounds 4: want 1 to --samples (3)"},
	} {
		if code, _, errOut := cli(t, c.args...); code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want %q", c.args, code, errOut, c.want)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestVerifySaysWhichCosts: verify uses this machine's profile where
// calibrate writes it, the model's own costs without one, --costs over
// both, and says which in its report. nested-submit deadlocks by design,
// so verify runs only the model and builds nothing.
// verify's real runs are traced: it times the model with a profile's
// traced costs, whether the profile is this machine's or --costs names
// it; run, like every other command, with its untraced ones.
func TestVerifyTimesTheModelTraced(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("HOME", config)
	def, err := calibrate.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(def), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(def, []byte(mustRead(t, profileFixtureV2)), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := calibrate.Read(profileFixtureV2)
	if err != nil {
		t.Fatal(err)
	}
	traced, err := p.TracedCosts()
	if err != nil {
		t.Fatal(err)
	}
	untraced, err := p.Costs()
	if err != nil {
		t.Fatal(err)
	}
	for _, flags := range []simFlags{{}, {costs: profileFixtureV2, costsSet: true, profile: p}} {
		var over scenarios.Overrides
		over.Costs = &untraced // as overrides sets it from --costs
		if _, _, _, err := verifyCosts(&flags, &over); err != nil {
			t.Fatal(err)
		}
		if over.Costs == nil || *over.Costs != traced {
			t.Errorf("--costs %q: verify times the model with %+v, want the traced %+v", flags.costs, over.Costs, traced)
		}
	}
}

func TestVerifySaysWhichCosts(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("HOME", config) // where UserConfigDir does not read XDG_CONFIG_HOME
	def, err := calibrate.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	verify := func(args ...string) string {
		t.Helper()
		code, out, errOut := cli(t, append([]string{"verify", "nested-submit", "--seeds", "1"}, args...)...)
		if code != exitOK {
			t.Fatalf("verify %q: exit %d, %s", args, code, errOut)
		}
		return out
	}
	if out := verify(); !strings.Contains(out, "\ncosts: the model's built-in costs (no profile at "+def+": schedlab calibrate writes one)\n") {
		t.Errorf("without a profile:\n%s", out)
	}
	if err := os.MkdirAll(filepath.Dir(def), 0o755); err != nil {
		t.Fatal(err)
	}
	// Each format's profile, and what the report says of it: the figures
	// calibrate measures for verify that it has, and those it lacks.
	for _, c := range []struct{ format, fixture, says string }{
		{"format 1", profileFixture, "(schedlab-costs/1: without the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), its wake-up after idle, the waker's cost of a wake-up, a program's first write, the network poller's wake-up, a mutex's spin, a program's first print, a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z on AMD EPYC, 2 CPUs, linux/amd64, go1.26.8; load average 0.52 before, 0.61 after\n"},
		{"format 2", profileFixtureV2, "(with the tracer's costs of a go statement and a hand-off; schedlab-costs/2: without its switch gaps (a park's growing with the work before it), its wake-up after idle, the waker's cost of a wake-up, a program's first write, the network poller's wake-up, a mutex's spin, a program's first print, a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 3", profileFixtureV3, "(with the tracer's costs of a go statement and a hand-off, and its switch gaps (a park's growing with the work before it); schedlab-costs/3: without its wake-up after idle, the waker's cost of a wake-up, a program's first write, the network poller's wake-up, a mutex's spin, a program's first print, a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 5", profileFixtureV5, "(with the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), and its wake-up after idle; schedlab-costs/5: without the waker's cost of a wake-up, a program's first write, the network poller's wake-up, a mutex's spin, a program's first print, a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 6", profileFixtureV6, "(with the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), its wake-up after idle, and the waker's cost of a wake-up; schedlab-costs/6: without a program's first write, the network poller's wake-up, a mutex's spin, a program's first print, a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 7", profileFixtureV7, "(with the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), its wake-up after idle, the waker's cost of a wake-up, and a program's first write; schedlab-costs/7: without the network poller's wake-up, a mutex's spin, a program's first print, a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 8", profileFixtureV8, "(with the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), its wake-up after idle, the waker's cost of a wake-up, a program's first write, and the network poller's wake-up; schedlab-costs/8: without a mutex's spin, a program's first print, a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 9", profileFixtureV9, "(with the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), its wake-up after idle, the waker's cost of a wake-up, a program's first write, the network poller's wake-up, and a mutex's spin; schedlab-costs/9: without a program's first print, a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 10", profileFixtureV10, "(with the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), its wake-up after idle, the waker's cost of a wake-up, a program's first write, the network poller's wake-up, a mutex's spin, and a program's first print; schedlab-costs/10: without a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 11", profileFixtureV11, "(with the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), its wake-up after idle, the waker's cost of a wake-up, a program's first write, the network poller's wake-up, a mutex's spin, a program's first print, and a long sleep's slack; schedlab-costs/11: without its kernel's packing of woken threads and a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 12", profileFixtureV12, "(with the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), its wake-up after idle, the waker's cost of a wake-up, a program's first write, the network poller's wake-up, a mutex's spin, a program's first print, a long sleep's slack, and its kernel's packing of woken threads; schedlab-costs/12: without a long sleep's slack beside work, which schedlab calibrate now measures), measured 2026-05-04T10:20:30Z"},
		{"format 13", profileFixtureV13, "(with the tracer's costs of a go statement and a hand-off, its switch gaps (a park's growing with the work before it), its wake-up after idle, the waker's cost of a wake-up, a program's first write, the network poller's wake-up, a mutex's spin, a program's first print, a long sleep's slack, its kernel's packing of woken threads, and a long sleep's slack beside work), measured 2026-05-04T10:20:30Z"},
	} {
		if err := os.WriteFile(def, []byte(mustRead(t, c.fixture)), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := verify(); !strings.Contains(out, "\ncosts: this machine's profile "+def+" "+c.says) {
			t.Errorf("with this machine's profile of %s:\n%s", c.format, out)
		}
	}
	if err := os.WriteFile(def, []byte(mustRead(t, profileFixture)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := verify("--costs", "builtin"); !strings.Contains(out, "\ncosts: the model's built-in costs (--costs builtin)\n") {
		t.Errorf("with --costs builtin:\n%s", out)
	}
	other := filepath.Join(t.TempDir(), "other.json")
	if err := os.WriteFile(other, []byte(strings.Replace(mustRead(t, profileFixture), `"cpus": 2`, `"cpus": 64`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := verify("--costs", other); !strings.Contains(out, "\ncosts: the profile "+other+" (schedlab-costs/1: without the tracer") || !strings.Contains(out, "note: the cost profile measured another machine:") || !strings.Contains(out, "64 CPUs, this one") {
		t.Errorf("with another machine's profile:\n%s", out)
	}
	// A broken default profile is an error that says how to go on.
	if err := os.WriteFile(def, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := cli(t, "verify", "nested-submit", "--seeds", "1")
	if code != exitUsage || !strings.Contains(errOut, def+":1:2: the profile ends early") || !strings.Contains(errOut, "--costs builtin leaves it out") {
		t.Errorf("a broken default profile: exit %d, %q", code, errOut)
	}
}

// TestCalibrateWritesAProfile measures this machine with a few samples and
// reads the profile back; what it measured depends on the machine.
func TestCalibrateWritesAProfile(t *testing.T) {
	realtest.Require(t)
	path := filepath.Join(t.TempDir(), "costs.json")
	code, out, errOut := cli(t, "calibrate", "-o", path, "--samples", "3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"futex wake-up", "the model's costs: Newproc", "wrote " + path + ": --costs " + path + " uses it"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if _, err := calibrate.Read(path); err != nil {
		t.Error(err)
	}
	if code, _, errOut := cli(t, "run", "tour", "--costs", path, "--format", "none"); code != exitOK {
		t.Errorf("run --costs with the new profile: exit %d, %s", code, errOut)
	}
}
