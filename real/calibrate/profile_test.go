package calibrate

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/realtest"
)

func goodProfile(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/costs.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadsAProfile(t *testing.T) {
	p, err := Read("testdata/costs.json")
	if err != nil {
		t.Fatal(err)
	}
	if p.Machine.CPUModel != "AMD EPYC" || p.Machine.CPUs != 2 || *p.Machine.LoadBefore != 0.52 || p.Figures.FutexWake.P10 != 5700 ||
		p.Figures.CPUWork.Median != 722 || p.Figures.TimerSlack.Source != "procfs" {
		t.Errorf("read %+v", p)
	}
}

// TestBadProfilesAreRefused: a profile is untrusted input. Each mistake
// is refused with the file, the line and column, and the field.
func TestBadProfilesAreRefused(t *testing.T) {
	good := goodProfile(t)
	edit := func(old, new string) string {
		t.Helper()
		if !strings.Contains(good, old) {
			t.Fatalf("the good profile has no %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	for _, c := range []struct {
		name, data, want string
	}{
		{"empty", "", "costs.json:1:1: the profile ends early: not JSON"},
		{"cut short", good[:40], "costs.json:3:7: the profile ends early: not JSON"},
		{"not JSON", "format: yaml\n", "costs.json:1:2: not JSON: invalid character 'o' in literal false"},
		{"NaN", edit(`"median_ns": 6600`, `"median_ns": NaN`), "costs.json:16:20: not JSON: invalid character 'N' looking for beginning of value"},
		{"an array", "[1, 2]", "costs.json:1:2: the profile: want a JSON object, got a JSON array"},
		{"more after the end", good + "{}", "costs.json:92:1: not JSON: invalid character '{' after top-level value"},
		{"another layout", edit(`"schedlab-costs/1"`, `"schedlab-costs/14"`), `costs.json:2:13: format: want "schedlab-costs/13" (or the older "schedlab-costs/12", "schedlab-costs/11", "schedlab-costs/10", "schedlab-costs/9", "schedlab-costs/8", "schedlab-costs/7", "schedlab-costs/6", "schedlab-costs/5", "schedlab-costs/4", "schedlab-costs/3", "schedlab-costs/2" or "schedlab-costs/1"), got "schedlab-costs/14"`},
		{"format 2 without its figures", edit(`"schedlab-costs/1"`, `"schedlab-costs/2"`), `costs.json:13:14: figures.go_create_fresh: missing`},
		{"format 1 with format 2's figures", edit(`"cpu_work": {`, `"traced_handoff": {"samples": 1, "median_ns": 1, "p10_ns": 1, "p90_ns": 1, "min_ns": 1, "max_ns": 1}, "cpu_work": {`), `figures.traced_handoff: a schedlab-costs/1 profile has no such figure`},
		{"an unknown field", edit(`"cpus": 2,`, `"cpus": 2, "cores": 4,`), `costs.json:8:16: unknown field "cores"`},
		{"a field twice", edit(`"cpus": 2,`, `"cpus": 2, "cpus": 4,`), "costs.json:8:22: machine.cpus: given twice"},
		{"a missing figure", edit(`"syscall": {`, `"syscall_x": {`), `unknown field "syscall_x"`},
		{"a missing statistic", edit(`"p10_ns": 5700,`, ``), "costs.json:14:19: figures.futex_wake.p10_ns: missing"},
		{"a missing section", strings.Replace(good, `"format": "schedlab-costs/1",`, `"format": "schedlab-costs/1", "figures": {},`, 1)[:0] + `{"format": "schedlab-costs/1", "measured": "2026-05-04T10:20:30Z", "machine": {"goos": "linux", "goarch": "amd64", "cpu_model": "x", "cpus": 1, "go": "go1.26.0"}}`, "figures: missing"},
		{"a negative cost", edit(`"median_ns": 6600`, `"median_ns": -6600`), "costs.json:16:20: figures.futex_wake.median_ns: want a positive figure up to 1e+09 ns (1s), got -6600"},
		{"a zero cost", edit(`"median_ns": 206`, `"median_ns": 0`), "figures.syscall.median_ns: want a positive figure"},
		{"an hour", edit(`"max_ns": 14784000`, `"max_ns": 3.6e12`), "figures.sleep_slack.max_ns: want a positive figure up to 1e+09 ns (1s), got 3.6e+12"},
		{"out of float range", edit(`"max_ns": 14784000`, `"max_ns": 1e400`), "costs.json:44:22: figures.sleep_slack.max_ns: 1e400 is out of range"},
		{"out of order", edit(`"p10_ns": 5700`, `"p10_ns": 7000`), "figures.futex_wake.median_ns: 6600 is below p10 7000"},
		{"no samples", edit(`"samples": 500,
      "median_ns": 206`, `"samples": 0,
      "median_ns": 206`), "figures.syscall.samples: want 1 to 10000000 samples, got 0"},
		{"a string for a number", edit(`"median_ns": 206`, `"median_ns": "fast"`), "want a number, got a JSON string"},
		{"half a CPU", edit(`"cpus": 2`, `"cpus": 2.5`), "machine.cpus: 2.5 is out of range, or not a whole number"},
		{"no CPUs", edit(`"cpus": 2`, `"cpus": 0`), "costs.json:8:13: machine.cpus: want 1 to 65536 CPUs, got 0"},
		{"a negative load", edit(`"load_before": 0.52`, `"load_before": -1`), "machine.load_before: want a load average from 0"},
		{"escape codes", edit(`"AMD EPYC"`, `"AMD\u001b[2J EPYC"`), "machine.cpu_model: has a character that is not printable"},
		{"a long name", edit(`"AMD EPYC"`, `"`+strings.Repeat("x", 300)+`"`), "machine.cpu_model: longer than 200 characters"},
		{"a strange GOOS", edit(`"goos": "linux"`, `"goos": "Linux;rm"`), "machine.goos: want lower-case letters and digits"},
		{"no time", edit(`"2026-05-04T10:20:30Z"`, `"yesterday"`), `measured: want a time such as 2026-01-02T15:04:05Z, got "yesterday"`},
		{"a guessed slack", edit(`"procfs"`, `"guess"`), `figures.timer_slack.source: want procfs or measured, got "guess"`},
		{"no slack", edit(`"ns": 50000`, `"ns": 0`), "figures.timer_slack.ns: want 1 to 1000000000 ns, got 0"},
		{"not UTF-8", edit(`"AMD EPYC"`, "\"AMD \xff\""), "costs.json:7:23: not UTF-8 text"},
		{"too large", good + strings.Repeat(" ", MaxFileSize), "costs.json:1:1: a cost profile is a few hundred bytes; this one is over 1048576"},
		{"nested deep", edit(`"cpus": 2,`, `"cpus": 2, "x": [[[[[[[[[[1]]]]]]]]]],`), "costs.json:8:"},
	} {
		_, err := Parse("costs.json", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %q", c.name, err, c.want)
		}
	}
}

// Read refuses what is not a regular file, and names the file.
func TestReadRefusesWhatIsNoFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder: %v", err)
	}
	missing := filepath.Join(dir, "none.json")
	if _, err := Read(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: %v", err)
	}
}

// TestCostsFromAProfile: each figure sets the costs doc.go says, and the
// costs no figure measures keep the defaults.
func TestCostsFromAProfile(t *testing.T) {
	p, err := Read("testdata/costs.json")
	if err != nil {
		t.Fatal(err)
	}
	k, err := p.Costs()
	if err != nil {
		t.Fatal(err)
	}
	def := gmp.DefaultCosts()
	ns := time.Nanosecond
	want := gmp.Costs{
		Newproc:     81 * ns,   // go_create's median
		Syscall:     206 * ns,  // syscall's median
		WakeM:       5700 * ns, // futex_wake's 10th percentile
		NetpollWake: 5700 * ns,
		// A profile of format 1 has no netpoll_wake: the noise takes four
		// times NetpollWake, as the defaults do.
		NetpollJitter: 4 * 5700 * ns,
		UsleepSlack:   61200 * ns, // nanosleep_slack's 10th percentile
		// nanosleep_slack's 90th less its 10th; the slack measured holds
		// the thread's wake-up, so UsleepWake is none.
		UsleepJitter: 12800 * ns,
		// handoff's median, 160ns, is 0.4 of the model's default hop
		// (400ns): the three costs of a hop are scaled by 0.4.
		ChanOp:   40 * ns,
		Schedule: 20 * ns,
		Execute:  60 * ns,
		// Not measured: the model's defaults.
		NewM:          def.NewM,
		PreemptSignal: def.PreemptSignal,
		Spin:          def.Spin,
		Print:         def.Print,
		FirstPrint:    def.FirstPrint,
		Write:         def.Write,
	}
	if k != want {
		t.Errorf("costs %+v\nwant  %+v", k, want)
	}
	hop, err := ModelHop(k)
	if err != nil || hop != 160 {
		t.Errorf("the model's hop with the profile's costs takes %vns (%v), want the measured 160ns", hop, err)
	}
}

// A profile of format 2 sets NewG from a go statement that allocates a
// descriptor, and gives verify, whose real runs are traced, the costs of
// a go statement and a hand-off measured with runtime/trace recording;
// every other command's costs stay the untraced ones. A profile of
// format 1 has neither: its costs are as before, for verify too.
func TestTracedCostsFromAProfile(t *testing.T) {
	v1 := readProfile(t, "testdata/costs.json")
	v2 := readProfile(t, "testdata/costs-v2.json")
	k1, err := v1.Costs()
	if err != nil {
		t.Fatal(err)
	}
	t1, err := v1.TracedCosts()
	if err != nil || t1 != k1 || k1.NewG != 0 {
		t.Errorf("format 1: traced costs %+v (%v), want its costs %+v, NewG 0", t1, err, k1)
	}
	k2, err := v2.Costs()
	if err != nil {
		t.Fatal(err)
	}
	want := k1
	want.NewG = 950 * time.Nanosecond // go_create_fresh 1031ns less go_create 81ns
	if k2 != want {
		t.Errorf("format 2's costs %+v\nwant              %+v", k2, want)
	}
	t2, err := v2.TracedCosts()
	if err != nil {
		t.Fatal(err)
	}
	ns := time.Nanosecond
	// traced_handoff's 320ns is 0.8 of the default hop: ChanOp, Schedule
	// and Execute scaled by 0.8; traced_go_create's median is Newproc.
	want.Newproc, want.ChanOp, want.Schedule, want.Execute = 168*ns, 80*ns, 40*ns, 120*ns
	if t2 != want {
		t.Errorf("format 2's traced costs %+v\nwant                     %+v", t2, want)
	}
	if hop, err := ModelHop(t2); err != nil || hop != 320 {
		t.Errorf("the model's hop with the traced costs takes %vns (%v), want the traced 320ns", hop, err)
	}
	wantText(t, v2, "go statement, traced", "NewG 950ns", "verify's costs, its real runs being traced: Newproc 168ns, Schedule 40ns, Execute 120ns, ChanOp 80ns")
}

// Format 3's park, exit and Gosched gaps set verify's scheduler costs
// after a park, an exit and a Gosched to the idle P the trace shows
// between the stop and the next start. The park's gap was timed after
// the probe's work, and grows with it (ParkGrowth): the hand-off, timed
// with no work between hops, keeps its time, Execute giving up what the
// switch after no work takes more than the hop's share. ChanOp stays
// format 2's, and so does every untraced cost.
func TestSwitchGapsFromAProfile(t *testing.T) {
	v2 := readProfile(t, "testdata/costs-v2.json")
	v3 := readProfile(t, "testdata/costs-v3.json")
	if !v3.HasTraced() || !v3.HasGaps() || v2.HasGaps() {
		t.Errorf("formats: v2 has gaps %v, v3 traced %v and gaps %v", v2.HasGaps(), v3.HasTraced(), v3.HasGaps())
	}
	k2, _ := v2.Costs()
	if k3, err := v3.Costs(); err != nil || k3 != k2 {
		t.Errorf("format 3's untraced costs %+v (%v), want format 2's %+v", k3, err, k2)
	}
	want, err := v2.TracedCosts()
	if err != nil {
		t.Fatal(err)
	}
	ns := time.Nanosecond
	want.ScheduleExit, want.ScheduleYield = 124*ns, 148*ns
	// The park's gap is 96ns after parkSwitches' 8192 iterations, 11.346µs
	// at cpu_work's 722 a µs; after no work it is 96 × 122 / (122 +
	// 11·√11.346), 74ns: Schedule's 40ns become 96, and Execute's 120 give
	// up the 34 that the hop's switch gains.
	want.Schedule, want.Execute = 96*ns, 86*ns
	want.ParkGrowth = gmp.ParkGrowth{Zero: 122 * ns, PerRootMicro: 11 * ns, At: 11346 * ns}
	t3, err := v3.TracedCosts()
	if err != nil || t3 != want {
		t.Errorf("format 3's traced costs %+v (%v)\nwant                     %+v", t3, err, want)
	}
	if got := t3.ParkGap(0); got != 74*ns {
		t.Errorf("the switch after a park with no work before it: %v, want 74ns", got)
	}
	if hop, err := ModelHop(t3); err != nil || hop != 320 {
		t.Errorf("the model's hop takes %vns (%v), want the traced 320ns", hop, err)
	}
	wantText(t, v3, "exit to next start, traced", "Schedule 96ns, Execute 86ns, ChanOp 80ns, ScheduleExit 124ns, ScheduleYield 148ns",
		"a park's switch grows with the work before it (ParkGrowth): 74ns after none, 96ns after the probe's 11.3µs, 284ns after 1ms", "ParkGrowth's At (verify)")
}

// Format 4's pipe_write sets the write of a printed line, for every
// command: schedlab real's programs print to the pipe their parent reads,
// and the write wakes its reader. Every other cost stays format 3's, and
// a format 3 profile keeps the default write.
func TestPipeWriteFromAProfile(t *testing.T) {
	v3 := readProfile(t, "testdata/costs-v3.json")
	v4 := readProfile(t, "testdata/costs-v4.json")
	if !v4.HasWrite() || !v4.HasGaps() || !v4.HasTraced() || v3.HasWrite() {
		t.Errorf("formats: v4 has the write %v, the gaps %v, the traced %v; v3 has the write %v", v4.HasWrite(), v4.HasGaps(), v4.HasTraced(), v3.HasWrite())
	}
	sameCostsBut(t, v3, v4, "the write", func(_ string, k3 gmp.Costs, k4 *gmp.Costs) {
		if k3.Write != gmp.DefaultCosts().Write || k4.Write != 7100*time.Nanosecond {
			t.Errorf("Write: format 3 %v, format 4 %v; want the default %v and the median 7.1µs", k3.Write, k4.Write, gmp.DefaultCosts().Write)
		}
		k4.Write = k3.Write
	})
	wantText(t, v4, "write of a line to a pipe", "Write 7.1µs")
}

// sameCostsBut checks a profile of a later format against one of the
// format before, untraced (Profile.Costs) and traced (TracedCosts): set
// is given which costs these are and both sides', checks the fields the
// later format's figures set, and copies them from before into after;
// what it leaves must be the same, for every other cost stays as it was.
func sameCostsBut(t *testing.T, before, after *Profile, what string, set func(costs string, before gmp.Costs, after *gmp.Costs)) {
	t.Helper()
	for _, c := range []struct {
		name  string
		costs func(*Profile) (gmp.Costs, error)
	}{{"Costs", (*Profile).Costs}, {"TracedCosts", (*Profile).TracedCosts}} {
		kb, errb := c.costs(before)
		ka, erra := c.costs(after)
		if errb != nil || erra != nil {
			t.Fatal(errb, erra)
		}
		set(c.name, kb, &ka)
		if ka != kb {
			t.Errorf("%s: %s's costs but %s %+v\nwant %s's %+v", c.name, after.Format, what, ka, before.Format, kb)
		}
	}
}

// A profile of format 3 or later is refused, with the file, line and
// column, when it lacks a figure its format added (format 3's gaps, format
// 4's write, format 6's wake call, and so on to format 10's first print)
// or has one out of order; one of an older format that has such a figure
// is refused too.
func TestBadLaterFiguresAreRefused(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	v2, v3, v4 := read("testdata/costs-v2.json"), read("testdata/costs-v3.json"), read("testdata/costs-v4.json")
	v5, v6, v7, v8 := read("testdata/costs-v5.json"), read("testdata/costs-v6.json"), read("testdata/costs-v7.json"), read("testdata/costs-v8.json")
	v9, v10, v11, v12 := read("testdata/costs-v9.json"), read("testdata/costs-v10.json"), read("testdata/costs-v11.json"), read("testdata/costs-v12.json")
	v13 := read("testdata/costs-v13.json")
	for _, c := range []struct {
		name, data, old, new, want string
	}{
		{"format 4 without its write", v3, `"schedlab-costs/3"`, `"schedlab-costs/4"`, "costs.json:13:14: figures.pipe_write: missing"},
		{"format 3 with a write", v4, `"schedlab-costs/4"`, `"schedlab-costs/3"`, "figures.pipe_write: a schedlab-costs/3 profile has no such figure"},
		{"a write out of order", v4, `"median_ns": 7100`, `"median_ns": 71000`, "figures.pipe_write.p90_ns: 7700 is below median 71000"},
		{"format 3 without its gaps", v2, `"schedlab-costs/2"`, `"schedlab-costs/3"`, "costs.json:13:14: figures.traced_park_gap: missing"},
		{"format 2 with a gap", v3, `"schedlab-costs/3"`, `"schedlab-costs/2"`, "costs.json:114:24: figures.traced_park_gap: a schedlab-costs/2 profile has no such figure"},
		{"a gap out of order", v3, `"median_ns": 124`, `"median_ns": 1240`, "figures.traced_exit_gap.p90_ns: 150 is below median 1240"},
		{"format 6 without its wake call", v5, `"schedlab-costs/5"`, `"schedlab-costs/6"`, "costs.json:13:14: figures.wake_call: missing"},
		{"format 5 with a wake call", v6, `"schedlab-costs/6"`, `"schedlab-costs/5"`, "figures.wake_call: a schedlab-costs/5 profile has no such figure"},
		{"a wake call out of order", v6, `"median_ns": 7450`, `"median_ns": 74500`, "figures.wake_call.p90_ns: 7950 is below median 74500"},
		{"format 7 without its first write", v6, `"schedlab-costs/6"`, `"schedlab-costs/7"`, "costs.json:13:14: figures.first_write: missing"},
		{"format 6 with a first write", v7, `"schedlab-costs/7"`, `"schedlab-costs/6"`, "figures.first_write: a schedlab-costs/6 profile has no such figure"},
		{"a traced first write out of order", v7, `"median_ns": 7350`, `"median_ns": 73500`, "figures.traced_first_write.p90_ns: 54100 is below median 73500"},
		{"format 8 without its netpoll wake-up", v7, `"schedlab-costs/7"`, `"schedlab-costs/8"`, "costs.json:13:14: figures.netpoll_wake: missing"},
		{"format 7 with a netpoll wake-up", v8, `"schedlab-costs/8"`, `"schedlab-costs/7"`, "figures.netpoll_wake: a schedlab-costs/7 profile has no such figure"},
		{"a netpoll wake-up out of order", v8, `"median_ns": 28400`, `"median_ns": 284000`, "figures.netpoll_wake.p90_ns: 33900 is below median 284000"},
		{"format 9 without its mutex spin", v8, `"schedlab-costs/8"`, `"schedlab-costs/9"`, "costs.json:13:14: figures.mutex_spin: missing"},
		{"format 8 with a mutex spin", v9, `"schedlab-costs/9"`, `"schedlab-costs/8"`, "figures.mutex_spin: a schedlab-costs/8 profile has no such figure"},
		{"a mutex spin out of order", v9, `"median_ns": 137,`, `"median_ns": 1370,`, "figures.mutex_spin.p90_ns: 196 is below median 1370"},
		{"format 10 without its first print", v9, `"schedlab-costs/9"`, `"schedlab-costs/10"`, "costs.json:13:14: figures.first_print: missing"},
		{"format 9 with a first print", v10, `"schedlab-costs/10"`, `"schedlab-costs/9"`, "figures.first_print: a schedlab-costs/9 profile has no such figure"},
		{"a traced first print out of order", v10, `"median_ns": 11000,`, `"median_ns": 110000,`, "figures.traced_first_print.p90_ns: 15300 is below median 110000"},
		{"format 11 without its long sleep", v10, `"schedlab-costs/10"`, `"schedlab-costs/11"`, "costs.json:13:14: figures.nanosleep_slack_long: missing"},
		{"format 10 with a long sleep", v11, `"schedlab-costs/11"`, `"schedlab-costs/10"`, "figures.nanosleep_slack_long: a schedlab-costs/10 profile has no such figure"},
		{"a long sleep out of order", v11, `"median_ns": 126000,`, `"median_ns": 1260000,`, "figures.nanosleep_slack_long.p90_ns: 140600 is below median 1.26e+06"},
		{"format 12 without its wake pack", v11, `"schedlab-costs/11"`, `"schedlab-costs/12"`, "costs.json:13:14: figures.wake_pack: missing"},
		{"format 11 with a wake pack", v12, `"schedlab-costs/12"`, `"schedlab-costs/11"`, "figures.wake_pack: a schedlab-costs/11 profile has no such figure"},
		{"format 13 without its busy sleep", v12, `"schedlab-costs/12"`, `"schedlab-costs/13"`, "costs.json:13:14: figures.nanosleep_slack_long_busy: missing"},
		{"format 12 with a busy sleep", v13, `"schedlab-costs/13"`, `"schedlab-costs/12"`, "figures.nanosleep_slack_long_busy: a schedlab-costs/12 profile has no such figure"},
		{"a busy sleep out of order", v13, `"p10_ns": 76500,`, `"p10_ns": 765000,`, "figures.nanosleep_slack_long_busy.median_ns: 81000 is below p10 765000"},
	} {
		if !strings.Contains(c.data, c.old) {
			t.Fatalf("%s: no %q", c.name, c.old)
		}
		_, err := Parse("costs.json", []byte(strings.Replace(c.data, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %q", c.name, err, c.want)
		}
	}
}

// Format 5's wake_after_idle sets, for every command, how late a thread
// woken after idle starts: at each idle time measured, the share of its
// rounds that were late, late by their 10th to 90th percentiles. Every
// other cost stays format 4's, and a format 4 profile sets none.
func TestWakeAfterIdleFromAProfile(t *testing.T) {
	v4 := readProfile(t, "testdata/costs-v4.json")
	v5 := readProfile(t, "testdata/costs-v5.json")
	if !v5.HasIdleWake() || !v5.HasWrite() || !v5.HasGaps() || !v5.HasTraced() || v4.HasIdleWake() {
		t.Errorf("formats: v5 has the idle wake %v, the write %v, the gaps %v, the traced %v; v4 has the idle wake %v", v5.HasIdleWake(), v5.HasWrite(), v5.HasGaps(), v5.HasTraced(), v4.HasIdleWake())
	}
	us := time.Microsecond
	want := gmp.IdleWake{
		{After: 2 * time.Millisecond, Share: 0.01, Min: 1567 * us, Max: 1567 * us},
		{After: 3 * time.Millisecond, Share: 0.26, Min: 1124 * us, Max: 2962 * us},
		{After: 5 * time.Millisecond, Share: 0.36, Min: 967 * us, Max: 3827 * us},
		{After: 8 * time.Millisecond, Share: 0.77, Min: 839 * us, Max: 3536 * us},
	}
	sameCostsBut(t, v4, v5, "the idle wake", func(_ string, k4 gmp.Costs, k5 *gmp.Costs) {
		if k4.IdleWake != (gmp.IdleWake{}) {
			t.Errorf("format 4 sets IdleWake %+v", k4.IdleWake)
		}
		got := k5.IdleWake
		for i := range got {
			got[i].Min, got[i].Max = got[i].Min.Round(us), got[i].Max.Round(us)
		}
		if got != want {
			t.Errorf("IdleWake %+v\nwant      %+v", got, want)
		}
		k5.IdleWake = k4.IdleWake
	})
	wantText(t, v5, "wake after idle (rounds over 500.0µs late): 2.00ms idle, 1 of 100 (1.57ms–1.57ms, median 1.57ms); 3.00ms idle, 26 of 100 (1.12ms–2.96ms, median 1.88ms)",
		"8.00ms idle, 77 of 100 (838.8µs–3.54ms, median 2.15ms): sets IdleWake",
		"IdleWake 2.00ms 1% (1.57ms–1.57ms) 3.00ms 26% (1.12ms–2.96ms) 5.00ms 36% (966.8µs–3.83ms) 8.00ms 77% (838.8µs–3.54ms)")
}

// Format 6's wake_call sets, for every command, what a wake-up of a parked
// thread costs its waker: the median. Every other cost stays format 5's,
// and a format 5 profile sets none.
func TestWakeCallFromAProfile(t *testing.T) {
	v5 := readProfile(t, "testdata/costs-v5.json")
	v6 := readProfile(t, "testdata/costs-v6.json")
	if !v6.HasWakeCall() || !v6.HasIdleWake() || !v6.HasWrite() || !v6.HasGaps() || !v6.HasTraced() || v5.HasWakeCall() || !v5.HasIdleWake() {
		t.Errorf("formats: v6 has the wake call %v, the idle wake %v, the write %v, the gaps %v, the traced %v; v5 has the wake call %v, the idle wake %v",
			v6.HasWakeCall(), v6.HasIdleWake(), v6.HasWrite(), v6.HasGaps(), v6.HasTraced(), v5.HasWakeCall(), v5.HasIdleWake())
	}
	sameCostsBut(t, v5, v6, "the wake call", func(_ string, k5 gmp.Costs, k6 *gmp.Costs) {
		if k5.WakeCall != 0 || k6.WakeCall != 7450*time.Nanosecond {
			t.Errorf("WakeCall: format 5 %v, format 6 %v; want none and the median 7.45µs", k5.WakeCall, k6.WakeCall)
		}
		k6.WakeCall = k5.WakeCall
	})
	wantText(t, v6, "wake-up, the waker's cost      7.5µs   7.2µs–8.0µs     6.9µs–21.0µs    500      WakeCall", "WakeCall 7.45µs")
}

// Format 7's first_write and traced_first_write set what a program's
// first write costs more than its later ones: the untraced median for
// every command, the traced one for verify's. Every other cost stays
// format 6's, and a format 6 profile sets none.
func TestFirstWriteFromAProfile(t *testing.T) {
	v6 := readProfile(t, "testdata/costs-v6.json")
	v7 := readProfile(t, "testdata/costs-v7.json")
	if !v7.HasFirstWrite() || !v7.HasWakeCall() || !v7.HasIdleWake() || !v7.HasWrite() || !v7.HasGaps() || !v7.HasTraced() || v6.HasFirstWrite() || !v6.HasWakeCall() {
		t.Errorf("formats: v7 has the first write %v, the wake call %v, the idle wake %v, the write %v, the gaps %v, the traced %v; v6 has the first write %v, the wake call %v",
			v7.HasFirstWrite(), v7.HasWakeCall(), v7.HasIdleWake(), v7.HasWrite(), v7.HasGaps(), v7.HasTraced(), v6.HasFirstWrite(), v6.HasWakeCall())
	}
	sameCostsBut(t, v6, v7, "the first write", func(costs string, k6 gmp.Costs, k7 *gmp.Costs) {
		want := map[string]time.Duration{"Costs": 2850 * time.Nanosecond, "TracedCosts": 7350 * time.Nanosecond}[costs]
		if k6.FirstWrite != 0 || k7.FirstWrite != want {
			t.Errorf("%s' FirstWrite: format 6 %v, format 7 %v; want none and %v", costs, k6.FirstWrite, k7.FirstWrite, want)
		}
		k7.FirstWrite = k6.FirstWrite
	})
	wantText(t, v7, "first write, the extra         2.9µs   310ns–16.4µs    1ns–31.2µs      20       FirstWrite\n",
		"first write traced, the extra  7.3µs   2.4µs–54.1µs    880ns–61.5µs    20       FirstWrite (verify)\n",
		"Write 7.1µs, WakeCall 7.45µs, FirstWrite 2.85µs,", "ScheduleYield 148ns, FirstWrite 7.35µs; a park's switch grows")
}

// Format 8's netpoll_wake sets the network poller's wake-up for every
// command: NetpollWake its 10th percentile, NetpollJitter its 90th less
// its 10th, where a profile of format 7 takes futex_wake's 10th percentile
// and four times that. Every other cost stays format 7's.
func TestNetpollWakeFromAProfile(t *testing.T) {
	v7 := readProfile(t, "testdata/costs-v7.json")
	v8 := readProfile(t, "testdata/costs-v8.json")
	if !v8.HasNetpollWake() || !v8.HasFirstWrite() || !v8.HasWakeCall() || !v8.HasIdleWake() || v7.HasNetpollWake() || !v7.HasFirstWrite() {
		t.Errorf("formats: v8 has the netpoll wake %v, the first write %v, the wake call %v, the idle wake %v; v7 has the netpoll wake %v, the first write %v",
			v8.HasNetpollWake(), v8.HasFirstWrite(), v8.HasWakeCall(), v8.HasIdleWake(), v7.HasNetpollWake(), v7.HasFirstWrite())
	}
	ns := time.Nanosecond
	sameCostsBut(t, v7, v8, "the netpoll wake-up", func(_ string, k7 gmp.Costs, k8 *gmp.Costs) {
		if k7.NetpollWake != 5700*ns || k7.NetpollJitter != 4*5700*ns {
			t.Errorf("format 7: NetpollWake %v, NetpollJitter %v; want futex_wake's 10th percentile, 5.7µs, and four times it", k7.NetpollWake, k7.NetpollJitter)
		}
		if k8.NetpollWake != 26100*ns || k8.NetpollJitter != (33900-26100)*ns {
			t.Errorf("format 8: NetpollWake %v, NetpollJitter %v; want netpoll_wake's 10th percentile, 26.1µs, and its 90th less it, 7.8µs", k8.NetpollWake, k8.NetpollJitter)
		}
		k8.NetpollWake, k8.NetpollJitter = k7.NetpollWake, k7.NetpollJitter
	})
	wantText(t, v8, "netpoll wake-up                28.4µs  26.1µs–33.9µs   20.2µs–75.0µs   200      NetpollWake (p10), NetpollJitter (p90-p10)\n",
		"futex wake-up                  6.6µs   5.7µs–18.6µs    4.8µs–1.50ms    500      WakeM (p10)\n", "NetpollWake 26.1µs, NetpollJitter 7.8µs,")
	wantText(t, v7, "futex wake-up                  6.6µs   5.7µs–18.6µs    4.8µs–1.50ms    500      WakeM, NetpollWake (p10)\n")
}

// Format 9's mutex_spin sets, for every command, a round of spinning on a
// held sync.Mutex: Spin its median, where a profile of format 8 keeps the
// default, measured on another CPU, and says it did not measure it. Every
// other cost stays format 8's.
func TestMutexSpinFromAProfile(t *testing.T) {
	v8 := readProfile(t, "testdata/costs-v8.json")
	v9 := readProfile(t, "testdata/costs-v9.json")
	if !v9.HasMutexSpin() || !v9.HasNetpollWake() || !v9.HasFirstWrite() || v8.HasMutexSpin() || !v8.HasNetpollWake() {
		t.Errorf("formats: v9 has the mutex spin %v, the netpoll wake %v, the first write %v; v8 has the mutex spin %v, the netpoll wake %v",
			v9.HasMutexSpin(), v9.HasNetpollWake(), v9.HasFirstWrite(), v8.HasMutexSpin(), v8.HasNetpollWake())
	}
	sameCostsBut(t, v8, v9, "the spin", func(_ string, k8 gmp.Costs, k9 *gmp.Costs) {
		if def := gmp.DefaultCosts().Spin; k8.Spin != def {
			t.Errorf("format 8: Spin %v, want the default %v", k8.Spin, def)
		}
		if k9.Spin != 137*time.Nanosecond {
			t.Errorf("format 9: Spin %v, want mutex_spin's median, 137ns", k9.Spin)
		}
		k9.Spin = k8.Spin
	})
	wantText(t, v9, "mutex spin, a round            137ns   137ns–196ns     137ns–717ns     500      Spin\n",
		"FirstWrite 2.85µs, IdleWake", ", Spin 137ns; not measured, the defaults: NewM 20µs, PreemptSignal 2µs, FirstPrint 5µs\n")
	wantText(t, v8, "; not measured, the defaults: NewM 20µs, PreemptSignal 2µs, Spin 700ns, FirstPrint 5µs\n")
}

// Format 10's first_print and traced_first_print set what a program's
// first print takes more before its write: the untraced median for every
// command, the traced one for verify's, where a profile of format 9
// keeps the default and says it did not measure it. Every other cost
// stays format 9's.
func TestFirstPrintFromAProfile(t *testing.T) {
	v9 := readProfile(t, "testdata/costs-v9.json")
	v10 := readProfile(t, "testdata/costs-v10.json")
	if !v10.HasFirstPrint() || !v10.HasMutexSpin() || !v10.HasFirstWrite() || v9.HasFirstPrint() || !v9.HasMutexSpin() {
		t.Errorf("formats: v10 has the first print %v, the mutex spin %v, the first write %v; v9 has the first print %v, the mutex spin %v",
			v10.HasFirstPrint(), v10.HasMutexSpin(), v10.HasFirstWrite(), v9.HasFirstPrint(), v9.HasMutexSpin())
	}
	sameCostsBut(t, v9, v10, "the first print", func(costs string, k9 gmp.Costs, k10 *gmp.Costs) {
		if def := gmp.DefaultCosts().FirstPrint; k9.FirstPrint != def {
			t.Errorf("%s, format 9: FirstPrint %v, want the default %v", costs, k9.FirstPrint, def)
		}
		want := map[string]time.Duration{"Costs": 8100 * time.Nanosecond, "TracedCosts": 11000 * time.Nanosecond}[costs]
		if k10.FirstPrint != want {
			t.Errorf("%s, format 10: FirstPrint %v, want %v", costs, k10.FirstPrint, want)
		}
		k10.FirstPrint = k9.FirstPrint
	})
	wantText(t, v10, "first print, the extra         8.1µs   4.3µs–14.2µs    4.1µs–16.0µs    20       FirstPrint\n",
		"first print traced, the extra  11.0µs  5.0µs–15.3µs    3.2µs–28.0µs    20       FirstPrint (verify)\n",
		", Spin 137ns, FirstPrint 8.1µs; not measured, the defaults: NewM 20µs, PreemptSignal 2µs\n",
		"FirstWrite 7.35µs, FirstPrint 11µs; a park's switch grows")
	wantText(t, v9, "; not measured, the defaults: NewM 20µs, PreemptSignal 2µs, FirstPrint 5µs\n")
}

// Format 11's nanosleep_slack_long sets, for every command, a long
// sleep's slack: its 10th percentile, as the short sleep's. A profile of
// format 10 sets none, so that every sleep has the short one's, and its
// report lists nothing for it. Every other cost stays format 10's.
func TestLongSleepSlackFromAProfile(t *testing.T) {
	v10 := readProfile(t, "testdata/costs-v10.json")
	v11 := readProfile(t, "testdata/costs-v11.json")
	if !v11.HasLongSleep() || !v11.HasFirstPrint() || !v11.HasMutexSpin() || v10.HasLongSleep() || !v10.HasFirstPrint() {
		t.Errorf("formats: v11 has the long sleep %v, the first print %v, the mutex spin %v; v10 has the long sleep %v, the first print %v",
			v11.HasLongSleep(), v11.HasFirstPrint(), v11.HasMutexSpin(), v10.HasLongSleep(), v10.HasFirstPrint())
	}
	sameCostsBut(t, v10, v11, "the long sleep's slack", func(costs string, k10 gmp.Costs, k11 *gmp.Costs) {
		if k10.UsleepSlackLong != 0 {
			t.Errorf("%s, format 10: UsleepSlackLong %v, want none", costs, k10.UsleepSlackLong)
		}
		if k11.UsleepSlackLong != 115400*time.Nanosecond {
			t.Errorf("%s, format 11: UsleepSlackLong %v, want nanosleep_slack_long's p10, 115.4µs", costs, k11.UsleepSlackLong)
		}
		k11.UsleepSlackLong = k10.UsleepSlackLong
	})
	wantText(t, v11, "nanosleep(10ms) slack          126.0µs  115.4µs–140.6µs  108.0µs–322.0µs  100      UsleepSlackLong (p10)\n",
		", FirstPrint 8.1µs, UsleepSlackLong 115.4µs; not measured, the defaults: NewM 20µs, PreemptSignal 2µs\n")
	if b := profileText(t, v10); strings.Contains(b, "UsleepSlackLong") || strings.Contains(b, "nanosleep(10ms)") {
		t.Errorf("a format 10 profile's report speaks of the long sleep:\n%s", b)
	}
}

// Format 13's nanosleep_slack_long_busy sets, for every command, a long
// sleep's slack beside work: its 10th percentile, as the idle one's. A
// profile of format 12 sets none, so that a sleep beside work has the
// idle one's, and its report lists nothing for it. Every other cost
// stays format 12's.
func TestBusySleepSlackFromAProfile(t *testing.T) {
	v12 := readProfile(t, "testdata/costs-v12.json")
	v13 := readProfile(t, "testdata/costs-v13.json")
	if !v13.HasBusySleep() || !v13.HasWakePack() || !v13.HasLongSleep() || v12.HasBusySleep() || !v12.HasWakePack() {
		t.Errorf("formats: v13 has the busy sleep %v, the wake pack %v, the long sleep %v; v12 has the busy sleep %v, the wake pack %v",
			v13.HasBusySleep(), v13.HasWakePack(), v13.HasLongSleep(), v12.HasBusySleep(), v12.HasWakePack())
	}
	sameCostsBut(t, v12, v13, "the busy sleep's slack", func(costs string, k12 gmp.Costs, k13 *gmp.Costs) {
		if k12.UsleepSlackLongBusy != 0 {
			t.Errorf("%s, format 12: UsleepSlackLongBusy %v, want none", costs, k12.UsleepSlackLongBusy)
		}
		if k13.UsleepSlackLongBusy != 76500*time.Nanosecond {
			t.Errorf("%s, format 13: UsleepSlackLongBusy %v, want nanosleep_slack_long_busy's p10, 76.5µs", costs, k13.UsleepSlackLongBusy)
		}
		k13.UsleepSlackLongBusy = k12.UsleepSlackLongBusy
	})
	wantText(t, v13, "nanosleep(10ms) slack beside work  81.0µs   76.5µs–97.0µs    66.0µs–261.0µs   100      UsleepSlackLongBusy (p10)\n",
		", UsleepSlackLongBusy 76.5µs; not measured")
	if b := profileText(t, v12); strings.Contains(b, "UsleepSlackLongBusy") || strings.Contains(b, "beside work") {
		t.Errorf("a format 12 profile's report speaks of the busy sleep:\n%s", b)
	}
}

// A format 5 profile's wake_after_idle is refused, with the file, line and
// column of the field at fault, when it is missing, its points are out of
// order or more than the model holds, a count is out of range, or the
// late rounds' statistics are missing, out of order, or not 0 when no
// round was late; a profile of an older format that has it is refused too.
func TestBadWakeAfterIdleIsRefused(t *testing.T) {
	b, err := os.ReadFile("testdata/costs-v5.json")
	if err != nil {
		t.Fatal(err)
	}
	v5 := string(b)
	b, err = os.ReadFile("testdata/costs-v4.json")
	if err != nil {
		t.Fatal(err)
	}
	v4 := string(b)
	// point is the text of the first point, so that an edit hits it.
	const point = `"idle_ns": 2000000,
          "rounds": 100,
          "late": 1,
          "late_min_ns": 1566527,`
	for _, c := range []struct {
		name, data, old, new, want string
	}{
		{"format 5 without it", v4, `"schedlab-costs/4"`, `"schedlab-costs/5"`, "costs.json:13:14: figures.wake_after_idle: missing"},
		{"format 4 with it", v5, `"schedlab-costs/5"`, `"schedlab-costs/4"`, "figures.wake_after_idle: a schedlab-costs/4 profile has no such figure (schedlab-costs/13 has)"},
		{"idle times out of order", v5, `"idle_ns": 3000000`, `"idle_ns": 2000000`, "costs.json:160:22: figures.wake_after_idle.points[1].idle_ns: 2e+06 is not after the point before's 2e+06"},
		{"more late than rounds", v5, point, strings.Replace(point, `"late": 1,`, `"late": 101,`, 1), "costs.json:152:19: figures.wake_after_idle.points[0].late: want 0 to the 100 rounds, got 101"},
		{"no rounds", v5, point, strings.Replace(point, `"rounds": 100,`, `"rounds": 0,`, 1), "figures.wake_after_idle.points[0].rounds: want 1 to 10000000 rounds, got 0"},
		{"a statistic when none was late", v5, point, strings.Replace(point, `"late": 1,`, `"late": 0,`, 1), "figures.wake_after_idle.points[0].late_min_ns: no round was late, so want 0, got 1.566527e+06"},
		{"statistics out of order", v5, `"late_median_ns": 1880000`, `"late_median_ns": 3880000`, "figures.wake_after_idle.points[1].late_p90_ns: 2.962231e+06 is below median 3.88e+06"},
		{"a statistic missing", v5, `"late_p90_ns": 2962231,`, ``, "figures.wake_after_idle.points[1].late_p90_ns: missing"},
		{"no late threshold", v5, `"late_after_ns": 500000`, `"late_after_ns": 0`, "figures.wake_after_idle.late_after_ns: want 1 to 1000000000 ns, got 0"},
		{"no points", v5, `"points": [`, `"points": [], "x": [`, `unknown field "x"`},
	} {
		if !strings.Contains(c.data, c.old) {
			t.Fatalf("%s: no %q", c.name, c.old)
		}
		_, err := Parse("costs.json", []byte(strings.Replace(c.data, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %q", c.name, err, c.want)
		}
	}
	// Five points are more than the model holds.
	p, err := Parse("costs.json", []byte(v5))
	if err != nil {
		t.Fatal(err)
	}
	w := p.Figures.WakeAfterIdle
	w.Points = append(w.Points, IdleWakeSample{Idle: 9e6, Rounds: 10})
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "figures.wake_after_idle.points: want 1 to 4 points, got 5") {
		t.Errorf("five points: got %v", err)
	}
	w.Points = nil
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "want 1 to 4 points, got 0") {
		t.Errorf("no points: got %v", err)
	}
}

// A copy of the program started to time the rounds refuses a request it
// cannot carry out, and a parent refuses times it cannot read.
func TestMeasuringChildAndItsOutput(t *testing.T) {
	var out, errs strings.Builder
	for _, v := range []string{"", "x,3", "1000,0", "1000,101", "-1,3", "2000000000,3", "1000"} {
		out.Reset()
		errs.Reset()
		if code := measuringChild(v, &out, &errs); code != 2 || out.Len() != 0 || !strings.Contains(errs.String(), "want IDLE_NS,ROUNDS") {
			t.Errorf("%q: exit %d, output %q, errors %q", v, code, out.String(), errs.String())
		}
	}
	for _, c := range []struct {
		out  string
		want string
	}{
		{"1\n2\n", "gave 2 times, want 3"},
		{"1\nx\n3\n", `gave "x", not a time`},
		{"1\n-2\n3\n", `gave "-2", not a time`},
		{"1\nNaN\n3\n", `gave "NaN", not a time`},
	} {
		if _, err := parseStarts([]byte(c.out), 3); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.out, err, c.want)
		}
	}
	if got, err := parseStarts([]byte("100\n900000\n5\n"), 3); err != nil || len(got) != 3 || got[1] != 900000 {
		t.Errorf("good times read as %v, %v", got, err)
	}
}

// The rounds summarise as the late ones' share and spread.
func TestIdleWakeSample(t *testing.T) {
	ms := float64(time.Millisecond)
	s := idleWakeSample(3*time.Millisecond, []float64{0.1 * ms, 0.2 * ms, 2 * ms, 0.09 * ms, 3 * ms, 1 * ms, 0.5 * ms})
	if s.Idle != 3*ms || s.Rounds != 7 || s.Late != 3 || s.LateMin != ms || s.LateMedian != 2*ms || s.LateMax != 3*ms {
		t.Errorf("%+v", s)
	}
	if none := idleWakeSample(time.Millisecond, []float64{0.1 * ms}); none.Late != 0 || none.LateMin != 0 || none.LateMax != 0 {
		t.Errorf("no late round: %+v", none)
	}
}

func TestModelHopFollowsTheCosts(t *testing.T) {
	k := gmp.DefaultCosts()
	one, err := ModelHop(k)
	if err != nil {
		t.Fatal(err)
	}
	k.ChanOp, k.Schedule, k.Execute = 2*k.ChanOp, 2*k.Schedule, 2*k.Execute
	two, err := ModelHop(k)
	if err != nil {
		t.Fatal(err)
	}
	if one <= 0 || two != 2*one {
		t.Errorf("a hop takes %vns, and %vns with its costs doubled", one, two)
	}
}

func TestWriteThenRead(t *testing.T) {
	p, err := Read("testdata/costs.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "new", "costs.json")
	if err := p.Write(path); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, back) {
		t.Errorf("wrote %+v\nread  %+v", p, back)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want the profile alone", len(entries))
	}
	var bad Profile
	if err := bad.Write(filepath.Join(t.TempDir(), "bad.json")); err == nil {
		t.Error("an empty profile was written")
	}
}

func TestWriteText(t *testing.T) {
	p, err := Read("testdata/costs.json")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"measured 2026-05-04T10:20:30Z on AMD EPYC, 2 CPUs, linux/amd64, go1.26.8; load average 0.52 before, 0.61 after\n",
		"futex wake-up", "6.6µs", "WakeM, NetpollWake (p10)", "timer slack", "50.0µs", "(procfs)", "cpu work (iterations/µs)",
		"the model's costs: Newproc 81ns, Schedule 20ns, Execute 60ns, ChanOp 40ns, Syscall 206ns, WakeM 5.7µs, NetpollWake 5.7µs, NetpollJitter 22.8µs, UsleepSlack 61.2µs, UsleepJitter 12.8µs",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "busy") {
		t.Errorf("a load of 0.52 on 2 CPUs is called busy:\n%s", b.String())
	}
}

// TestMeasureFillsEveryField measures this machine with a few samples of
// each figure: what the figures are depends on the machine, so the test
// holds only that each is there, positive and in order (Validate), and
// that the profile reads back.
func TestMeasureFillsEveryField(t *testing.T) {
	realtest.Require(t)
	p, err := Measure(context.Background(), Options{Samples: 3})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "costs.json")
	if err := p.Write(path); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.HasTraced() {
		t.Errorf("measured a profile of format %s", back.Format)
	}
	if !back.HasGaps() || !back.HasWrite() || !back.HasIdleWake() || !back.HasWakeCall() {
		t.Errorf("measured a profile without the switch gaps, the pipe's write, the wake-up after idle or the waker's cost, of format %s", back.Format)
	}
	if w := back.Figures.WakeAfterIdle; w == nil || len(w.Points) != gmp.MaxIdleWakePoints || w.Points[0].Rounds != 3 {
		t.Errorf("wake_after_idle: %+v", w)
	}
	if w := back.Figures.WakePack; !back.HasWakePack() || w == nil || w.Rounds != 3 || len(w.Rows) != gmp.WakePackUtils && len(w.Rows) != 0 {
		t.Errorf("wake_pack: %+v", w)
	}
	for _, r := range back.rows() {
		if f := r.get(&back.Figures); f.Samples != 3 || f.Min <= 0 {
			t.Errorf("%s: %+v", r.name, f)
		}
	}
	if _, err := back.Costs(); err != nil {
		t.Error(err)
	}
}

func TestMeasureStopsWhenAsked(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Measure(ctx, Options{Samples: 1}); err != context.Canceled {
		t.Errorf("a cancelled measurement returned %v", err)
	}
}

// FuzzParse: whatever a profile holds, Parse returns a profile or an
// error, never a panic, and a profile it accepts gives costs the model
// accepts.
func FuzzParse(f *testing.F) {
	good, err := os.ReadFile("testdata/costs.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	for _, name := range []string{"testdata/costs-v2.json", "testdata/costs-v3.json", "testdata/costs-v4.json", "testdata/costs-v5.json", "testdata/costs-v6.json", "testdata/costs-v7.json", "testdata/costs-v8.json", "testdata/costs-v9.json", "testdata/costs-v10.json", "testdata/costs-v11.json", "testdata/costs-v12.json", "testdata/costs-v13.json"} {
		if later, err := os.ReadFile(name); err == nil {
			f.Add(later)
		}
	}
	f.Add([]byte(`{"format": "schedlab-costs/1"}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json:") {
				t.Errorf("an error without the file: %v", err)
			}
			return
		}
		for _, costs := range []func() (gmp.Costs, error){p.Costs, p.TracedCosts} {
			k, err := costs()
			if err != nil {
				t.Fatalf("an accepted profile gives no costs: %v", err)
			}
			if err := (&gmp.Config{Procs: 1, Costs: k}).Validate(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// readProfile reads a test profile, which must be good.
func readProfile(t *testing.T, name string) *Profile {
	t.Helper()
	p, err := Read(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// wantText checks that p's text for a person has each of lines.
func wantText(t *testing.T, p *Profile, lines ...string) {
	t.Helper()
	var b strings.Builder
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range lines {
		if !strings.Contains(b.String(), line) {
			t.Errorf("the text lacks %q:\n%s", line, b.String())
		}
	}
}

// profileText is p's report for a person.
func profileText(t *testing.T, p *Profile) string {
	t.Helper()
	var b strings.Builder
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// DefaultTracedCosts reads the profile at DefaultPath and gives its
// traced costs; without one there, it says the file is missing.
func TestDefaultTracedCostsReadsThisMachinesProfile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	path, err := DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DefaultTracedCosts(); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no profile: %v, want a missing file", err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "costs-v13.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.TracedCosts()
	if err != nil {
		t.Fatal(err)
	}
	got, err := DefaultTracedCosts()
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultTracedCosts = %+v, %v\nwant the profile's traced costs %+v", got, err, want)
	}
	if reflect.DeepEqual(want, gmp.Costs{}) {
		t.Error("the test profile gives no costs: the comparison shows nothing")
	}
}
