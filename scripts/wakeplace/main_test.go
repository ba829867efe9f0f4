package main

import (
	"strings"
	"testing"
)

// A hand-made perf script: thread 11 runs on CPU 0 from 100.000 and
// CPU 1 idles. 11 wakes 12, which last ran on CPU 0, and the kernel
// keeps it there though CPU 1 is idle; 11 wakes 13, which last ran on
// CPU 1, and it goes back there; a timer (swapper) on CPU 1 wakes 14,
// which last ran on CPU 0, and it is put on CPU 1. Another program's
// thread is woken too, and an unrelated event and a header line are read
// past. 11 runs 2ms on CPU 0, 13 1ms on CPU 1. 11 sleeps, and 12, woken
// beside it, runs 1.89ms after its wake-up; 12 wakes 15 beside it, and 15
// takes CPU 0 from it 6µs later; 12, still runnable, waits 2.093ms and
// runs there again.
const trace = `# ========
# captured on: today
     prog 11 [000] 100.000000: sched:sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=prog next_pid=11 next_prio=120
  swapper 0 [001] 100.000001: sched:sched_switch: prev_comm=other prev_pid=99 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
     prog 11 [000] 100.000100: sched:sched_waking: comm=prog pid=12 prio=120 target_cpu=000
     prog 11 [000] 100.000110: sched:sched_wakeup: comm=prog pid=12 prio=120 target_cpu=000
     prog 11 [000] 100.000200: sched:sched_waking: comm=prog pid=13 prio=120 target_cpu=001
     prog 11 [000] 100.000210: sched:sched_wakeup: comm=prog pid=13 prio=120 target_cpu=001
  swapper 0 [001] 100.000220: sched:sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=prog next_pid=13 next_prio=120
     prog 11 [000] 100.000300: sched:sched_waking: comm=other pid=98 prio=120 target_cpu=001
     prog 11 [000] 100.000310: sched:sched_wakeup: comm=other pid=98 prio=120 target_cpu=001
     prog 11 [000] 100.000400: sched:sched_stat_runtime: comm=prog pid=11 runtime=400000 [ns]
     prog 13 [001] 100.001220: sched:sched_switch: prev_comm=prog prev_pid=13 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
  swapper 0 [001] 100.001500: sched:sched_waking: comm=prog pid=14 prio=120 target_cpu=000
  swapper 0 [001] 100.001510: sched:sched_wakeup: comm=prog pid=14 prio=120 target_cpu=001
     prog 11 [000] 100.002000: sched:sched_switch: prev_comm=prog prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=prog next_pid=12 next_prio=120
     prog 12 [000] 100.002100: sched:sched_waking: comm=prog pid=15 prio=120 target_cpu=000
     prog 12 [000] 100.002101: sched:sched_wakeup: comm=prog pid=15 prio=120 target_cpu=000
     prog 12 [000] 100.002107: sched:sched_switch: prev_comm=prog prev_pid=12 prev_prio=120 prev_state=R+ ==> next_comm=prog next_pid=15 next_prio=120
     prog 15 [000] 100.004200: sched:sched_switch: prev_comm=prog prev_pid=15 prev_prio=120 prev_state=S ==> next_comm=prog next_pid=12 next_prio=120
`

func TestPlacesAndRunTimes(t *testing.T) {
	tl := newTally()
	if err := tl.read(strings.NewReader(trace), "prog"); err != nil {
		t.Fatal(err)
	}
	want := map[placement]int{
		{waker: "the program", lastRan: "the waker's CPU", put: "there", otherIdle: true}:              2, // 12, 15
		{waker: "the program", lastRan: "another CPU", lastIdle: true, put: "there", otherIdle: false}: 1, // 13
		{waker: "an interrupt", lastRan: "another CPU", lastIdle: false, put: "on the waker's CPU"}:    1, // 14
	}
	if len(tl.places) != len(want) {
		t.Errorf("places %v\nwant %v", tl.places, want)
	}
	for k, n := range want {
		if tl.places[k] != n {
			t.Errorf("%+v: %d, want %d\nall: %v", k, tl.places[k], n, tl.places)
		}
	}
	// 11 ran 2ms on CPU 0, then 12 0.107ms and 15 2.093ms, 13 1ms on
	// CPU 1; 12, running again at the end, is not counted for that run.
	if got := 1e3 * tl.ran[0]; got < 4.199 || got > 4.201 {
		t.Errorf("CPU 0: %.4fms, want 4.2ms", got)
	}
	if got := 1e3 * tl.ran[1]; got < 0.999 || got > 1.001 {
		t.Errorf("CPU 1: %.4fms, want 1ms", got)
	}
	if len(tl.busiest) != 1 || tl.busiest[0] < 0.807 || tl.busiest[0] > 0.808 {
		t.Errorf("busiest shares %v, want one of 4.2/5.2", tl.busiest)
	}
	var out strings.Builder
	tl.write(&out)
	for _, s := range []string{
		"4 wake-ups of the program's threads in 1 traces\n",
		"     2  woken by the program, last ran on the waker's CPU, put there (another CPU idle)\n",
		"     1  woken by the program, last ran on another CPU, idle, put there (no other CPU idle)\n",
		"     1  woken by an interrupt, last ran on another CPU, put on the waker's CPU (no other CPU idle)\n",
		"the program's run time by CPU: CPU0 4.2ms CPU1 1.0ms; 81% on the busiest\n",
		"each trace's share on its busiest CPU: 81%\n",
		"2 wake-ups put beside a running thread of the program: 1 took the CPU from it, still runnable, a median 6µs after the wake-up; 1 got it when it slept, a median 1890µs after the wake-up; 0 otherwise\n",
		"the wake-up preemptions took the CPU p10 6µs, median 6µs, p90 6µs after the wake-up; the thread they took it from ran again p10 2093µs, median 2093µs, p90 2093µs after (1 of 1 ran again in the trace)\n",
		"preempted threads of the program that waited over 1ms to run again: 1, 2.09 to 2.09ms (p10 2.09ms, median 2.09ms, p90 2.09ms), 1 of them on the CPU they waited on; by trace: 1\n",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the report lacks %q:\n%s", s, out.String())
		}
	}
}

// A line that is not an event, or is cut short, is read past.
func TestParseLineRefusesOtherLines(t *testing.T) {
	for _, line := range []string{
		"",
		"# ========",
		"prog 11 [000] 100.0: sched:",
		"prog 11 [0x0] 100.000000: sched:sched_switch: prev_pid=1",
		"prog 11 [000] notatime: sched:sched_switch: prev_pid=1",
		"[000] 100.000000: sched:sched_switch: prev_pid=1",
		"prog 11 [000 100.000000: sched:sched_switch: prev_pid=1",
	} {
		if e, ok := parseLine(line); ok {
			t.Errorf("%q read as %+v", line, e)
		}
	}
	e, ok := parseLine("  my prog 11 [001] 100.5: sched:sched_waking: comm=x pid=3 target_cpu=000")
	if !ok || e.comm != "my prog" || e.cpu != 1 || e.at != 100.5 || e.name != "sched_waking" || e.fields["pid"] != "3" {
		t.Errorf("a comm with a space: %+v, %v", e, ok)
	}
}

// A hand-made trace recorded with call stacks. 12 sleeps at 99.999 and
// 11 takes CPU 0; 1ms later 11 wakes 12 by a futex, beside itself, and
// 12 runs 2ms after, when 11 is switched out: late. 13 sleeps on CPU 1,
// and a timer wakes it beside 12: not a futex wake-up, not counted. 14
// sleeps 10µs and 12 wakes it by a futex beside itself; it takes the CPU
// 6µs later. 15, asleep since 99.998, is woken by 14's futex onto the
// idle CPU 1: a futex wake-up, not beside.
const stackTrace = `     prog 12 [000] 99.999000: sched:sched_switch: prev_comm=prog prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=prog next_pid=11 next_prio=120
     prog 15 [001] 99.998000: sched:sched_switch: prev_comm=prog prev_pid=15 prev_prio=120 prev_state=S ==> next_comm=prog next_pid=13 next_prio=120
     prog 13 [001] 99.999000: sched:sched_switch: prev_comm=prog prev_pid=13 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
     prog 11 [000] 100.000000: sched:sched_waking: comm=prog pid=12 prio=120 target_cpu=000
	ffffffff810c2d40 try_to_wake_up+0x1a0 ([kernel.kallsyms])
	ffffffff8115a2b0 futex_wake+0x150 ([kernel.kallsyms])
	ffffffff81158000 do_futex+0x100 ([kernel.kallsyms])

     prog 11 [000] 100.000001: sched:sched_wakeup: comm=prog pid=12 prio=120 target_cpu=000
     prog 11 [000] 100.002000: sched:sched_switch: prev_comm=prog prev_pid=11 prev_prio=120 prev_state=R ==> next_comm=prog next_pid=12 next_prio=120
     prog 12 [000] 100.002500: sched:sched_waking: comm=prog pid=13 prio=120 target_cpu=001
	ffffffff810c2d40 try_to_wake_up+0x1a0 ([kernel.kallsyms])
	ffffffff81190000 hrtimer_wakeup+0x1e ([kernel.kallsyms])

     prog 12 [000] 100.002501: sched:sched_wakeup: comm=prog pid=13 prio=120 target_cpu=000
 swapper 0 [001] 100.002590: sched:sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=prog next_pid=14 next_prio=120
     prog 14 [001] 100.002600: sched:sched_switch: prev_comm=prog prev_pid=14 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
     prog 12 [000] 100.002610: sched:sched_waking: comm=prog pid=14 prio=120 target_cpu=001
	ffffffff810c2d40 try_to_wake_up+0x1a0 ([kernel.kallsyms])
	ffffffff8115a2b0 futex_wake+0x150 ([kernel.kallsyms])

     prog 12 [000] 100.002611: sched:sched_wakeup: comm=prog pid=14 prio=120 target_cpu=000
     prog 12 [000] 100.002616: sched:sched_switch: prev_comm=prog prev_pid=12 prev_prio=120 prev_state=R ==> next_comm=prog next_pid=14 next_prio=120
     prog 14 [000] 100.003000: sched:sched_waking: comm=prog pid=15 prio=120 target_cpu=001
	ffffffff810c2d40 try_to_wake_up+0x1a0 ([kernel.kallsyms])
	ffffffff8115a2b0 futex_wake+0x150 ([kernel.kallsyms])

     prog 14 [000] 100.003001: sched:sched_wakeup: comm=prog pid=15 prio=120 target_cpu=001
 swapper 0 [001] 100.003010: sched:sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=prog next_pid=15 next_prio=120
     prog 14 [000] 100.004000: sched:sched_switch: prev_comm=prog prev_pid=14 prev_prio=120 prev_state=S ==> next_comm=prog next_pid=13 next_prio=120
`

func TestFutexWakeUpsBesideByHowLongTheySlept(t *testing.T) {
	tl := newTally()
	if err := tl.read(strings.NewReader(stackTrace), "prog"); err != nil {
		t.Fatal(err)
	}
	if !tl.stacks || len(tl.futex) != 2 || len(tl.futexAll) != 3 {
		t.Fatalf("stacks %v, futex wake-ups beside %v, in all %v: want stacks, two beside, three in all", tl.stacks, tl.futex, tl.futexAll)
	}
	var b strings.Builder
	tl.writeFutex(&b)
	want := "3 futex wake-ups by the program of its threads, 2 put beside a running one; by how long the woken thread had slept, how many of these waited over 1ms to run, of how many beside and in all: under 250µs 0 of 1 of 1, 250µs-2ms 1 of 1 of 1, 2ms-8ms 0 of 0 of 1, 8ms or more 0 of 0 of 0; those waited p10 2.00ms, median 2.00ms, p90 2.00ms\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	// Without stacks the wake-ups cannot be told apart, and it says so.
	plain := newTally()
	if err := plain.read(strings.NewReader(trace), "prog"); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	plain.writeFutex(&b)
	if !strings.Contains(b.String(), "record with perf record -g") {
		t.Errorf("without stacks: %q", b.String())
	}
}
