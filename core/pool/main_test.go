package pool_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that importing the package starts no goroutine, and fails
// the run if any goroutine outlives the tests: every pool a test makes must be
// released and its workers gone.
//
// The benchmarks import ants, which does start two goroutines when it is
// imported (for its default pool); those are ignored.
func TestMain(m *testing.M) {
	if n := goroutinesIn("github.com/schedlab/schedlab/core/pool."); n != 0 {
		fmt.Fprintf(os.Stderr, "%d goroutines of package pool are running before any test\n", n)
		os.Exit(1)
	}
	goleak.VerifyTestMain(m,
		goleak.IgnoreAnyFunction("github.com/panjf2000/ants/v2.(*poolCommon).purgeStaleWorkers"),
		goleak.IgnoreAnyFunction("github.com/panjf2000/ants/v2.(*poolCommon).ticktock"),
	)
}

// goroutinesIn counts the goroutines with a frame whose function name starts
// with prefix, of the caller's synctest bubble when it runs in one, else of
// no bubble. A test in a bubble counts its own pool's workers: a worker of an
// earlier test, outside the bubble, may still be on its way out (under -race
// the scheduler lets it linger), and is not this test's.
func goroutinesIn(prefix string) int {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	gs := strings.Split(string(buf), "\n\n")
	own := bubbleOf(gs[0]) // runtime.Stack lists the caller first
	count := 0
	for _, g := range gs {
		if bubbleOf(g) != own {
			continue
		}
		for _, line := range strings.Split(g, "\n") {
			if strings.HasPrefix(line, prefix) {
				count++
				break
			}
		}
	}
	return count
}

// bubbleOf is the synctest bubble a goroutine's trace names in its header
// ("goroutine 21 [chan receive (durable), synctest bubble 1]:"), or "" for a
// goroutine in none.
func bubbleOf(g string) string {
	header, _, _ := strings.Cut(g, "\n")
	_, after, ok := strings.Cut(header, "synctest bubble ")
	if !ok {
		return ""
	}
	if end := strings.IndexAny(after, ",]"); end >= 0 {
		return after[:end]
	}
	return after
}
