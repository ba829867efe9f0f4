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
		if got := flat.sleepSlack(d); got != 53*us {
			t.Errorf("no long slack, a sleep of %v: slack %v, want 53µs", d, got)
		}
	}
	k := Costs{UsleepSlack: 53 * us, UsleepSlackLong: 115 * us}
	for _, c := range []struct{ d, want time.Duration }{
		{20 * us, 53 * us}, {200 * us, 53 * us}, {10 * time.Millisecond, 115 * us}, {30 * time.Millisecond, 115 * us},
		// ln(1ms/200µs)/ln(10ms/200µs) = 0.411 of the 62µs between.
		{time.Millisecond, 53*us + time.Duration(math.Round(62e3*math.Log(5)/math.Log(50)))},
	} {
		if got := k.sleepSlack(c.d); got != c.want {
			t.Errorf("a sleep of %v: slack %v, want %v", c.d, got, c.want)
		}
	}
	last := time.Duration(0)
	for d := 100 * us; d <= 20*time.Millisecond; d += 100 * us {
		got := k.sleepSlack(d)
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
		{"usleep(3µs)", m.usleep(3 * time.Microsecond), 3*time.Microsecond + k.UsleepSlack},
		{"usleep(10ms)", m.usleep(10 * time.Millisecond), 10*time.Millisecond + k.UsleepSlackLong},
		{"an epoll wait of 12.5ms", m.epollTimeout(12500 * time.Microsecond), 12*time.Millisecond + k.UsleepSlackLong},
	} {
		if c.got != c.want {
			t.Errorf("%s lasts %v, want %v", c.name, c.got, c.want)
		}
	}
}
