package main

import (
	"strings"
	"testing"
)

// A hand-made timehist: on CPU 0, thread 11 runs 4ms, is preempted by 12,
// which sleeps 50µs (a usleep back-off) and takes the CPU back at once,
// preempting 11 again; sysmon (13) runs briefly inside 12's turn; on CPU
// 1, 14 wakes after 10ms asleep and waits 3.6ms behind 15, which was idle
// before. Awakened lines, the header and another program's lines are
// read past.
const trace = `           time    cpu  task name                       wait time  sch delay   run time  state
                        [tid/pid]                          (msec)     (msec)     (msec)
--------------- ------  ------------------------------  ---------  ---------  ---------  -----
     100.004000 [0000]  prog[11/10]                         0.000      0.000      4.000      R
     100.004100 [0000]  prog[12/10]                         4.000      0.000      0.100      S
     100.004150 [0000]  prog[11/10]                         0.100      0.000      0.050      R
     100.004160 [0000]  prog[11/10]                                                  awakened: prog[12/10]
     100.006000 [0000]  prog[12/10]                         0.050      0.005      1.850      R
     100.006010 [0000]  prog[13/10]                        10.000      0.002      0.010      S
     100.008000 [0000]  prog[12/10]                         0.010      0.000      1.990      R
     100.001000 [0001]  <idle>                              0.000      0.000      1.000      I
     100.005000 [0001]  prog[15/10]                         0.000      0.000      4.000      R
     100.005100 [0001]  other[99]                           0.000      0.000      0.100      S
     100.009000 [0001]  prog[14/10]                         10.000     3.600      0.400      S
`

func TestReadsWakeUpsAndTurns(t *testing.T) {
	// A thread's first line does not say how it got its CPU, so no
	// wake-up is counted for it: give 13 and 14 an earlier sleep.
	in := "     099.000000 [0001]  prog[14/10]                         0.000      0.000      0.100      S\n" +
		"     099.000010 [0001]  prog[13/10]                         0.000      0.000      0.010      S\n" + trace
	got, err := read(strings.NewReader(in), "prog")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"short|at once|a thread of the program that left it R": 1, // 12 after its 50µs sleep
		"long|at once|a thread of the program that left it R":  1, // sysmon, 13, inside 12's turn
		"long|1ms or more|another program":                     1, // 14 behind 15
	}
	if len(got.wakes) != len(want) {
		t.Errorf("wake-ups %v, want %v", got.wakes, want)
	}
	for k, n := range want {
		if got.wakes[k] != n {
			t.Errorf("wake-ups %q: %d, want %d (all: %v)", k, got.wakes[k], n, got.wakes)
		}
	}
	// CPU 0: 11's 4ms turn ends when 12 runs; 12's turn (1.85ms, sysmon's
	// 10µs inside, then 1.99ms more) is open at the end and not counted.
	if len(got.turns) != 1 || got.turns[0] < 3.99 || got.turns[0] > 4.01 {
		t.Errorf("turns %v, want one of 4ms", got.turns)
	}
	var b strings.Builder
	got.write(&b)
	for _, line := range []string{
		"short sleeps: 1",
		"long sleeps: 2",
		"  ran 1ms or more, after another program: 1",
		"busy threads' turns on a CPU: 1; under 3.5ms 0, 3.5–4.5ms 1,",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("the summary has no %q:\n%s", line, b.String())
		}
	}
}

func TestOnlyTheProgramsThreadsCount(t *testing.T) {
	got, err := read(strings.NewReader(trace), "other")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.wakes) != 0 || len(got.turns) != 0 {
		t.Errorf("another command's threads counted: %v %v", got.wakes, got.turns)
	}
}

// The long sleeps are compared by the run before them, leaving out each
// process's sysmon, the thread that sleeps long most often: here 13 in
// process 10 and 21 in process 20, two traces read one after the other.
func TestParksByTheRunBefore(t *testing.T) {
	tl := tally{parks: map[string][]park{
		"prog[13/10]": {{0.01, false}, {0.01, false}, {0.01, true}},
		"prog[14/10]": {{2.0, true}, {0.05, false}},
		"prog[10]":    {{1.0, true}},
		"prog[21/20]": {{0.02, false}, {0.02, false}, {0.02, true}},
		"prog[20]":    {{3.0, true}, {0.03, false}},
	}}
	var b strings.Builder
	tl.writeParks(&b)
	want := "waited 1ms or more 3, median run 2.000ms; ran sooner 2, median run 0.050ms"
	if !strings.Contains(b.String(), want) {
		t.Errorf("got %q, want it to say %q", b.String(), want)
	}
	for task, pid := range map[string]string{"prog[14/10]": "10", "prog[10]": "10", "odd": "odd"} {
		if got := process(task); got != pid {
			t.Errorf("process(%q) = %q, want %q", task, got, pid)
		}
	}
}
