package gmp

// idBlocks is a table with an entry per goroutine id, in blocks of gChunk
// entries added as ids are handed out. A block never moves, so a pointer
// to an entry stays good and growing the table copies nothing. New
// reserves room for the blocks the program says it needs (presize.go),
// and a block is cut from that room while there is some: one allocation
// per table instead of one per 512 goroutines. A clone does not inherit
// the room, so that the original and its clones never write the same
// memory.
type idBlocks[T any] struct {
	blocks [][]T
	spare  []T
}

// reserve makes room for the entries of n ids in one allocation.
func (t *idBlocks[T]) reserve(n int) {
	k := (n + gChunk - 1) / gChunk
	blocks := make([][]T, len(t.blocks), max(len(t.blocks), k))
	copy(blocks, t.blocks)
	t.blocks = blocks
	t.spare = make([]T, k*gChunk)
}

// add appends a block, cut from the reserved room while there is some,
// and returns it.
func (t *idBlocks[T]) add() []T {
	var b []T
	if len(t.spare) >= gChunk {
		b, t.spare = t.spare[:gChunk:gChunk], t.spare[gChunk:]
	} else {
		b = make([]T, gChunk)
	}
	t.blocks = append(t.blocks, b)
	return b
}
