package gmp

// goroutineWords tells how goroutines begin and end: runtime.main, newproc
// and its ring overflow, goexit0, and the descriptor free lists.
var goroutineWords = words{
	RuleMainStart: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v (main) starts on %v with %v: a new time slice, schedtick %d", e.G, e.P, e.M, e.Schedtick())
	},
	// Go-create and go-exit are appended piece by piece, not through
	// appendf: see scheduleWords.
	RuleNewproc: func(d *Describer, b []byte, e *Event) []byte {
		// "%v creates %v %s%s"
		b = AppendG(append(AppendG(b, e.Creator()), " creates "...), e.G)
		b = kickedNew(e).appendTo(d.into(e).appendTo(append(b, ' ')))
		if from := e.ReusedFrom(); from != NoG {
			// "; it reuses the descriptor %v left on %v's free list"
			b = append(AppendG(append(b, "; it reuses the descriptor "...), from), " left on "...)
			b = append(AppendP(b, e.P), "'s free list"...)
		}
		return b
	},
	RuleRunqputslow: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's ring is full (256): moved the %d oldest and %v to the global queue (now %d)", e.P, e.Moved()-1, e.G, e.GlobalLen())
	},
	RuleGfput: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's free list reached 64 descriptors: moved %d to the global list, %d stay", e.P, e.Moved(), e.Left())
	},
	RuleGfget: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v's free list was empty: took %d descriptors from the global list (%d left there)", e.P, e.Moved(), e.Left())
	},
	RuleGoexit: func(d *Describer, b []byte, e *Event) []byte {
		// "%v exits; its descriptor goes on %v's free list for the next go statement"
		b = append(AppendG(b, e.G), " exits; its descriptor goes on "...)
		return append(AppendP(b, e.P), "'s free list for the next go statement"...)
	},
	RuleMainReturn: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "main (%v) returned: the program exits with %s alive", e.G, plural(e.Alive(), "other goroutine", "other goroutines"))
	},
	RuleMainGoexit: func(d *Describer, b []byte, e *Event) []byte {
		return appendf(b, "%v (main) calls runtime.Goexit: it exits but the program goes on", e.G)
	},
}
