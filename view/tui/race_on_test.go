//go:build race

package tui

// raceEnabled says the tests run under the race detector, whose shadow
// memory and slowdown would make a memory bound measure the detector.
const raceEnabled = true
