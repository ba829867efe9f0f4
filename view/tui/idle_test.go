package tui

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// countingScreen counts the frames written to the terminal.
type countingScreen struct {
	tcell.SimulationScreen
	shows atomic.Int64
}

func (s *countingScreen) Show() { s.shows.Add(1); s.SimulationScreen.Show() }
func (s *countingScreen) Sync() { s.shows.Add(1); s.SimulationScreen.Sync() }

// A paused UI writes nothing however long it idles; playing redraws.
func TestIdleUIWritesNothing(t *testing.T) {
	a := newApp(t, "tour", false)
	scr := &countingScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	tick := make(chan time.Time)
	ran := make(chan error, 1)
	go func() { ran <- a.run(scr, tick) }()
	// settle waits until the player has handed on every tick sent and
	// the event goroutine has run what they queued.
	settle := func() {
		tick <- time.Time{} // the player is back in its loop: the last tick's update is queued
		done := make(chan struct{})
		a.tv.QueueUpdate(func() { close(done) })
		<-done
	}
	settle()
	before := scr.shows.Load()
	for range 30 { // a second of frames
		tick <- time.Time{}
	}
	settle()
	if n := scr.shows.Load() - before; n != 0 {
		t.Errorf("a paused UI wrote %d frames in a second of ticks", n)
	}
	a.tv.QueueEvent(tcell.NewEventKey(tcell.KeyRune, ' ', tcell.ModNone))
	settle()
	playing := scr.shows.Load()
	for range 10 {
		tick <- time.Time{}
	}
	settle()
	if scr.shows.Load() == playing {
		t.Error("a playing UI drew no frame in ten ticks")
	}
	a.tv.QueueEvent(tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone))
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
}
