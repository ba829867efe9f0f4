package gmp

import (
	"math"
	"testing"
	"time"
)

// Without UsleepSlackLong every sleep gets UsleepSlack, as before; with
// it, a sleep up to 200µs gets UsleepSlack, one of 10ms or more the long
// slack, and one between a slack on the line through them in log(d),
// rising with the length.
func TestSleepSlackGrowsWithTheLength(t *testing.T) {
	us := time.Microsecond
	flat := Costs{UsleepSlack: 53 * us}
	for _, d := range []time.Duration{3 * us, time.Millisecond, time.Second} {
		if got := flat.sleepSlack(d, false); got != 53*us {
			t.Errorf("no long slack, a sleep of %v: slack %v, want 53µs", d, got)
		}
	}
	k := Costs{UsleepSlack: 53 * us, UsleepSlackLong: 115 * us}
	for _, c := range []struct{ d, want time.Duration }{
		{20 * us, 53 * us}, {200 * us, 53 * us}, {10 * time.Millisecond, 115 * us}, {30 * time.Millisecond, 115 * us},
		// ln(1ms/200µs)/ln(10ms/200µs) = 0.411 of the 62µs between.
		{time.Millisecond, 53*us + time.Duration(math.Round(62e3*math.Log(5)/math.Log(50)))},
	} {
		if got := k.sleepSlack(c.d, false); got != c.want {
			t.Errorf("a sleep of %v: slack %v, want %v", c.d, got, c.want)
		}
	}
	last := time.Duration(0)
	for d := 100 * us; d <= 20*time.Millisecond; d += 100 * us {
		got := k.sleepSlack(d, false)
		if got < last {
			t.Fatalf("a sleep of %v: slack %v, below the shorter one's %v", d, got, last)
		}
		last = got
	}
}

// A syscall action is lengthened only where SyscallSlack is set (verify's
// nanosleeps), and a long one by as much more as a long sleep is: a 30ms
// call with the long slack runs 62µs longer than without it.
func TestSyscallSlackOfALongCall(t *testing.T) {
	us := time.Microsecond
	exit := func(k Costs) time.Duration {
		m, err := New(Config{Procs: 1, Costs: k}, &Program{Name: t.Name(), Main: []Op{syscall(30 * time.Millisecond)}})
		if err != nil {
			t.Fatal(err)
		}
		var at time.Duration
		m.SetSink(func(e Event) {
			if e.Kind == KindSyscallExit {
				at = e.T.D()
			}
		})
		if end := m.Run(); end.Err != nil {
			t.Fatal(end.Err)
		}
		return at
	}
	base := DefaultCosts()
	long := base
	long.UsleepSlackLong = base.UsleepSlack + 62*us
	slack, slackLong := base, long
	slack.SyscallSlack, slackLong.SyscallSlack = base.UsleepSlack, base.UsleepSlack
	if a, b := exit(base), exit(long); a != b {
		t.Errorf("without a syscall slack the call ended at %v, and at %v with a long sleep slack", a, b)
	}
	if a, b := exit(slack), exit(slackLong); b-a != 62*us {
		t.Errorf("with a syscall slack the call ended at %v, and at %v with a long sleep slack 62µs more: want 62µs later", a, b)
	}
}

func TestNegativeLongSleepSlackIsRefused(t *testing.T) {
	k := DefaultCosts()
	k.UsleepSlackLong = -time.Microsecond
	if err := (&Config{Procs: 1, Costs: k}).Validate(); err == nil {
		t.Error("a negative long sleep slack was accepted")
	}
}

// The model's usleep (sysmon's sleeps, runqgrab's back-off) and an idle
// M's epoll wait for a timer take their slack by their length.
func TestUsleepAndEpollWaitTakeTheirLengthsSlack(t *testing.T) {
	k := DefaultCosts()
	k.UsleepSlackLong = k.UsleepSlack + 62*time.Microsecond
	m, err := New(Config{Procs: 1, Costs: k}, &Program{Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want time.Duration
	}{
		{"usleep(3µs)", m.usleep(NoM, 3*time.Microsecond), 3*time.Microsecond + k.UsleepSlack},
		{"usleep(10ms)", m.usleep(NoM, 10*time.Millisecond), 10*time.Millisecond + k.UsleepSlackLong},
		{"an epoll wait of 12.5ms", m.epollTimeout(NoM, 12500*time.Microsecond), 12*time.Millisecond + k.UsleepSlackLong},
	} {
		if c.got != c.want {
			t.Errorf("%s lasts %v, want %v", c.name, c.got, c.want)
		}
	}
}

// A long sleep beside work takes UsleepSlackLongBusy where a profile
// measured it, on the same line in log(d) from UsleepSlack; without it,
// UsleepSlackLong, as before. A short sleep takes UsleepSlack either way.
func TestSleepSlackBesideWork(t *testing.T) {
	us := time.Microsecond
	k := Costs{UsleepSlack: 53 * us, UsleepSlackLong: 115 * us}
	if got := k.sleepSlack(10*time.Millisecond, true); got != 115*us {
		t.Errorf("no busy slack: a 10ms sleep beside work has %v, want the long slack, 115µs", got)
	}
	k.UsleepSlackLongBusy = 75 * us
	for _, c := range []struct {
		d    time.Duration
		busy bool
		want time.Duration
	}{
		{20 * us, true, 53 * us}, {10 * time.Millisecond, true, 75 * us}, {30 * time.Millisecond, true, 75 * us},
		{10 * time.Millisecond, false, 115 * us},
		// 0.411 of the 22µs between the short slack and the busy one.
		{time.Millisecond, true, 53*us + time.Duration(math.Round(22e3*math.Log(5)/math.Log(50)))},
	} {
		if got := k.sleepSlack(c.d, c.busy); got != c.want {
			t.Errorf("a sleep of %v, beside work %v: slack %v, want %v", c.d, c.busy, got, c.want)
		}
	}
}

// sysmon sleeps beside main's computing, and its sleeps of 10ms take
// the busy slack: the preemption of a 100ms computation moves with
// UsleepSlackLongBusy and not with UsleepSlackLong. An M's epoll wait for
// a timer with every P idle takes the idle one: main's 30ms sleep ends
// with UsleepSlackLong and not with the busy slack.
func TestSysmonSleepsBesideWorkAndAnIdleWaitDoesNot(t *testing.T) {
	us := time.Microsecond
	first := func(k Costs, ops ...Op) (preempt, exit time.Duration) {
		m, err := New(Config{Procs: 1, Costs: k}, &Program{Name: t.Name(), Main: ops})
		if err != nil {
			t.Fatal(err)
		}
		preempt = -1
		m.SetSink(func(e Event) {
			if e.Kind == KindSysmon && e.Rule == RuleSysmonPreempt && preempt < 0 {
				preempt = e.T.D()
			}
			if e.Kind == KindGoExit {
				exit = e.T.D()
			}
		})
		if end := m.Run(); end.Err != nil {
			t.Fatal(end.Err)
		}
		return preempt, exit
	}
	k := DefaultCosts()
	k.UsleepSlackLong = k.UsleepSlack + 100*us
	busy := k
	busy.UsleepSlackLongBusy = k.UsleepSlack + 10*us
	swapped := busy
	swapped.UsleepSlackLong = k.UsleepSlack + 10*us
	swapped.UsleepSlackLongBusy = k.UsleepSlack + 100*us

	long, _ := first(k, cpu(100*time.Millisecond))
	short, _ := first(busy, cpu(100*time.Millisecond))
	same, _ := first(swapped, cpu(100*time.Millisecond))
	if !(short < long) || same != long {
		t.Errorf("the first preemption of a 100ms computation: %v with the long slack alone, %v with a shorter busy slack (want earlier), %v with the two swapped (want %v)", long, short, same, long)
	}
	if long < 10*time.Millisecond {
		t.Fatalf("the first preemption at %v, before sysmon could have seen 10ms", long)
	}

	_, idle := first(k, sleep(30*time.Millisecond))
	_, idleBusy := first(busy, sleep(30*time.Millisecond))
	_, idleSwapped := first(swapped, sleep(30*time.Millisecond))
	if idle != idleBusy || !(idleSwapped < idle) {
		t.Errorf("main's 30ms sleep on an idle machine ended at %v, %v with a busy slack (want the same), %v with the long slack shorter (want earlier)", idle, idleBusy, idleSwapped)
	}
}

// besideWork counts another M on a CPU, not the sleeper, not one backing
// off in its own sleep, and counts other programs' load.
func TestBesideWork(t *testing.T) {
	m, err := New(Config{Procs: 2}, &Program{Name: t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	a := &M{ID: 0, State: MRunning}
	b := &M{ID: 1, State: MIdle}
	m.ms = []*M{a, b}
	if !m.besideWork(1) || m.besideWork(0) {
		t.Errorf("M0 running: beside M1's sleep %v (want true), beside its own %v (want false)", m.besideWork(1), m.besideWork(0))
	}
	a.State, a.Backoff = MScheduler, true
	if m.besideWork(1) {
		t.Error("an M backing off in runqgrab's sleep counted as work")
	}
	a.Backoff = false
	if !m.besideWork(1) {
		t.Error("an M in the scheduler, looking for work, did not count")
	}
	a.State = MNetpoll
	if m.besideWork(1) {
		t.Error("an M blocked in netpoll counted as work")
	}
	m.cfg.Load = 1
	if !m.besideWork(1) {
		t.Error("other programs' load did not count")
	}
}
