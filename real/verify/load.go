package verify

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// LoadAverage is the machine's one-minute load average as /proc/loadavg
// gives it, or "unknown" where there is none.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if fields := strings.Fields(string(b)); err == nil && len(fields) > 0 {
		return fields[0]
	}
	return "unknown"
}

// DescribeLoad says how busy the machine was around the real runs.
func DescribeLoad(before, after string) string {
	return fmt.Sprintf("load average %s before, %s after, on %d CPUs", before, after, runtime.NumCPU())
}
