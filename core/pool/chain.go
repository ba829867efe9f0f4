package pool

// links are the two pointers an element of a chain carries inside itself, so
// that linking and unlinking it allocates nothing.
type links[P any] struct {
	prev, next P
}

// chainElem is a pointer to a struct that embeds links to its own kind.
type chainElem[P any] interface {
	comparable
	chainLinks() *links[P]
}

// chain is an intrusive doubly linked list. The pool keeps its waiting
// submitters in one, in FIFO order: a waiter whose context ends leaves from
// the middle, in O(1), and linking allocates nothing.
type chain[P chainElem[P]] struct {
	head, tail P
	len        int
}

func (c *chain[P]) pushBack(e P) {
	var none P
	l := e.chainLinks()
	l.prev, l.next = c.tail, none
	if c.tail != none {
		c.tail.chainLinks().next = e
	} else {
		c.head = e
	}
	c.tail = e
	c.len++
}

// remove unlinks e, which must be in c.
func (c *chain[P]) remove(e P) {
	var none P
	l := e.chainLinks()
	if l.prev != none {
		l.prev.chainLinks().next = l.next
	} else {
		c.head = l.next
	}
	if l.next != none {
		l.next.chainLinks().prev = l.prev
	} else {
		c.tail = l.prev
	}
	l.prev, l.next = none, none
	c.len--
}

// popFront removes and returns the first element, or the zero P if c is empty.
func (c *chain[P]) popFront() P {
	e := c.head
	var none P
	if e != none {
		c.remove(e)
	}
	return e
}

// each calls f on every element, front to back.
func (c *chain[P]) each(f func(P)) {
	var none P
	for e := c.head; e != none; e = e.chainLinks().next {
		f(e)
	}
}
