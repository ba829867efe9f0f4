package gmp

// gChunk is the number of goroutines per block of the goroutine table.
const gChunk = 512

// gtable stores goroutines in fixed-size blocks, so a *G stays valid while
// new goroutines are added (a go statement holds its parent's *G while it
// creates children), and a clone copies blocks rather than 100k pointers.
type gtable struct {
	blocks [][]G
	n      int
}

func (t *gtable) len() int { return t.n }

func (t *gtable) at(id GID) *G { return &t.blocks[int(id)/gChunk][int(id)%gChunk] }

func (t *gtable) add(g G) *G {
	if t.n%gChunk == 0 {
		t.blocks = append(t.blocks, make([]G, gChunk))
	}
	p := t.at(GID(t.n))
	*p = g
	t.n++
	return p
}

func (t *gtable) clone() gtable {
	c := gtable{blocks: make([][]G, len(t.blocks)), n: t.n}
	for i, b := range t.blocks {
		nb := make([]G, gChunk)
		copy(nb, b)
		c.blocks[i] = nb
	}
	return c
}
