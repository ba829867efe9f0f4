package gmp

// goroutineWords tells how goroutines begin and end: runtime.main, newproc
// and its ring overflow, goexit0, and the descriptor free lists.
var goroutineWords = words{
	RuleMainStart: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "%v (main) starts on %v with %v: a new time slice, schedtick %d", e.G, e.P, e.M, e.Schedtick())
	},
	RuleNewproc: func(d *Describer, b []byte, e Event) []byte {
		b = appendf(b, "%v creates %v %s%s", e.Creator(), e.G, d.into(e), kickedNew(e))
		if from := e.ReusedFrom(); from != NoG {
			b = appendf(b, "; it reuses the descriptor %v left on %v's free list", from, e.P)
		}
		return b
	},
	RuleRunqputslow: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "%v's ring is full (256): moved the %d oldest and %v to the global queue (now %d)", e.P, e.Moved()-1, e.G, e.GlobalLen())
	},
	RuleGfput: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "%v's free list reached 64 descriptors: moved %d to the global list, %d stay", e.P, e.Moved(), e.Left())
	},
	RuleGfget: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "%v's free list was empty: took %d descriptors from the global list (%d left there)", e.P, e.Moved(), e.Left())
	},
	RuleGoexit: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "%v exits; its descriptor goes on %v's free list for the next go statement", e.G, e.P)
	},
	RuleMainReturn: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "main (%v) returned: the program exits with %s alive", e.G, plural(e.Alive(), "other goroutine", "other goroutines"))
	},
	RuleMainGoexit: func(d *Describer, b []byte, e Event) []byte {
		return appendf(b, "%v (main) calls runtime.Goexit: it exits but the program goes on", e.G)
	},
}
