package calibrate

import (
	"runtime"
	"time"
)

// wakeCallIdle is how long the measuring goroutine computes before each
// timed send: long enough for the other P's thread, done with the
// receiver, to stop spinning and park (spinning lasts microseconds).
const wakeCallIdle = 300 * time.Microsecond

// wakeCall times what a wake-up of a parked thread costs the thread that
// makes it (the model's WakeCall). A goroutine sends on an unbuffered
// channel to a receiver parked in its receive: the send readies the
// receiver, and with GOMAXPROCS=2 and the other P idle, wakep wakes that
// P's parked thread with a futex before the send returns; with
// GOMAXPROCS=1 there is no P to wake a thread for, and the send is the
// same channel work without the wake-up. Each sample is a waking send
// less the median of the sends on one P, so that the figure is the
// wake-up's own cost: 7.3-8.1µs (p10-p90) on the project's 2-vCPU machine, where the
// send alone takes 0.15µs. Between sends the sender computes
// (wakeCallIdle), so that every wake-up finds the thread parked.
func wakeCall(n int) []float64 {
	plain := sends(n, 1)
	woken := sends(n, 2)
	base := median(plain)
	for i := range woken {
		woken[i] -= base
	}
	return woken
}

// sends times n sends to a parked receiver with procs Ps, after a few
// thrown away to warm up (the first wakes a thread the runtime has yet
// to make).
func sends(n, procs int) []float64 {
	prev := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(prev)
	ch := make(chan struct{})
	done := make(chan struct{})
	go func() {
		for range ch {
		}
		close(done)
	}()
	samples := make([]float64, 0, n)
	for i := range n + warm(n) {
		for t := time.Now(); time.Since(t) < wakeCallIdle; {
		}
		t0 := time.Now()
		ch <- struct{}{}
		d := time.Since(t0)
		if i >= warm(n) {
			samples = append(samples, float64(d))
		}
	}
	close(ch)
	<-done
	return samples
}
