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
// with prefix.
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
	count := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		for _, line := range strings.Split(g, "\n") {
			if strings.HasPrefix(line, prefix) {
				count++
				break
			}
		}
	}
	return count
}
