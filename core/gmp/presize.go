package gmp

// Pre-sizing the goroutine table from the program. The machine keeps a
// record for every goroutine id a run hands out (gtable.ids and descOf),
// added a block of gChunk at a time: an allocation per table per 512
// goroutines, which made them the most frequent allocation left in a
// run. Most
// programs say how many goroutines they start (go statements with a
// count, inside loops with a count), so New reserves the blocks for that
// many in one allocation each, and the run itself allocates only when a
// program starts more than that (pools, or a count New cannot see).

// maxPresizedIDs caps the reservation: a program that says it starts
// more goroutines may well be stopped long before (--until, the event
// limit, the UI), and the reservation is held for the whole run. 2M ids
// are 32 MB; the pages are not touched until goroutines use them.
const maxPresizedIDs = 1 << 21

// goroutinesIn counts the goroutines that running ops once starts: go
// statements and errgroup goroutines, with what their bodies start,
// multiplied by the loops around them; of a select's cases, the most any
// one starts. Pool workers are not counted:
// how many a pool starts depends on the run. The count saturates at
// limit.
func goroutinesIn(ops []Op, limit int) int {
	n := 0
	for i := range ops {
		op := &ops[i]
		per := 0
		switch op.Kind {
		case OpGo, OpGroup:
			per = 1 + goroutinesIn(op.Body, limit)
		case OpLoop:
			per = goroutinesIn(op.Body, limit)
		case OpSelect:
			// One case runs: the one that starts the most bounds it.
			for k := range op.Cases {
				per = max(per, goroutinesIn(op.Cases[k].Body, limit))
			}
			n += per
			per = 0
		}
		if op.Count > 0 && per > 0 {
			n += min(op.Count, limit) * min(per, limit) // both ≤ 2^21: no overflow
		}
		if n >= limit {
			return limit
		}
	}
	return n
}

// MaxGoroutine returns the highest goroutine id a run of p can reach, and
// whether it is known. Main is G1 and ids follow creation order, so it is
// 1 plus what main starts; a program with pools is not known, as its
// workers and purge goroutines start as the run goes, nor is one that
// starts more than maxPresizedIDs.
func (p *Program) MaxGoroutine() (GID, bool) {
	if len(p.Pools) > 0 {
		return NoG, false
	}
	n := goroutinesIn(p.Main, maxPresizedIDs)
	if n >= maxPresizedIDs {
		return NoG, false
	}
	return GID(1 + n), true
}
