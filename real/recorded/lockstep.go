package recorded

// Lockstep steps through one or more runs together, in time order: a
// step forward moves whichever run's next event comes first (the earlier
// run on a tie), so every run shows the same moment, aligned on time
// since its first event.
type Lockstep struct {
	Runs []*Run
	// order is the merged sequence of events: the run each comes from.
	order   []uint8
	k       int   // events taken from order
	cursors []int // each run's current event, -1 before its first
}

// NewLockstep merges runs (at most 255).
func NewLockstep(runs ...*Run) *Lockstep {
	l := &Lockstep{Runs: runs, cursors: make([]int, len(runs))}
	next := make([]int, len(runs))
	total := 0
	for _, r := range runs {
		total += len(r.Events)
	}
	l.order = make([]uint8, 0, total)
	for range total {
		best := -1
		for i, r := range runs {
			if next[i] < len(r.Events) && (best < 0 || r.Events[next[i]].T < runs[best].Events[next[best]].T) {
				best = i
			}
		}
		l.order = append(l.order, uint8(best))
		next[best]++
	}
	l.Home()
	return l
}

// Cursor returns run i's current event, -1 before its first.
func (l *Lockstep) Cursor(i int) int { return l.cursors[i] }

// Pos returns how many events, over every run, lie at or before the
// cursor, and how many there are.
func (l *Lockstep) Pos() (int, int) { return l.k, len(l.order) }

// Forward takes the next event; false at the end.
func (l *Lockstep) Forward() bool {
	if l.k >= len(l.order) {
		return false
	}
	l.cursors[l.order[l.k]]++
	l.k++
	return true
}

// Back undoes the last event taken; false at the start.
func (l *Lockstep) Back() bool {
	if l.k == 0 {
		return false
	}
	l.k--
	l.cursors[l.order[l.k]]--
	return true
}

// Home goes before every run's first event.
func (l *Lockstep) Home() {
	l.k = 0
	for i := range l.cursors {
		l.cursors[i] = -1
	}
}

// End goes to every run's last event.
func (l *Lockstep) End() {
	l.k = len(l.order)
	for i, r := range l.Runs {
		l.cursors[i] = len(r.Events) - 1
	}
}

// Moved returns the run the last step forward moved (the one whose event
// is current), or -1 at the start.
func (l *Lockstep) Moved() int {
	if l.k == 0 {
		return -1
	}
	return int(l.order[l.k-1])
}

// Seek moves by n events, forward or back, and reports how far it went.
func (l *Lockstep) Seek(n int) int {
	moved := 0
	for ; n > 0 && l.Forward(); n-- {
		moved++
	}
	for ; n < 0 && l.Back(); n++ {
		moved--
	}
	return moved
}
