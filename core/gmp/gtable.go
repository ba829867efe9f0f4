package gmp

import "github.com/schedlab/schedlab/core/sim"

// gChunk is the number of entries per block of the goroutine table.
const gChunk = 512

// gtable stores goroutines the way the runtime's allgs does: by g
// descriptor. A goroutine that exits leaves its descriptor on a free list
// and the next go statement reuses it (gfget), so the table grows with
// the most goroutines ever alive at once, not with every goroutine ever
// created. A million short-lived goroutines fit in the descriptors of the
// few thousand alive at a time, which keeps the hot state small enough to
// stay in the CPU's caches.
//
// Goroutine ids still number every goroutine ever created. descOf maps
// each to its descriptor, and ids keeps the little that outlives a
// goroutine (its parent and when it was created), so a dead goroutine can
// still be described; the map is apart from the rest because every step
// reads it. Both are written once per goroutine, when it is created, and
// never again, so their full blocks are shared between clones. Together
// they are 16 bytes per goroutine ever created, all a run keeps of one
// after it exits: what only a live goroutine needs (its causes) is kept
// by descriptor, beside its slot, and reused with it.
//
// Slots are stored in fixed-size blocks, so a *G stays valid while new
// goroutines are added (a go statement holds its parent's *G while it
// creates children).
type gtable struct {
	slots [][]G // by descriptor
	// cause holds each descriptor's goroutine's last events of each sort
	// (cause.go), in blocks like slots'; nil when the run tracks no
	// causes. It is apart from G, which it would push past two cache
	// lines, and which a run without causes would then carry for nothing.
	cause  [][]gcauses
	ndesc  int32 // descriptors allocated: the runtime's len(allgs)
	descOf idBlocks[int32]
	ids    idBlocks[gidRecord]
	nids   int // goroutine ids handed out, G0 included
}

// gidRecord is what the table keeps of every goroutine beyond its life:
// its parent and when it was created, in 12 bytes. The time is split in
// two halves so that the record has no 8-byte field to align it to 16.
type gidRecord struct {
	parent    GID
	createdLo uint32
	createdHi int32
}

func (r *gidRecord) created() sim.Time { return sim.Time(int64(r.createdHi)<<32 | int64(r.createdLo)) }

func newGIDRecord(parent GID, created sim.Time) gidRecord {
	return gidRecord{parent: parent, createdLo: uint32(created), createdHi: int32(created >> 32)}
}

func (t *gtable) len() int { return t.nids }

// rec, desc and slot index their blocks with unsigned numbers: ids and
// descriptors are never negative, and the compiler turns an unsigned
// division and remainder by gChunk into a shift and a mask, where a
// signed one needs a correction for negative numbers. Every step looks up
// a few goroutines, and these lookups were an eighth of the model's
// instructions.
func (t *gtable) rec(id GID) *gidRecord {
	return &t.ids.blocks[uint32(id)/gChunk][uint32(id)%gChunk]
}

func (t *gtable) desc(id GID) int32 {
	return t.descOf.blocks[uint32(id)/gChunk][uint32(id)%gChunk]
}

func (t *gtable) slot(desc int32) *G { return &t.slots[uint32(desc)/gChunk][uint32(desc)%gChunk] }

// causes returns the cause entry of goroutine id, which must be alive.
func (t *gtable) causes(id GID) *gcauses {
	d := uint32(t.desc(id))
	return &t.cause[d/gChunk][d%gChunk]
}

// trackCauses makes the table keep an entry of causes per descriptor. A
// run decides before its first goroutine.
func (t *gtable) trackCauses() { t.cause = [][]gcauses{} }

// at returns the slot of goroutine id's descriptor. For a goroutine that
// exited and whose descriptor was reused, that slot holds another
// goroutine: callers that may meet such an id use current.
func (t *gtable) at(id GID) *G { return t.slot(t.desc(id)) }

// current returns goroutine id, or nil if it exited and a newer goroutine
// has taken its descriptor.
func (t *gtable) current(id GID) *G {
	if g := t.at(id); g.ID == id {
		return g
	}
	return nil
}

// reserveG0 takes goroutine id 0, which names no goroutine and owns no
// descriptor, so that ids start at G1.
func (t *gtable) reserveG0() {
	t.addIDBlock()
	t.descOf.blocks[0][0] = -1
	t.nids = 1
}

// reserveIDs makes room for n goroutine ids, G0 included, in one
// allocation per table (presize.go).
func (t *gtable) reserveIDs(n int) {
	t.ids.reserve(n)
	t.descOf.reserve(n)
}

// addIDBlock adds a block to ids and to descOf.
func (t *gtable) addIDBlock() {
	t.ids.add()
	t.descOf.add()
}

// newDesc allocates a fresh descriptor (newproc1's malg when the free
// lists are empty).
func (t *gtable) newDesc() int32 {
	if t.ndesc%gChunk == 0 {
		t.slots = append(t.slots, make([]G, gChunk))
		if t.cause != nil {
			t.cause = append(t.cause, make([]gcauses, gChunk))
		}
	}
	d := t.ndesc
	t.ndesc++
	return d
}

// add stores g, created at the given time, under the next goroutine id,
// on descriptor g.Desc, and returns the goroutine that used that
// descriptor before (NoG if none).
func (t *gtable) add(g G, created sim.Time) (*G, GID) {
	g.ID = GID(t.nids)
	if t.nids%gChunk == 0 {
		t.addIDBlock()
	}
	*t.rec(g.ID) = newGIDRecord(g.Parent, created)
	t.descOf.blocks[t.nids/gChunk][t.nids%gChunk] = g.Desc
	t.nids++
	if t.cause != nil {
		t.cause[g.Desc/gChunk][g.Desc%gChunk] = noCauses
	}
	p := t.slot(g.Desc)
	prev := p.ID
	*p = g
	return p, prev
}

// clone copies the slots and causes, which change, and shares the full
// blocks of id records, which do not. The last block may still be
// written (by the original or by the clone), so each gets its own copy
// of it.
func (t *gtable) clone() gtable {
	c := gtable{slots: make([][]G, len(t.slots)), ndesc: t.ndesc, nids: t.nids}
	for i, b := range t.slots {
		nb := make([]G, gChunk)
		copy(nb, b)
		c.slots[i] = nb
	}
	if t.cause != nil {
		c.cause = make([][]gcauses, len(t.cause))
		for i, b := range t.cause {
			c.cause[i] = append([]gcauses(nil), b...)
		}
	}
	c.ids.blocks = shareFullBlocks(t.ids.blocks, t.nids)
	c.descOf.blocks = shareFullBlocks(t.descOf.blocks, t.nids)
	return c
}

// shareFullBlocks copies a table of write-once blocks holding n entries:
// the full blocks are shared, the last one, still being filled, copied.
func shareFullBlocks[T any](blocks [][]T, n int) [][]T {
	c := make([][]T, len(blocks))
	copy(c, blocks)
	if k := len(c); k > 0 && n%gChunk != 0 {
		c[k-1] = append([]T(nil), blocks[k-1]...)
	}
	return c
}

// ghost describes goroutine id after its descriptor went to another
// goroutine: dead, with what its id record kept.
func (t *gtable) ghost(id GID) *G {
	return &G{ID: id, Status: Gdead, M: NoM, Parent: t.rec(id).parent, Desc: t.desc(id)}
}
