package recorded

import (
	"slices"
	"testing"
)

func TestLockstepStepsInTimeOrder(t *testing.T) {
	a := []Event{ev(0, "go-start", 1, 0, 0), ev(2, "go-block", 1, 0, 0), ev(5, "go-start", 1, 0, 0)}
	b := []Event{ev(1, "go-start", 1, 0, 0), ev(2, "go-block", 1, 0, 0)}
	l := NewLockstep(New("a", 1, a, describeKind(a)), New("b", 1, b, describeKind(b)))
	type pos struct{ a, b, moved int }
	var got []pos
	for l.Forward() {
		got = append(got, pos{l.Cursor(0), l.Cursor(1), l.Moved()})
	}
	// The tie at 2ms goes to the first run first.
	want := []pos{{0, -1, 0}, {0, 0, 1}, {1, 0, 0}, {1, 1, 1}, {2, 1, 0}}
	if !slices.Equal(got, want) {
		t.Fatalf("forward: %v, want %v", got, want)
	}
	if k, n := l.Pos(); k != 5 || n != 5 {
		t.Errorf("Pos() = %d, %d at the end", k, n)
	}
	for i := len(want) - 2; i >= 0; i-- {
		if !l.Back() {
			t.Fatal("Back stopped early")
		}
		if p := (pos{l.Cursor(0), l.Cursor(1), l.Moved()}); p != want[i] {
			t.Errorf("back to step %d: %v, want %v", i, p, want[i])
		}
	}
	l.Back()
	if l.Back() || l.Cursor(0) != -1 || l.Cursor(1) != -1 || l.Moved() != -1 {
		t.Errorf("Back went before the start: %d %d", l.Cursor(0), l.Cursor(1))
	}
	l.End()
	if l.Cursor(0) != 2 || l.Cursor(1) != 1 || l.Forward() {
		t.Errorf("End: %d %d", l.Cursor(0), l.Cursor(1))
	}
	if moved := l.Seek(-3); moved != -3 || l.Cursor(0) != 0 || l.Cursor(1) != 0 {
		t.Errorf("Seek(-3) moved %d to %d %d", moved, l.Cursor(0), l.Cursor(1))
	}
	l.Home()
	if l.Seek(100) != 5 {
		t.Error("Seek past the end did not stop at it")
	}
}
