//go:build !unix

package tui

import "time"

// askBackground does not ask: only a Unix terminal is asked here.
func askBackground(time.Duration) (light, known bool) { return false, false }
