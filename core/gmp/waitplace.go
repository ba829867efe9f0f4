package gmp

// A place a goroutine parks at on a sync object — a sync.Mutex's
// semaphore, an RWMutex's reader and writer semaphores, a WaitGroup's, an
// object of a registered kind (objkinds.go) — says once, in the file of
// its primitive, what waits there: its name, the wait reason Go's goroutine dump
// prints, the queue it waits in, what the object holds now, and what the
// park sentence adds. The generic code reads this table: the place names
// (describe.go), the queue lookup and the "in REASON on PLACE" wording
// (waitq.go), the park sentence
// (describe_park.go) and the deadlock report (checkdead.go), so none of
// them has a case per primitive (TestWaitPlacesHaveNoCasesOutside).
type waitPlace struct {
	// loc names the place compactly, as the trace's from/to fields do
	// ("mutex:mu", "rwmutex:rw.readers"); words names it in a sentence
	// ("mutex mu", "rwmutex rw").
	loc, words func(d *Describer, b []byte, id int32) []byte
	// reason is the wait reason of a goroutine parked at object id, or
	// NoReason for an object the program does not declare.
	reason func(d *Describer, id int32) Reason
	// queue is the object's queue its goroutines wait in.
	queue func(s *Machine, id int32) *WaitQ
	// state appends what the object holds now, for the deadlock report's
	// bracket: "held by G1, 2 waiting".
	state func(s *Machine, b []byte, id int32) []byte
	// parked, if set, appends what the park sentence says after the
	// wait: " (#2 in line)".
	parked func(d *Describer, b []byte, e *Event) []byte
}

// waitPlaces are the places of sync objects, by the Loc's kind, set in
// init because their words use the describer, which reads this table.
var waitPlaces [LocObj + 1]*waitPlace

func init() {
	waitPlaces = [...]*waitPlace{LocMutex: &mutexPlace, LocRWReader: &rwReaderPlace, LocRWWriter: &rwWriterPlace,
		LocWaitGroup: &wgPlace, LocObj: &objPlace}
}

// placeOf returns the waitPlace of a Loc's kind, or nil for another place.
func placeOf(k LocKind) *waitPlace {
	if int(k) < len(waitPlaces) {
		return waitPlaces[k]
	}
	return nil
}
