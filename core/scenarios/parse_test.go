package scenarios

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// at returns a position in file.
func at(file string, line, col int) gmp.Pos { return gmp.Pos{File: file, Line: line, Col: col} }

// dumpOps renders an op tree one op per line, for failure messages.
func dumpOps(ops []gmp.Op) string {
	var b strings.Builder
	var walk func(ops []gmp.Op, indent string)
	walk = func(ops []gmp.Op, indent string) {
		for _, op := range ops {
			fmt.Fprintf(&b, "%s%v dur=%v count=%d chan=%d block=%v at %v\n", indent, op.Kind, op.Dur, op.Count, op.Chan, op.Block, op.Pos)
			walk(op.Body, indent+"  ")
		}
	}
	walk(ops, "\t")
	return b.String()
}

func mustParse(t *testing.T, file, src string) *Scenario {
	t.Helper()
	sc, err := Parse(file, []byte(src))
	if err != nil {
		t.Fatalf("Parse(%q) failed:\n%v", file, err)
	}
	if sc == nil {
		t.Fatalf("Parse(%q) returned neither a scenario nor an error", file)
	}
	return sc
}

const fullSrc = `name: steal                  # optional; defaults to the file name
title: Work stealing
summary: One P creates 64 goroutines; the idle P's M wakes, spins and steals half.
procs: 2                     # GOMAXPROCS, required
seed: 7
until: 200ms
chans: {done: 0, jobs: 8}
main:
  - go:
      count: 64
      do:
        - cpu: 1ms
        - send: jobs
  - cpu: 20ms
  - loop:
      times: 64
      do: [{recv: jobs}]
  - syscall: {for: 2ms, block: true}
  - sleep: {uniform: [1ms, 3ms]}
  - net: {exp: 2ms}
  - gosched
  - close: done
  - wait: children
  - exit
notes:
  - at: 1.5ms
    text: Each go statement puts the new G in runnext.
  - on: steal
    text: P1 stole half of P0's ring.
`

func TestParseFullFile(t *testing.T) {
	const file = "dir/steal.yaml"
	sc := mustParse(t, file, fullSrc)
	p := func(line, col int) gmp.Pos { return at(file, line, col) }
	want := &Scenario{
		Name:    "steal",
		Title:   "Work stealing",
		Summary: "One P creates 64 goroutines; the idle P's M wakes, spins and steals half.",
		File:    file,
		Procs:   2,
		Seed:    7,
		Until:   200 * time.Millisecond,
		Chans: []gmp.ChanDecl{
			{Name: "done", Cap: 0, Pos: p(7, 9)},
			{Name: "jobs", Cap: 8, Pos: p(7, 18)},
		},
		Main: []gmp.Op{
			{Kind: gmp.OpGo, Count: 64, Pos: p(9, 5), Body: []gmp.Op{
				{Kind: gmp.OpCPU, Dur: gmp.Fixed(time.Millisecond), Pos: p(12, 11)},
				{Kind: gmp.OpSend, Chan: 1, Pos: p(13, 11)},
			}},
			{Kind: gmp.OpCPU, Dur: gmp.Fixed(20 * time.Millisecond), Pos: p(14, 5)},
			{Kind: gmp.OpLoop, Count: 64, Pos: p(15, 5), Body: []gmp.Op{
				{Kind: gmp.OpRecv, Chan: 1, Pos: p(17, 13)},
			}},
			{Kind: gmp.OpSyscall, Dur: gmp.Fixed(2 * time.Millisecond), Block: true, Pos: p(18, 5)},
			{Kind: gmp.OpSleep, Dur: gmp.Dur{Kind: gmp.DurUniform, A: time.Millisecond, B: 3 * time.Millisecond}, Pos: p(19, 5)},
			{Kind: gmp.OpNet, Dur: gmp.Dur{Kind: gmp.DurExp, A: 2 * time.Millisecond}, Pos: p(20, 5)},
			{Kind: gmp.OpGosched, Pos: p(21, 5)},
			{Kind: gmp.OpClose, Chan: 0, Pos: p(22, 5)},
			{Kind: gmp.OpWait, Pos: p(23, 5)},
			{Kind: gmp.OpExit, Pos: p(24, 5)},
		},
		Notes: []Note{
			{Moment: gmp.Moment{At: 1500 * time.Microsecond, HasAt: true}, Text: "Each go statement puts the new G in runnext.", Pos: p(26, 5)},
			{Moment: gmp.Moment{On: gmp.KindSteal}, Text: "P1 stole half of P0's ring.", Pos: p(28, 5)},
		},
		Source: []byte(fullSrc),
	}
	if !reflect.DeepEqual(sc.Main, want.Main) {
		t.Errorf("Main:\n%s\nwant:\n%s", dumpOps(sc.Main), dumpOps(want.Main))
	}
	if !reflect.DeepEqual(sc.Notes, want.Notes) {
		t.Errorf("Notes = %+v\nwant %+v", sc.Notes, want.Notes)
	}
	if !reflect.DeepEqual(sc.Chans, want.Chans) {
		t.Errorf("Chans = %+v\nwant %+v", sc.Chans, want.Chans)
	}
	if !reflect.DeepEqual(sc, want) {
		t.Errorf("Scenario = %+v\nwant %+v", *sc, *want)
	}

	// The derived program and configuration carry the same values.
	prog := sc.Program()
	if prog.Name != "steal" || !reflect.DeepEqual(prog.Main, want.Main) || !reflect.DeepEqual(prog.Chans, want.Chans) {
		t.Errorf("Program() = %+v", prog)
	}
	if cfg := sc.Config(); cfg.Procs != 2 || cfg.Seed != 7 || cfg.Until != 200*time.Millisecond {
		t.Errorf("Config() = procs %d seed %d until %v, want 2 7 200ms", cfg.Procs, cfg.Seed, cfg.Until)
	}
}

// validCases check defaults and the short forms.
var validCases = []struct {
	name, file, src string
	wantName        string
	wantSeed        uint64
	wantProcs       int
	wantMain        func(file string) []gmp.Op
}{
	{
		name: "defaults", file: "dir/my-case.yaml",
		src:      "procs: 3\nmain:\n  - go:\n      do: [cpu: 1ms]\n",
		wantName: "my-case", wantSeed: 1, wantProcs: 3,
		wantMain: func(f string) []gmp.Op {
			return []gmp.Op{{Kind: gmp.OpGo, Count: 1, Pos: at(f, 3, 5), Body: []gmp.Op{
				{Kind: gmp.OpCPU, Dur: gmp.Fixed(time.Millisecond), Pos: at(f, 4, 12)},
			}}}
		},
	},
	{
		name: "yml extension and seed 0", file: "/abs/path/other.yml",
		src:      "procs: 1\nseed: 0\nmain: []\n",
		wantName: "other", wantSeed: 0, wantProcs: 1,
		wantMain: func(string) []gmp.Op { return []gmp.Op{} },
	},
	{
		name: "go list shorthand", file: "s.yaml",
		src:      "procs: 1\nmain:\n  - go: [{cpu: 1ms}, gosched, exit]\n",
		wantName: "s", wantSeed: 1, wantProcs: 1,
		wantMain: func(f string) []gmp.Op {
			return []gmp.Op{{Kind: gmp.OpGo, Count: 1, Pos: at(f, 3, 5), Body: []gmp.Op{
				{Kind: gmp.OpCPU, Dur: gmp.Fixed(time.Millisecond), Pos: at(f, 3, 11)},
				{Kind: gmp.OpGosched, Pos: at(f, 3, 22)},
				{Kind: gmp.OpExit, Pos: at(f, 3, 31)},
			}}}
		},
	},
	{
		name: "syscall forms", file: "s.yaml",
		src: "procs: 1\nmain:\n  - syscall: {for: 2ms, block: true}\n  - syscall: {for: 3ms}\n" +
			"  - syscall: {for: {exp: 1ms}, block: false}\n  - syscall: 4ms\n",
		wantName: "s", wantSeed: 1, wantProcs: 1,
		wantMain: func(f string) []gmp.Op {
			return []gmp.Op{
				{Kind: gmp.OpSyscall, Dur: gmp.Fixed(2 * time.Millisecond), Block: true, Pos: at(f, 3, 5)},
				{Kind: gmp.OpSyscall, Dur: gmp.Fixed(3 * time.Millisecond), Pos: at(f, 4, 5)},
				{Kind: gmp.OpSyscall, Dur: gmp.Dur{Kind: gmp.DurExp, A: time.Millisecond}, Pos: at(f, 5, 5)},
				{Kind: gmp.OpSyscall, Dur: gmp.Fixed(4 * time.Millisecond), Pos: at(f, 6, 5)},
			}
		},
	},
	{
		name: "duration forms", file: "s.yaml",
		src: "procs: 1\nmain:\n  - cpu: 1.5ms\n  - net: 20us\n  - cpu: 0\n  - sleep: 2s\n" +
			"  - cpu: {uniform: [1ms, 3ms]}\n  - sleep: {exp: 250us}\n  - cpu: {uniform: [2ms, 2ms]}\n",
		wantName: "s", wantSeed: 1, wantProcs: 1,
		wantMain: func(f string) []gmp.Op {
			return []gmp.Op{
				{Kind: gmp.OpCPU, Dur: gmp.Fixed(1500 * time.Microsecond), Pos: at(f, 3, 5)},
				{Kind: gmp.OpNet, Dur: gmp.Fixed(20 * time.Microsecond), Pos: at(f, 4, 5)},
				{Kind: gmp.OpCPU, Dur: gmp.Fixed(0), Pos: at(f, 5, 5)},
				{Kind: gmp.OpSleep, Dur: gmp.Fixed(2 * time.Second), Pos: at(f, 6, 5)},
				{Kind: gmp.OpCPU, Dur: gmp.Dur{Kind: gmp.DurUniform, A: time.Millisecond, B: 3 * time.Millisecond}, Pos: at(f, 7, 5)},
				{Kind: gmp.OpSleep, Dur: gmp.Dur{Kind: gmp.DurExp, A: 250 * time.Microsecond}, Pos: at(f, 8, 5)},
				{Kind: gmp.OpCPU, Dur: gmp.Dur{Kind: gmp.DurUniform, A: 2 * time.Millisecond, B: 2 * time.Millisecond}, Pos: at(f, 9, 5)},
			}
		},
	},
	{
		name: "anchors and aliases reuse a body", file: "s.yaml",
		src: `procs: 1
main:
  - go: &w
      count: 2
      do: &body
        - cpu: 1ms
        - gosched
  - go: *w
  - loop: {times: 3, do: *body}
  - cpu: &d 5ms
  - sleep: *d
`,
		wantName: "s", wantSeed: 1, wantProcs: 1,
		wantMain: func(f string) []gmp.Op {
			body := func() []gmp.Op {
				return []gmp.Op{
					{Kind: gmp.OpCPU, Dur: gmp.Fixed(time.Millisecond), Pos: at(f, 6, 11)},
					{Kind: gmp.OpGosched, Pos: at(f, 7, 11)},
				}
			}
			return []gmp.Op{
				{Kind: gmp.OpGo, Count: 2, Pos: at(f, 3, 5), Body: body()},
				{Kind: gmp.OpGo, Count: 2, Pos: at(f, 8, 5), Body: body()},
				{Kind: gmp.OpLoop, Count: 3, Pos: at(f, 9, 5), Body: body()},
				{Kind: gmp.OpCPU, Dur: gmp.Fixed(5 * time.Millisecond), Pos: at(f, 10, 5)},
				{Kind: gmp.OpSleep, Dur: gmp.Fixed(5 * time.Millisecond), Pos: at(f, 11, 5)},
			}
		},
	},
	{
		name: "alias of a whole action", file: "s.yaml",
		src:      "procs: 1\nchans: {c: 1}\nmain:\n  - &s {send: c}\n  - *s\n  - recv: c\n",
		wantName: "s", wantSeed: 1, wantProcs: 1,
		wantMain: func(f string) []gmp.Op {
			return []gmp.Op{
				{Kind: gmp.OpSend, Pos: at(f, 4, 5)},
				{Kind: gmp.OpSend, Pos: at(f, 5, 5)},
				{Kind: gmp.OpRecv, Pos: at(f, 6, 5)},
			}
		},
	},
	{
		name: "keys in any order, chans after main", file: "s.yaml",
		src:      "main: [{send: b}, {close: a}]\nchans: {a: 0, b: 1}\nseed: 42\nprocs: 4\nname: named\n",
		wantName: "named", wantSeed: 42, wantProcs: 4,
		wantMain: func(f string) []gmp.Op {
			return []gmp.Op{
				{Kind: gmp.OpSend, Chan: 1, Pos: at(f, 1, 9)},
				{Kind: gmp.OpClose, Chan: 0, Pos: at(f, 1, 20)},
			}
		},
	},
}

func TestParseValid(t *testing.T) {
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			sc := mustParse(t, tc.file, tc.src)
			if sc.Name != tc.wantName {
				t.Errorf("Name = %q, want %q", sc.Name, tc.wantName)
			}
			if sc.Seed != tc.wantSeed {
				t.Errorf("Seed = %d, want %d", sc.Seed, tc.wantSeed)
			}
			if sc.Procs != tc.wantProcs {
				t.Errorf("Procs = %d, want %d", sc.Procs, tc.wantProcs)
			}
			if sc.File != tc.file {
				t.Errorf("File = %q, want %q", sc.File, tc.file)
			}
			if string(sc.Source) != tc.src {
				t.Errorf("Source is not the input")
			}
			if want := tc.wantMain(tc.file); !reflect.DeepEqual(sc.Main, want) {
				t.Errorf("Main:\n%s\nwant:\n%s", dumpOps(sc.Main), dumpOps(want))
			}
		})
	}
}

// wantErr is one expected error: its exact position (line:col), a part of
// its message and a part of its hint.
type wantErr struct {
	pos  string
	msg  string
	hint string
}

// actions prefixes a list of actions with a valid header; the first action
// is on line 4.
const actions = "procs: 1\nchans: {done: 0}\nmain:\n"

// notesHdr prefixes a list of notes; the first note is on line 4.
const notesHdr = "procs: 1\nmain: []\nnotes:\n"

// errorCases are invalid files.
var errorCases = []struct {
	name string
	src  string
	want []wantErr
}{
	{name: "yaml syntax: unclosed flow sequence",
		src:  actions + "  - cpu: 1ms\n  - sleep: [2ms\n",
		want: []wantErr{{"5:12", "YAML syntax: sequence end token ']' not found", "indentation"}}},
	{name: "yaml syntax: tab indentation",
		src:  actions + "  - cpu: 1ms\n\t- sleep: 2ms\n",
		want: []wantErr{{"5:1", `YAML syntax: found character '\t' that cannot start any token`, "indentation"}}},
	{name: "yaml syntax: unterminated string",
		src:  "procs: 1\ntitle: \"Work\nmain: []\n",
		want: []wantErr{{"2:8", "YAML syntax: could not find end character of double-quoted text", "indentation"}}},
	{name: "empty file",
		src:  "",
		want: []wantErr{{"1:1", "the file is empty", "procs: and main:"}}},
	{name: "only comments",
		src:  "# a scenario\n\n# nothing yet\n",
		want: []wantErr{{"1:1", "the file is empty", "procs: and main:"}}},
	{name: "top level is a list",
		src:  "\n\n- cpu: 1ms\n",
		want: []wantErr{{"3:1", "a scenario must be a mapping of keys, not a list", "procs: and main:"}}},
	{name: "top level is a word",
		src:  "hello\n",
		want: []wantErr{{"1:1", `a scenario must be a mapping of keys, not "hello"`, "procs: and main:"}}},
	{name: "unknown top-level key with a suggestion",
		src: "prcs: 2\nmain: []\n",
		want: []wantErr{
			{"1:1", `unknown key "prcs" in scenario`, "did you mean procs?"},
			{"1:1", "procs is missing", "procs: 2"},
		}},
	{name: "unknown top-level key without a suggestion",
		src:  "procs: 2\nmain: []\ncolour: red\n",
		want: []wantErr{{"3:1", `unknown key "colour" in scenario`, "known keys: name, title, summary, procs, seed, until, max_events, policy, noise, start, cpus, load, expect, chans, pools, sems, mutexes, rwmutexes, waitgroups, main, notes, ask"}}},
	{name: "missing procs",
		src:  "main: []\n",
		want: []wantErr{{"1:1", "procs is missing", "GOMAXPROCS"}}},
	{name: "missing main",
		src:  "title: x\nprocs: 2\n",
		want: []wantErr{{"1:1", "main is missing", "main: [{cpu: 1ms}]"}}},
	{name: "procs 0",
		src:  "procs: 0\nmain: []\n",
		want: []wantErr{{"1:8", "procs is 0, out of range", "between 1 and 1024"}}},
	{name: "procs 2000",
		src:  "main: []\nprocs:   2000\n",
		want: []wantErr{{"2:10", "procs is 2000, out of range", "between 1 and 1024"}}},
	{name: "procs not a number",
		src:  "procs: two\nmain: []\n",
		want: []wantErr{{"1:8", `procs must be a whole number, not "two"`, "between 1 and 1024"}}},
	{name: "cpus 0",
		src:  "procs: 2\ncpus: 0\nmain: []\n",
		want: []wantErr{{"2:7", "cpus is 0, out of range", "between 1 and 1024"}}},
	{name: "load too big",
		src:  "procs: 2\nload: 5000\nmain: []\n",
		want: []wantErr{{"2:7", "load is 5000, out of range", "between 0 and 1024"}}},
	{name: "negative seed",
		src:  "procs: 1\nseed: -1\nmain: []\n",
		want: []wantErr{{"2:7", "seed is -1, out of range", "between 0 and"}}},
	{name: "invalid name",
		src:  "name: Bad Name\nprocs: 1\nmain: []\n",
		want: []wantErr{{"1:7", `name "Bad Name" is not a valid scenario name`, "lower-case"}}},
	{name: "until zero",
		src:  "procs: 1\nuntil: 0s\nmain: []\n",
		want: []wantErr{{"2:8", "until must be greater than zero", "leave until out"}}},
	{name: "bad duration",
		src:  actions + "  - cpu: 1x\n",
		want: []wantErr{{"4:10", `"1x" is not a duration`, "1.5ms, 20us"}}},
	{name: "duration without unit",
		src:  actions + "  - cpu: 5\n",
		want: []wantErr{{"4:10", `duration "5" has no unit`, "add a unit: 5ms or 5us"}}},
	{name: "negative duration",
		src:  actions + "  - cpu: 1ms\n  - sleep: -1ms\n",
		want: []wantErr{{"5:12", "sleep is negative (-1ms)", "zero or more"}}},
	{name: "uniform high below low",
		src:  actions + "  - net: {uniform: [3ms, 1ms]}\n",
		want: []wantErr{{"4:26", "uniform's high 1ms is below its low 3ms", "smaller duration first"}}},
	{name: "uniform with one value",
		src:  actions + "  - cpu: {uniform: [3ms]}\n",
		want: []wantErr{{"4:20", "uniform needs a list of two durations", "uniform: [1ms, 3ms]"}}},
	{name: "exp without mean",
		src:  actions + "  - cpu: {exp: }\n",
		want: []wantErr{{"4:15", "exp mean must be a duration, not nothing", "Go duration"}}},
	{name: "exp with zero mean",
		src:  actions + "  - cpu: {exp: 0s}\n",
		want: []wantErr{{"4:16", "exp needs a mean greater than zero", "exp: 2ms"}}},
	{name: "empty distribution",
		src:  actions + "  - cpu: {}\n",
		want: []wantErr{{"4:10", "cpu needs exactly one distribution", "{uniform: [1ms, 3ms]} or {exp: 2ms}"}}},
	{name: "unknown action with a suggestion",
		src:  actions + "  - slep: 1ms\n",
		want: []wantErr{{"4:5", `unknown action "slep"`, "did you mean sleep?"}}},
	{name: "unknown bare word",
		src:  actions + "  - cpu: 1ms\n  - yield\n",
		want: []wantErr{{"5:5", `unknown action "yield"`, "actions: cpu, syscall, sleep, net, gosched, go, loop, send, recv, close, wait, exit"}}},
	{name: "action with two keys",
		src:  actions + "  - cpu: 1ms\n    sleep: 2ms\n",
		want: []wantErr{{"4:5", "one action per list item, but this one has 2 keys (cpu, sleep)", "- cpu: …"}}},
	{name: "action with two keys, flow style",
		src:  actions + "  - {cpu: 1ms, sleep: 2ms}\n",
		want: []wantErr{{"4:6", "one action per list item, but this one has 2 keys (cpu, sleep)", "- cpu: …"}}},
	{name: "bare word that needs a value",
		src:  actions + "  - cpu\n",
		want: []wantErr{{"4:5", "action cpu needs a duration", "cpu: 1ms"}}},
	{name: "bare go",
		src:  actions + "  - go\n",
		want: []wantErr{{"4:5", "action go needs a mapping with count and do", "go: {count: 4, do: [{cpu: 1ms}]}"}}},
	{name: "duration action with an empty value",
		src:  actions + "  - cpu: 1ms\n  - sleep:\n",
		want: []wantErr{{"5:5", "action sleep needs a duration", "sleep: 1ms"}}},
	{name: "gosched with a value",
		src:  actions + "  - gosched: 1ms\n",
		want: []wantErr{{"4:14", "gosched takes no value", "bare word gosched"}}},
	{name: "go without do",
		src:  actions + "  - go:\n      count: 2\n",
		want: []wantErr{{"5:7", "go has no do:", "each new goroutine"}}},
	{name: "go count 0",
		src:  actions + "  - go: {count: 0, do: []}\n",
		want: []wantErr{{"4:17", "go count is 0, out of range", "between 1 and 1000000"}}},
	{name: "go with an unknown key",
		src:  actions + "  - go: {cuont: 2, do: []}\n",
		want: []wantErr{{"4:10", `unknown key "cuont" in go`, "did you mean count?"}}},
	{name: "loop without times",
		src:  actions + "  - loop: {do: [gosched]}\n",
		want: []wantErr{{"4:12", "loop has no times:", "how often"}}},
	{name: "loop without do",
		src:  actions + "  - loop:\n      times: 3\n",
		want: []wantErr{{"5:7", "loop has no do:", "actions to repeat"}}},
	{name: "undeclared channel",
		src:  actions + "  - send: jobs\n",
		want: []wantErr{{"4:11", `channel "jobs" is not declared`, "declare it under chans:, e.g. chans: {jobs: 0}"}}},
	{name: "undeclared channel with a suggestion",
		src:  actions + "  - cpu: 1ms\n  - close: don\n",
		want: []wantErr{{"5:12", `channel "don" is not declared`, "did you mean done?"}}},
	{name: "channel declared twice",
		src:  "procs: 1\nchans: {done: 0, done: 1}\nmain: []\n",
		want: []wantErr{{"2:18", `mapping key "done" already defined`, "indentation"}}},
	{name: "channel capacity negative",
		src:  "procs: 1\nchans:\n  c: -1\nmain: []\n",
		want: []wantErr{{"3:6", "capacity of channel c is -1, out of range", "between 0 and 1000000"}}},
	{name: "wait parents",
		src:  actions + "  - wait: parents\n",
		want: []wantErr{{"4:11", "wait takes the word children", "wait: children"}}},
	{name: "note with both at and on",
		src:  notesHdr + "  - at: 1ms\n    on: steal\n    text: x\n",
		want: []wantErr{{"4:5", "a note has either at: or on:, not both", "keep one"}}},
	{name: "note with an unknown kind and a suggestion",
		src:  notesHdr + "  - on: m-parks\n    text: x\n",
		want: []wantErr{{"4:9", `unknown event kind "m-parks"`, "did you mean m-park?"}}},
	{name: "note with an unknown kind and no suggestion",
		src:  notesHdr + "  - on: gizmo\n    text: x\n",
		want: []wantErr{{"4:9", `unknown event kind "gizmo"`, "event kinds: go-create, go-start"}}},
	{name: "note without text",
		src:  notesHdr + "  - at: 2ms\n",
		want: []wantErr{{"4:5", "a note has no text:", "caption"}}},
	{name: "note with blank text",
		src:  notesHdr + "  - on: steal\n    text: \"  \"\n",
		want: []wantErr{{"5:11", "a note's text is empty", "caption"}}},
	{name: "note with neither at nor on",
		src:  notesHdr + "  - text: z\n",
		want: []wantErr{{"4:5", "a note needs at: (a time) or on: (an event kind)", "at: 1ms or on: steal"}}},
	{name: "alias to an unknown anchor",
		src:  "procs: 1\nmain: [*body]\n",
		want: []wantErr{{"2:8", "alias *body names no anchor", "define it first with &body"}}},
	{name: "a second document",
		src:  "procs: 1\nmain: []\n---\nprocs: 2\nmain: []\n",
		want: []wantErr{{"4:1", "a second YAML document", "one scenario per file"}}},
	{name: "loops nested too deep through a recursive alias",
		src:  actions + "  - &a {loop: {times: 1, do: [*a]}}\n",
		want: []wantErr{{"4:9", "loops nested more than 5 deep in one goroutine", "start a goroutine"}}},
	{name: "actions nested too deep through a recursive alias of go",
		src:  actions + "  - &a {go: [*a]}\n",
		want: []wantErr{{"4:13", "actions nested more than 32 deep", "flatten"}}},
	{name: "several mistakes, in file order",
		src: "name: Bad Name\nprocs: 0\nchans: {c: -1}\nmain:\n  - cpu: 1x\n  - slep: 1ms\n  - send: d\n" +
			"notes:\n  - on: m-parks\n    text: x\n",
		want: []wantErr{
			{"1:7", `name "Bad Name" is not a valid scenario name`, "lower-case"},
			{"2:8", "procs is 0, out of range", "between 1 and 1024"},
			{"3:12", "capacity of channel c is -1, out of range", "between 0 and"},
			{"5:10", `"1x" is not a duration`, "Go duration"},
			{"6:5", `unknown action "slep"`, "did you mean sleep?"},
			{"7:11", `channel "d" is not declared`, "chans: {d: 0}"},
			{"9:9", `unknown event kind "m-parks"`, "did you mean m-park?"},
		}},

	// Found by FuzzParse: an empty mapping as an action.
	{name: "empty mapping as an action",
		src:  "procs: 1\nmain: [{}]\n",
		want: []wantErr{{"2:8", "", ""}}},

	{name: "errors in file order when keys are out of order",
		src: "main: [{cpu: 1x}]\nprocs: 0\n",
		want: []wantErr{
			{"1:14", `"1x" is not a duration`, "Go duration"},
			{"2:8", "procs is 0, out of range", "between 1 and 1024"},
		}},
	{name: "exp zero mean after an earlier mistake",
		src: actions + "  - cpu: 1x\n  - cpu: {exp: 0s}\n",
		want: []wantErr{
			{"4:10", `"1x" is not a duration`, "Go duration"},
			{"5:16", "exp needs a mean greater than zero", "exp: 2ms"},
		}},
	{name: "empty distribution after an earlier mistake",
		src: actions + "  - cpu: 1x\n  - cpu: {}\n",
		want: []wantErr{
			{"4:10", `"1x" is not a duration`, "Go duration"},
			{"5:10", "cpu needs exactly one distribution", "uniform"},
		}},
	{name: "until zero after an earlier mistake",
		src: "procs: 0\nuntil: 0s\nmain: []\n",
		want: []wantErr{
			{"1:8", "procs is 0, out of range", "between 1 and 1024"},
			{"2:8", "until must be greater than zero", "leave until out"},
		}},
	{name: "note kind with swapped letters",
		src:  notesHdr + "  - on: stael\n    text: x\n",
		want: []wantErr{{"4:9", `unknown event kind "stael"`, "did you mean steal?"}}},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			checkErrors(t, "dir/bad.yaml", tc.src, tc.want)
		})
	}
}

// checkErrors parses src as file and holds the errors against want, in
// order: position, and words in the message and the hint.
func checkErrors(t *testing.T, file, src string, want []wantErr) {
	t.Helper()
	sc, err := Parse(file, []byte(src))
	if err == nil {
		t.Fatalf("Parse succeeded, want errors; Main:\n%s", dumpOps(sc.Main))
	}
	if sc != nil {
		t.Errorf("Parse returned a scenario along with the error")
	}
	list, ok := err.(ErrorList)
	if !ok {
		t.Fatalf("error is a %T, want ErrorList: %v", err, err)
	}
	for i, w := range want {
		if i >= len(list) {
			t.Errorf("missing error %d: %s: %s", i, w.pos, w.msg)
			continue
		}
		e := list[i]
		if got := fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Col); got != w.pos || e.Pos.File != file {
			t.Errorf("error %d at %v, want %s:%s (%s)", i, e.Pos, file, w.pos, e.Msg)
		}
		if !strings.Contains(e.Msg, w.msg) {
			t.Errorf("error %d message %q does not contain %q", i, e.Msg, w.msg)
		}
		if !strings.Contains(e.Hint, w.hint) {
			t.Errorf("error %d hint %q does not contain %q", i, e.Hint, w.hint)
		}
	}
	if len(list) > len(want) {
		t.Errorf("%d unexpected extra errors:\n%v", len(list)-len(want), ErrorList(list[len(want):]))
	}
}

func TestErrorFormat(t *testing.T) {
	_, err := Parse("dir/bad.yaml", []byte(actions+"  - cpu: 1x\n  - slep: 1ms\n"))
	want := "dir/bad.yaml:4:10: \"1x\" is not a duration\n" +
		"\thint: write a Go duration such as 1.5ms, 20us or 2s\n" +
		"dir/bad.yaml:5:5: unknown action \"slep\"\n" +
		"\thint: did you mean sleep?"
	if err == nil || err.Error() != want {
		t.Fatalf("error text:\n%v\nwant:\n%s", err, want)
	}
	var e *Error
	if !errors.As(err, &e) || e.Pos.Line != 4 {
		t.Errorf("errors.As found %v, want the first *Error at line 4", e)
	}
	if got := (&Error{Msg: "no position"}).Error(); got != "no position" {
		t.Errorf("an Error without a position prints %q", got)
	}
}

// TestQuotedTextIsClipped: where an error repeats what the file says (a
// name, a fact, an argument), in its message or its hint, it repeats at
// most maxQuoted runes of it: a 3000-byte name is one mistake, not a 3 KB
// error. A fixed hint, such as the list of facts, is whole.
func TestQuotedTextIsClipped(t *testing.T) {
	long := strings.Repeat("x", 3000)
	ctl := strings.Repeat("\x18", 3000)
	ask := actions + "ask:\n  - at: 1ms\n    question: q\n    answer: "
	for _, tc := range []struct {
		what, src string
		hint      bool // the text is in the hint, else in the message
		prefix    string
	}{
		{"an alias naming no anchor", "procs: 1\nmain: *" + long + "\n", true, "define it first with &"},
		{"a pool without options", "procs: 1\npools: {" + long + ": 3}\nmain: [cpu: 1ms]\n", true, "write "},
		{"two actions in one item", actions + "  - {" + long + ": 1ms, cpu: 1ms}\n", true, "put each action in its own list item"},
		{"an unknown fact", ask + "{" + ctl + ": P1}\n", false, "unknown fact"},
		{"a fact's argument", ask + "{next-on: " + ctl + "}\n", false, "next-on: wants a P"},
	} {
		_, err := Parse("bad.yaml", []byte(tc.src))
		list, ok := err.(ErrorList)
		if !ok {
			t.Fatalf("%s: err = %v, want an ErrorList", tc.what, err)
		}
		found := false
		for _, e := range list {
			text := e.Msg
			if tc.hint {
				text = e.Hint
			}
			if !strings.HasPrefix(text, tc.prefix) {
				continue
			}
			found = true
			if len(text) > 500 || !strings.Contains(text, "…") {
				t.Errorf("%s: %d bytes, want the file's text clipped: %.120q", tc.what, len(text), text)
			}
			if !tc.hint && strings.HasSuffix(e.Hint, "…") {
				t.Errorf("%s: the hint lost its end: %.80q", tc.what, e.Hint[len(e.Hint)-80:])
			}
		}
		if !found {
			t.Errorf("%s: no error starting %q in\n%.2000v", tc.what, tc.prefix, err)
		}
	}
}

func TestParseErrorLimit(t *testing.T) {
	src := actions + strings.Repeat("  - cpu: 1x\n", 30)
	_, err := Parse("bad.yaml", []byte(src))
	list, ok := err.(ErrorList)
	if !ok {
		t.Fatalf("err = %v, want an ErrorList", err)
	}
	if len(list) != maxErrors {
		t.Fatalf("got %d errors for 30 mistakes, want the limit %d", len(list), maxErrors)
	}
	for i, e := range list {
		if e.Pos.Line != 4+i {
			t.Errorf("error %d at line %d, want %d", i, e.Pos.Line, 4+i)
		}
	}
}

// aliasBomb returns a file whose main, with aliases expanded, has
// 10^levels actions.
func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("procs: 1\nmain:\n  - &l0 {cpu: 1ms}\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "  - &l%d {loop: {times: 1, do: [", i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]}}\n")
	}
	return b.String()
}

func TestParseTooManyActions(t *testing.T) {
	// 10^18 actions once expanded: expanding them would never finish.
	src := aliasBomb(18)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("bomb.yaml", []byte(src))
	runtime.ReadMemStats(&after)
	list, ok := err.(ErrorList)
	if !ok || len(list) != 1 {
		t.Fatalf("err = %v, want exactly one error", err)
	}
	if e := list[0]; !strings.Contains(e.Msg, "more than 100000 actions") || !strings.Contains(e.Hint, "loop:") ||
		e.Pos.File != "bomb.yaml" || e.Pos.Line < 3 || e.Pos.Line > 21 {
		t.Errorf("error = %v, want more than 100000 actions at a line of main", e)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
		t.Errorf("Parse allocated %d MB for a %d-byte file", alloc>>20, len(src))
	}

	// Just under the limit is fine: 1+10+100+...+10^4 = 11111 actions.
	sc := mustParse(t, "ok.yaml", aliasBomb(4))
	if len(sc.Main) != 5 || sc.Main[4].Kind != gmp.OpLoop || len(sc.Main[4].Body) != 10 || len(sc.Main[4].Body[0].Body) != 10 {
		t.Errorf("aliasBomb(4) parsed to:\n%s", dumpOps(sc.Main[:1]))
	}
}

// nestedLoops is a scenario whose main nests n loops around a gosched.
// Loop k (from 1) is at line 3+3(k-1), column 5+6(k-1).
func nestedLoops(n int) string {
	var b strings.Builder
	b.WriteString("procs: 1\nmain:\n")
	for k := range n {
		ind := strings.Repeat(" ", 6*k)
		b.WriteString(ind + "  - loop:\n" + ind + "      times: 2\n" + ind + "      do:\n")
	}
	b.WriteString(strings.Repeat(" ", 6*n) + "  - gosched\n")
	return b.String()
}

// Five nested loops are allowed; a sixth is an error at its line.
func TestLoopNestingLimit(t *testing.T) {
	sc, err := Parse("five.yaml", []byte(nestedLoops(gmp.MaxLoopDepth)))
	if err != nil {
		t.Fatalf("five nested loops rejected: %v", err)
	}
	depth := 0
	for ops := sc.Main; len(ops) == 1 && ops[0].Kind == gmp.OpLoop; ops = ops[0].Body {
		depth++
	}
	if depth != gmp.MaxLoopDepth {
		t.Fatalf("parsed %d nested loops, want %d", depth, gmp.MaxLoopDepth)
	}
	_, err = Parse("six.yaml", []byte(nestedLoops(gmp.MaxLoopDepth+1)))
	want := fmt.Sprintf("six.yaml:%d:%d: loops nested more than 5 deep in one goroutine", 3+3*5, 5+6*5)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("six nested loops: %v, want %q", err, want)
	}
}

// The action table, the model's names and docs/scenarios.md agree: each
// action's name is its op's name, and the document lists the actions as
// the table does.
func TestActionTable(t *testing.T) {
	for _, a := range actionTable {
		// The verbs of a registered kind of object all read into
		// OpObj, which names the verb (objects.go).
		if a.kind.String() != a.name && a.kind != gmp.OpObj {
			t.Errorf("action %s reads into %v", a.name, a.kind)
		}
		if !a.bare && (a.read == nil || a.needs == "" || a.example == "") {
			t.Errorf("action %s lacks a reader, what it needs or an example", a.name)
		}
	}
	doc, err := os.ReadFile("../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "Actions: "+ActionList()+".") {
		t.Errorf("docs/scenarios.md's list of actions is stale; it should read:\nActions: %s.", ActionList())
	}
}
