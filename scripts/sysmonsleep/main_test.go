package main

import (
	"strings"
	"testing"
	"time"
)

// A hand-made perf script of one run: thread 7 (sysmon) sleeps 20µs,
// then 10.07ms, then 13.5ms; thread 8 sleeps 12ms once, and its call
// that never returned is left out. A header, a futex call and a line
// that is no event are read past.
const run = `# header
7 100.000000: syscalls:sys_enter_nanosleep: rqtp: 0x1, rmtp: 0x0
7 100.000020: syscalls:sys_exit_nanosleep: 0x0
8 100.000030: syscalls:sys_enter_nanosleep: rqtp: 0x2, rmtp: 0x0
7 100.000030: syscalls:sys_enter_nanosleep: rqtp: 0x1, rmtp: 0x0
7 100.000040: syscalls:sys_enter_futex: uaddr: 0x3
7 100.010100: syscalls:sys_exit_nanosleep: 0x0
7 100.010110: syscalls:sys_enter_nanosleep: rqtp: 0x1, rmtp: 0x0
8 100.012030: syscalls:sys_exit_nanosleep: 0x0
7 100.023610: syscalls:sys_exit_nanosleep: 0x0
8 100.023700: syscalls:sys_enter_nanosleep: rqtp: 0x2, rmtp: 0x0
not an event
`

func TestSysmonsLongSleeps(t *testing.T) {
	tid, cs, err := sleeps(strings.NewReader(run))
	if err != nil {
		t.Fatal(err)
	}
	if tid != 7 || len(cs) != 3 {
		t.Fatalf("thread %d with %d sleeps; want sysmon, thread 7, with 3", tid, len(cs))
	}
	tl := &tally{long: 9 * time.Millisecond, late: 10500 * time.Microsecond}
	if got, want := tl.add("b1-1.txt", tid, cs), "b1-1.txt: sysmon (thread 7): 2 sleeps of 9.00ms or more, 1 over 10.50ms: 13.50ms"; got != want {
		t.Errorf("run line %q\nwant %q", got, want)
	}
	tl.add("b1-2.txt", tid, []call{{0, 0.0141}, {1, 1.0101}})
	if got, want := tl.summary(), "2 runs: 4 sleeps of 9.00ms or more, 2 over 10.50ms (13.50ms to 14.10ms, median 14.10ms); beyond 10ms, p10 70µs, median 3500µs, p90 4100µs"; got != want {
		t.Errorf("summary %q\nwant %q", got, want)
	}
}

// A trace without a returned nanosleep is an error, not an empty report.
func TestATraceWithoutSleepsIsRefused(t *testing.T) {
	if _, _, err := sleeps(strings.NewReader("7 100.0: syscalls:sys_enter_futex: uaddr: 0x3\n")); err == nil || !strings.Contains(err.Error(), "no nanosleep call") {
		t.Errorf("error %v", err)
	}
}
