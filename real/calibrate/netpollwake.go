package calibrate

import "time"

// netpoll_wake, format 8's figure: how long after a network read's fd
// becomes ready the goroutine that waits for it runs again, when the
// program has nothing else to do and one M waits in epoll_wait. Measured
// on Linux (os_linux.go's netpollWake) with a timerfd, the fd schedlab
// real's net action reads. It sets the model's NetpollWake, its 10th
// percentile, and NetpollJitter, the 90th less the 10th: before it, the
// model took a futex wake-up's 10th percentile and four times that for
// the noise's lateness, which on the project's machine drew the poller's
// wake-up from 18 to 90µs where the timerfd reads returned 25-54µs after
// their expiry (10th to 90th percentile, a probe and three calibrations).

const (
	// netpollWakeIdle is how long each timerfd runs before it fires: the
	// program idles that long in the poller, as a scenario's goroutines
	// do while they wait on the network.
	netpollWakeIdle = 2 * time.Millisecond
	// maxNetpollWakeSamples bounds the figure's samples: each idles
	// netpollWakeIdle, so 200 take about half a second.
	maxNetpollWakeSamples = 200
)
