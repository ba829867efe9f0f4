package gofront

import (
	"math"
	"reflect"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// finish puts the items together once the whole program is read: the
// ranges over channels are counted, the g.Go calls of each errgroup
// become one group action, loops of a single go or submit become its
// count, plain code is merged, and the items become the model's actions.
func (t *translator) finish() []gmp.Op {
	if t.aborted {
		return nil
	}
	t.resolveRanges()
	t.checkPublished()
	t.checkFlags()
	items := t.normalize(t.main, true)
	if len(t.errs) > 0 {
		return nil
	}
	ops := t.convert(items)
	t.usedFlags = t.numberFlags(ops)
	t.numberSync(ops)
	return ops
}

// visitFunc sees an item with how many times it runs (mult) and whether
// that count is certain (not inside a range still uncounted, or a
// submit that may be rejected); ranges lists the uncounted ranges around
// it.
type visitFunc func(it *item, mult int64, certain bool, ranges []*rangeInfo)

func walk(items []item, mult int64, certain bool, ranges []*rangeInfo, visit visitFunc) {
	for i := range items {
		it := &items[i]
		visit(it, mult, certain, ranges)
		m, c, r := mult, certain, ranges
		switch it.kind {
		case iOp:
			switch {
			case it.op.Unbounded():
				m = unboundedMult
			case it.op.Kind == gmp.OpGo, it.op.Kind == gmp.OpLoop, it.op.Kind == gmp.OpSubmit:
				m = mulCap(m, int64(it.op.Count))
				if it.mayReject {
					c = false
				}
			}
		case iGroupGo:
			m = mulCap(m, int64(it.op.Count))
		case iRange:
			if it.rng.resolved {
				m = mulCap(m, it.rng.count)
			} else {
				c = false
				r = append(r[:len(r):len(r)], it.rng)
			}
		}
		walk(it.body, m, c, r, visit)
		for _, body := range it.cases {
			// Which case runs is not known: what a case does is not
			// counted for certain.
			walk(body, m, false, r, visit)
		}
	}
}

// unboundedMult is the count of what runs in a loop that never ends or
// ends on a flag: not a number.
const unboundedMult = -1

func mulCap(a, b int64) int64 {
	if a < 0 || b < 0 {
		return unboundedMult
	}
	if a != 0 && b > math.MaxInt64/4/a {
		return math.MaxInt64 / 4
	}
	return a * b
}

// resolveRanges counts, for each range over a channel, the values sent
// on it: the iterations of the range. A count that depends on another
// range is taken once that range is counted.
func (t *translator) resolveRanges() {
	var all []*rangeInfo
	walk(t.main, 1, true, nil, func(it *item, _ int64, _ bool, _ []*rangeInfo) {
		if it.kind == iRange {
			all = append(all, it.rng)
		}
	})
	failed := map[*rangeInfo]bool{}
	for progress := true; progress; {
		progress = false
		for _, r := range all {
			if r.resolved || failed[r] {
				continue
			}
			sends, ready := int64(0), true
			walk(t.main, 1, true, nil, func(it *item, mult int64, certain bool, ranges []*rangeInfo) {
				if failed[r] {
					return
				}
				inOwn := false
				for _, o := range ranges {
					inOwn = inOwn || o == r
				}
				switch {
				case it.kind == iRange && it.rng == r:
					if mult != 1 || !certain && len(ranges) == 0 {
						t.refuseAt(r.pos, "range chan shared", t.chans[r.ch].Name)
						failed[r] = true
					} else if !certain {
						ready = false
					}
				case it.kind == iRange && it.rng.ch == r.ch,
					it.kind == iOp && it.op.Kind == gmp.OpRecv && it.op.Chan == r.ch:
					t.refuseAt(r.pos, "range chan shared", t.chans[r.ch].Name)
					failed[r] = true
				case it.kind == iOp && it.op.Kind == gmp.OpSend && it.op.Chan == r.ch:
					switch {
					case mult < 0:
						t.errorAt(it.op.Pos, "range over a channel that is closed after a counted number of sends, or receive in a loop of your own",
							"a send on channel "+t.chans[r.ch].Name+", which is ranged over, in a loop that never ends or ends on a flag: the values cannot be counted")
						failed[r] = true
					case inOwn:
						t.errorAt(it.op.Pos, "send from another goroutine", "a send on channel "+t.chans[r.ch].Name+" inside its own range: the values cannot be counted")
						failed[r] = true
					case !certain && len(ranges) == 0:
						t.errorAt(it.op.Pos, "use a pool that blocks, or "+yamlHint,
							"a send on channel "+t.chans[r.ch].Name+", which is ranged over, in a task a pool may reject: the values cannot be counted")
						failed[r] = true
					case !certain:
						ready = false
					default:
						sends += mult
					}
				}
			})
			if ready && !failed[r] {
				r.count, r.resolved = sends, true
				progress = true
			}
		}
	}
	for _, r := range all {
		if !r.resolved && !failed[r] {
			t.errorAt(r.pos, yamlHint, "the values sent on channel "+t.chans[r.ch].Name+" cannot be counted: they are sent inside ranges that depend on each other")
		}
	}
}

// normalize assembles a list of items; top is main's own list, where a
// pool's Release may end the program.
func (t *translator) normalize(items []item, top bool) []item {
	var out []item
	for _, it := range items {
		var plain item
		it, plain = fold(it)
		if plain.units > 0 {
			out = append(out, plain)
		}
		it.body = t.normalize(it.body, false)
		if it.cases != nil {
			cases := make([][]item, len(it.cases))
			for i, b := range it.cases {
				cases[i] = t.normalize(b, false)
			}
			it.cases = cases
		}
		switch {
		case it.kind == iRange:
			recv := item{op: gmp.Op{Kind: gmp.OpRecv, Chan: it.rng.ch, Pos: it.rng.pos}}
			if it.rng.count > 0 {
				body := append([]item{recv}, it.body...)
				out = append(out, item{op: gmp.Op{Kind: gmp.OpLoop, Count: int(min(it.rng.count, math.MaxInt32)), Pos: it.rng.pos}, body: body})
			}
			it = recv
		}
		out = append(out, it)
	}
	out = t.mergeGroups(out)
	out = mergePlain(out)
	// A pool's Release ends main: nothing but other releases may follow.
	end := len(out)
	for end > 0 && out[end-1].kind == iRelease && top {
		end--
	}
	for _, it := range out[:end] {
		if it.kind == iRelease {
			t.errorAt(it.op.Pos, "release the pool as main's last act (defer p.Release() in main)",
				"a pool's Release before main's end is not modelled: the model's pool is never released")
		}
	}
	return out[:end]
}

// fold makes a loop whose body is a single go, submit or g.Go that
// action, counted: for range N { go f() } is go: {count: N}. The g.Go
// calls of a group are one action in the model, so plain code beside
// them in the loop is counted before the group (returned apart).
func fold(it item) (item, item) {
	if it.kind != iOp || it.op.Kind != gmp.OpLoop || it.op.Unbounded() {
		return it, item{}
	}
	var body []item
	for _, b := range it.body {
		b, p := fold(b)
		if p.units > 0 {
			body = append(body, p)
		}
		body = append(body, b)
	}
	it.body = body
	plain := item{kind: iPlain}
	var single []item
	for _, b := range body {
		if b.kind == iPlain {
			plain.op, plain.units = b.op, plain.units+b.units
			continue
		}
		single = append(single, b)
	}
	if len(single) != 1 || !foldable(single[0]) || plain.units > 0 && single[0].kind != iGroupGo {
		return it, item{}
	}
	inner := single[0]
	inner.op.Count = int(min(mulCap(int64(inner.op.Count), int64(it.op.Count)), math.MaxInt32))
	plain.units *= float64(it.op.Count)
	return inner, plain
}

func foldable(it item) bool {
	return it.kind == iGroupGo || it.kind == iOp && (it.op.Kind == gmp.OpGo || it.op.Kind == gmp.OpSubmit)
}

// mergeGroups turns each run of g.Go calls of one group, and the g.Wait
// after them, into a group action.
func (t *translator) mergeGroups(list []item) []item {
	var out, plain []item
	var open *group
	var acc item
	for _, it := range list {
		switch it.kind {
		case iGroupGo:
			switch {
			case open == nil:
				open = it.grp
				acc = item{op: gmp.Op{Kind: gmp.OpGroup, Limit: it.op.Limit, Count: it.op.Count, Pos: it.op.Pos}, body: it.body}
			case it.grp != open:
				t.errorAt(it.op.Pos, "wait for one group before starting another's tasks", "a g.Go of another group between the first g.Go of a group and its g.Wait: the model's errgroup is Go … Wait as one action")
			case !reflect.DeepEqual(t.convert(it.body), t.convert(acc.body)):
				t.errorAt(it.op.Pos, "make every task of a group run the same code, or use one group per kind of task",
					"this g.Go runs other code than the one at "+acc.op.Pos.String()+": the model's errgroup runs one task body")
			default:
				acc.op.Count = int(min(int64(acc.op.Count)+int64(it.op.Count), math.MaxInt32))
			}
		case iGroupWait:
			out = append(out, plain...)
			plain = nil
			switch {
			case open == nil:
				out = append(out, item{op: gmp.Op{Kind: gmp.OpGroup, Limit: it.grp.limit, Pos: it.op.Pos}})
			case it.grp != open:
				t.errorAt(it.op.Pos, "", "g.Wait of another group before this group's g.Wait")
			default:
				out = append(out, acc)
				open = nil
			}
		default:
			if open != nil {
				if it.kind == iPlain {
					// Plain code between the g.Go calls is counted before
					// the group.
					plain = append(plain, it)
					continue
				}
				t.errorAt(it.op.Pos, "move this before the first g.Go or after g.Wait",
					"between g.Go (at "+acc.op.Pos.String()+") and g.Wait the model's errgroup runs only g.Go calls")
				continue
			}
			out = append(out, it)
		}
	}
	if open != nil {
		t.errorAt(acc.op.Pos, "call g.Wait in the function that calls g.Go, after the g.Go calls",
			"g.Go without g.Wait after it in the same function (outside a loop of its own): the model's errgroup is Go … Wait as one action")
	}
	return out
}

func mergePlain(list []item) []item {
	var out []item
	for _, it := range list {
		if it.kind == iPlain && len(out) > 0 && out[len(out)-1].kind == iPlain {
			out[len(out)-1].units += it.units
			continue
		}
		out = append(out, it)
	}
	return out
}

// convert makes the model's actions of normalized items.
func (t *translator) convert(items []item) []gmp.Op {
	out := make([]gmp.Op, 0, len(items))
	for _, it := range items {
		switch it.kind {
		case iPlain:
			ns := it.units * 1000 / t.rate
			if ns < 0.5 {
				continue
			}
			d := time.Duration(min(math.Round(ns), float64(scenarios.MaxDuration)+1))
			out = append(out, gmp.Op{Kind: gmp.OpCPU, Dur: gmp.Fixed(d), Pos: it.op.Pos})
		case iOp:
			op := it.op
			switch op.Kind {
			case gmp.OpGo, gmp.OpLoop, gmp.OpSubmit, gmp.OpGroup:
				op.Body = t.convert(it.body)
			case gmp.OpSelect:
				op.Cases = append([]gmp.SelectCase(nil), op.Cases...)
				for i := range op.Cases {
					if i < len(it.cases) {
						op.Cases[i].Body = t.convert(it.cases[i])
					}
				}
			}
			out = append(out, op)
		}
	}
	return out
}
