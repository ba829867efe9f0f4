package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
)

// This file checks a file against the rules of the Trace Event Format
// (the JSON format Chrome's trace viewer and Perfetto read), as its
// documentation states them, independently of how the exports write it:
//
//   - the file is a JSON array of event objects, or an object whose
//     traceEvents is one;
//   - every event has a phase (ph), a process and thread id, and, but for
//     metadata, a timestamp (ts, in microseconds);
//   - duration events B and E nest on each thread: an E ends the last B
//     still open on its thread, at or after it, and names it if it names
//     anything; nothing is left open;
//   - a complete event X has a duration, dur >= 0; with the B/E slices
//     of its thread it nests or follows, never overlaps part of one;
//   - an instant i has a scope s of g, p or t;
//   - a counter C has a name and args whose values are numbers;
//   - flow events s (start) and f (end) with the same cat and id are
//     one arrow: one of each, the same name, the end not before the
//     start; each binds to a slice of its thread, the start to the slice
//     enclosing it, the end to the enclosing slice with "bp":"e" and to
//     the next slice beginning at or after it otherwise;
//   - metadata M names processes and threads or orders them, with args.
//
// Beyond the format, and for the consumers that read it differently, a
// flow's end must bind to one slice whatever a consumer takes a slice's
// edges to be (so never on an edge shared by two slices), and never to
// the slice the flow starts in.

// traceStats is what validate saw.
type traceStats struct {
	phases map[string]int
	// slices are the complete slices on each thread, by process and
	// thread ("1/3").
	slices map[string][]span
	// counters holds each counter's records, by name and series
	// ("P0 ring/Gs"), in file order.
	counters map[string][]counterAt
	flows    []flowPair
	threads  map[string]string // thread names by "pid/tid"
	procs    map[int]string    // process names by pid
}

type span struct {
	begin, end float64
	depth      int
	name       string
}

type counterAt struct {
	ts float64
	v  float64
}

type flowPair struct {
	from, to       span
	fromTrk, toTrk string
}

func track(pid, tid float64) string { return fmt.Sprintf("%v/%v", pid, tid) }

// validate checks data against the format's rules and returns what it
// saw, or the first problems it found.
func validate(data []byte) (*traceStats, []error) {
	var errs []error
	fail := func(format string, args ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	var events []map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		var obj struct {
			TraceEvents []map[string]any `json:"traceEvents"`
		}
		if err := dec.Decode(&obj); err != nil {
			return nil, []error{fmt.Errorf("not a JSON object: %v", err)}
		}
		events = obj.TraceEvents
	} else if err := dec.Decode(&events); err != nil {
		return nil, []error{fmt.Errorf("not a JSON array of objects: %v", err)}
	}
	st := &traceStats{phases: map[string]int{}, slices: map[string][]span{}, counters: map[string][]counterAt{},
		threads: map[string]string{}, procs: map[int]string{}}
	num := func(v any) (float64, bool) {
		n, ok := v.(json.Number)
		if !ok {
			return 0, false
		}
		f, err := n.Float64()
		return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
	}
	type open struct {
		name string
		ts   float64
	}
	stacks := map[string][]open{}
	type flowEnd struct {
		ph, name, trk string
		ts            float64
		enclosing     bool
	}
	flows := map[string][]flowEnd{}
	var flowOrder []string
	for i, e := range events {
		ph, _ := e["ph"].(string)
		st.phases[ph]++
		pid, okPid := num(e["pid"])
		tid, okTid := num(e["tid"])
		ts, okTs := num(e["ts"])
		name, hasName := e["name"].(string)
		args, _ := e["args"].(map[string]any)
		if !okPid || !okTid {
			fail("event %d (%s) lacks a numeric pid or tid: %v", i, ph, e)
			continue
		}
		if ph != "M" && (!okTs || ts < 0) {
			fail("event %d (%s) lacks a timestamp: %v", i, ph, e)
			continue
		}
		trk := track(pid, tid)
		switch ph {
		case "B":
			if !hasName || name == "" {
				fail("event %d: a B without a name", i)
			}
			stacks[trk] = append(stacks[trk], open{name, ts})
		case "E":
			s := stacks[trk]
			if len(s) == 0 {
				fail("event %d: an E on thread %s with no B open", i, trk)
				continue
			}
			top := s[len(s)-1]
			if hasName && name != top.name {
				fail("event %d: an E named %q ends %q on thread %s", i, name, top.name, trk)
			}
			if ts < top.ts {
				fail("event %d: an E at %v before its B at %v", i, ts, top.ts)
			}
			stacks[trk] = s[:len(s)-1]
			st.slices[trk] = append(st.slices[trk], span{begin: top.ts, end: ts, name: top.name})
		case "X":
			dur, ok := num(e["dur"])
			if !ok || dur < 0 {
				fail("event %d: an X without a duration >= 0: %v", i, e)
				continue
			}
			if !hasName || name == "" {
				fail("event %d: an X without a name", i)
			}
			st.slices[trk] = append(st.slices[trk], span{begin: ts, end: ts + dur, name: name})
		case "i", "I":
			if s, ok := e["s"].(string); ok && s != "g" && s != "p" && s != "t" {
				fail("event %d: an instant of scope %q", i, s)
			}
			if !hasName {
				fail("event %d: an instant without a name", i)
			}
		case "C":
			if !hasName || name == "" || len(args) == 0 {
				fail("event %d: a counter without a name or values: %v", i, e)
				continue
			}
			for k, v := range args {
				f, ok := num(v)
				if !ok {
					fail("event %d: counter %q's %q is %v, not a number", i, name, k, v)
					continue
				}
				key := name + "/" + k
				st.counters[key] = append(st.counters[key], counterAt{ts, f})
			}
		case "s", "t", "f":
			id, hasID := e["id"]
			cat, _ := e["cat"].(string)
			if !hasID {
				fail("event %d: a flow event without an id", i)
				continue
			}
			key := fmt.Sprintf("%s/%v", cat, id)
			if _, seen := flows[key]; !seen {
				flowOrder = append(flowOrder, key)
			}
			bp, _ := e["bp"].(string)
			flows[key] = append(flows[key], flowEnd{ph, name, trk, ts, ph == "s" || bp == "e"})
		case "M":
			if args == nil {
				fail("event %d: metadata without args", i)
				continue
			}
			switch name {
			case "process_name":
				n, _ := args["name"].(string)
				st.procs[int(pid)] = n
			case "thread_name":
				n, _ := args["name"].(string)
				st.threads[trk] = n
			case "process_sort_index", "thread_sort_index":
				if _, ok := num(args["sort_index"]); !ok {
					fail("event %d: %s without a numeric sort_index", i, name)
				}
			case "process_labels":
			default:
				fail("event %d: unknown metadata %q", i, name)
			}
		default:
			fail("event %d: unknown phase %q", i, ph)
		}
	}
	for trk, s := range stacks {
		if len(s) > 0 {
			fail("thread %s: %d slices never end (the first %q from %v)", trk, len(s), s[0].name, s[0].ts)
		}
	}
	// Slices nest on each thread: sorted by start (the longer first at one
	// start), each lies inside the one open before it or after its end.
	for trk, ss := range st.slices {
		sort.SliceStable(ss, func(a, b int) bool {
			if ss[a].begin != ss[b].begin {
				return ss[a].begin < ss[b].begin
			}
			return ss[a].end > ss[b].end
		})
		var stack []*span
		for k := range ss {
			s := &ss[k]
			for len(stack) > 0 && stack[len(stack)-1].end <= s.begin {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && s.end > stack[len(stack)-1].end {
				top := stack[len(stack)-1]
				fail("thread %s: slice %q [%v, %v] overlaps part of %q [%v, %v]", trk, s.name, s.begin, s.end, top.name, top.begin, top.end)
			}
			s.depth = len(stack)
			stack = append(stack, s)
		}
	}
	// bind finds the slice a flow end binds to.
	bind := func(end flowEnd) (span, error) {
		ss := st.slices[end.trk]
		if !end.enclosing {
			if k := sort.Search(len(ss), func(k int) bool { return ss[k].begin >= end.ts }); k < len(ss) {
				return ss[k], nil
			}
			return span{}, fmt.Errorf("no slice begins at or after %v on thread %s", end.ts, end.trk)
		}
		// From the last slice to begin at or before ts back: a slice of
		// depth 0 that ends before ts ends the search, as every slice
		// before it ends before it begins.
		var best []span
		for k := sort.Search(len(ss), func(k int) bool { return ss[k].begin > end.ts }) - 1; k >= 0; k-- {
			s := ss[k]
			if s.end < end.ts {
				if s.depth == 0 {
					break
				}
				continue
			}
			switch {
			case len(best) == 0 || s.depth > best[0].depth:
				best = []span{s}
			case s.depth == best[0].depth:
				best = append(best, s)
			}
		}
		switch len(best) {
		case 0:
			return span{}, fmt.Errorf("no slice encloses %v on thread %s", end.ts, end.trk)
		case 1:
			return best[0], nil
		}
		return span{}, fmt.Errorf("%v is on the edge of %q and %q on thread %s: a consumer may bind it to either", end.ts, best[0].name, best[1].name, end.trk)
	}
	for _, key := range flowOrder {
		ends := flows[key]
		var s, f []flowEnd
		for _, e := range ends {
			switch e.ph {
			case "s":
				s = append(s, e)
			case "f":
				f = append(f, e)
			}
		}
		if len(s) != 1 || len(f) != 1 {
			fail("flow %s has %d starts and %d ends", key, len(s), len(f))
			continue
		}
		if s[0].name != f[0].name {
			fail("flow %s starts as %q and ends as %q", key, s[0].name, f[0].name)
		}
		if f[0].ts < s[0].ts {
			fail("flow %s ends at %v, before its start at %v", key, f[0].ts, s[0].ts)
		}
		from, err1 := bind(s[0])
		to, err2 := bind(f[0])
		if err1 != nil || err2 != nil {
			fail("flow %s: start: %v; end: %v", key, err1, err2)
			continue
		}
		if s[0].trk == f[0].trk && from == to {
			fail("flow %s starts and ends in the same slice %q [%v, %v]", key, from.name, from.begin, from.end)
		}
		st.flows = append(st.flows, flowPair{from, to, s[0].trk, f[0].trk})
	}
	return st, errs
}
