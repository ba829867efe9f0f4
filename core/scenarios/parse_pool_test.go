package scenarios

import (
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// Pools, semaphores and errgroups: the shape issue 5 gives the format.
func TestParsePoolsSemsAndGroups(t *testing.T) {
	sc := mustParse(t, "p.yaml", `procs: 2
pools: {workers: {size: 8, expiry: 1s, nonblocking: false, max_blocking: 0, prealloc: false, queue: 16, clock: exact}, spare: {size: 0, clock: coarse}}
sems:  {io: 4}
main:
  - submit: {pool: workers, count: 1000, do: [{cpu: 200us}]}
  - acquire: {sem: io, n: 2}
  - release: io
  - group: {limit: 16, count: 1000, do: [{cpu: 200us}]}
  - submit: {pool: spare, do: [{sleep: 1ms}]}
`)
	if len(sc.Pools) != 2 || len(sc.Sems) != 1 {
		t.Fatalf("pools %+v, sems %+v", sc.Pools, sc.Sems)
	}
	if p := sc.Pools[0]; p.Name != "workers" || p.Size != 8 || p.Expiry != time.Second || p.Queue != 16 || p.Pos != at("p.yaml", 2, 9) {
		t.Fatalf("pool %+v", p)
	}
	if sc.Pools[1].Size != 0 {
		t.Fatalf("pool spare %+v: size 0 is unlimited", sc.Pools[1])
	}
	if sc.Pools[0].CoarseClock || !sc.Pools[1].CoarseClock {
		t.Fatalf("clock: exact is the default, coarse is pool.WithCoarseClock: %+v", sc.Pools)
	}
	if s := sc.Sems[0]; s.Name != "io" || s.Size != 4 {
		t.Fatalf("sem %+v", s)
	}
	m := sc.Main
	if m[0].Kind != gmp.OpSubmit || m[0].Pool != 0 || m[0].Count != 1000 || len(m[0].Body) != 1 || m[0].Pos != at("p.yaml", 5, 5) {
		t.Fatalf("submit:\n%s", dumpOps(m[:1]))
	}
	if m[1].Kind != gmp.OpAcquire || m[1].Sem != 0 || m[1].N != 2 || m[2].Kind != gmp.OpRelease || m[2].N != 1 {
		t.Fatalf("acquire/release: %+v %+v", m[1], m[2])
	}
	if m[3].Kind != gmp.OpGroup || m[3].Limit != 16 || m[3].Count != 1000 {
		t.Fatalf("group: %+v", m[3])
	}
	if m[4].Pool != 1 || m[4].Count != 1 {
		t.Fatalf("submit to spare: %+v", m[4])
	}
	// And it runs.
	prog := sc.Program()
	if len(prog.Pools) != 2 || len(prog.Sems) != 1 {
		t.Fatalf("Program() dropped the declarations: %+v", prog)
	}
}

var poolErrorCases = []struct {
	name string
	src  string
	want []wantErr
}{
	{name: "submit to an undeclared pool",
		src:  "procs: 1\npools: {workers: {size: 2}}\nmain:\n  - submit: {pool: wrokers, do: [{cpu: 1ms}]}\n",
		want: []wantErr{{"4:20", `pool "wrokers" is not declared`, "did you mean workers?"}}},
	{name: "pool without size",
		src:  "procs: 1\npools: {workers: {expiry: 1s}}\nmain: []\n",
		want: []wantErr{{"2:19", "pool workers has no size:", "0 means no limit"}}},
	{name: "unknown pool option",
		src:  "procs: 1\npools: {workers: {size: 2, nonblocing: true}}\nmain: []\n",
		want: []wantErr{{"2:28", `unknown key "nonblocing" in pool workers`, "did you mean nonblocking?"}}},
	{name: "prealloc without a size",
		src:  "procs: 1\npools: {workers: {size: 0, prealloc: true}}\nmain: []\n",
		want: []wantErr{{"2:38", "a prealloc pool needs a size", "give the pool a size"}}},
	{name: "queue without a size",
		src:  "procs: 1\npools: {workers: {size: 0, queue: 4}}\nmain: []\n",
		want: []wantErr{{"2:35", "a pool with no limit never queues a task", "give the pool a size, or drop queue"}}},
	{name: "negative queue",
		src:  "procs: 1\npools: {workers: {size: 2, queue: -1}}\nmain: []\n",
		want: []wantErr{{"2:35", "queue of pool workers", ""}}},
	{name: "unknown clock",
		src:  "procs: 1\npools: {workers: {size: 1, clock: corse}}\nmain: []\n",
		want: []wantErr{{"2:35", `pool workers: unknown clock "corse" (exact or coarse)`, "did you mean coarse?"}}},
	{name: "a clock that is not a word",
		src:  "procs: 1\npools: {workers: {size: 1, clock: [coarse]}}\nmain: []\n",
		want: []wantErr{{"2:35", `unknown clock ""`, "write clock: coarse"}}},
	{name: "zero expiry",
		src:  "procs: 1\npools: {workers: {size: 1, expiry: 0s}}\nmain: []\n",
		want: []wantErr{{"2:36", "expiry must be greater than zero", "default of 1s"}}},
	{name: "submit without do",
		src:  "procs: 1\npools: {p: {size: 1}}\nmain:\n  - submit: {pool: p, count: 3}\n",
		want: []wantErr{{"4:14", "submit has no do:", "what each task runs"}}},
	{name: "submit without pool",
		src:  "procs: 1\nmain:\n  - submit: {do: [{cpu: 1ms}]}\n",
		want: []wantErr{{"3:14", "submit has no pool:", "pool: workers"}}},
	{name: "acquire an undeclared semaphore",
		src:  "procs: 1\nsems: {io: 2}\nmain:\n  - acquire: {sem: oi}\n",
		want: []wantErr{{"4:20", `semaphore "oi" is not declared`, "did you mean io?"}}},
	{name: "release with n of zero",
		src:  "procs: 1\nsems: {io: 2}\nmain:\n  - release: {sem: io, n: 0}\n",
		want: []wantErr{{"4:27", "release n is 0, out of range", "between 1 and"}}},
	{name: "semaphore of capacity zero",
		src:  "procs: 1\nsems: {io: 0}\nmain: []\n",
		want: []wantErr{{"2:12", "capacity of semaphore io is 0, out of range", "between 1 and"}}},
	{name: "pools as a list",
		src:  "procs: 1\npools: [workers]\nmain: []\n",
		want: []wantErr{{"2:8", "pools must map pool names to their options", "pools: {workers: {size: 8}}"}}},
	{name: "sems as a word",
		src:  "procs: 1\nsems: io\nmain: []\n",
		want: []wantErr{{"2:7", "sems must map semaphore names to their capacities", "sems: {io: 4}"}}},
	{name: "chans as a list",
		src:  "procs: 1\nchans: [done]\nmain: []\n",
		want: []wantErr{{"2:8", "chans must map channel names to their capacities", "chans: {done: 0, jobs: 8}"}}},
	{name: "group as a word",
		src:  "procs: 1\nmain:\n  - group\n",
		want: []wantErr{{"3:5", "action group needs a mapping with limit, count and do", "limit: 8"}}},
	{name: "group too deep in loops",
		src: "procs: 1\nmain:\n  - loop: {times: 2, do: [{loop: {times: 2, do: [{loop: {times: 2, do: [{loop: {times: 2, do: [" +
			"{group: {count: 1, do: [{cpu: 1ms}]}}]}}]}}]}}]}\n",
		want: []wantErr{{"3:97", "a group inside 4 loops nests deeper", "start a goroutine"}}},
	{name: "loops too deep inside a task",
		src: "procs: 1\npools: {p: {size: 1}}\nmain:\n  - submit: {pool: p, do: [{loop: {times: 2, do: [{loop: {times: 2, do: [" +
			"{loop: {times: 2, do: [{loop: {times: 2, do: [{loop: {times: 2, do: [{cpu: 1ms}]}}]}}]}}]}}]}}]}\n",
		want: []wantErr{{"4:121", "loops nested more than 5 deep", "flatten the loops"}}},
}

func TestParsePoolErrors(t *testing.T) {
	for _, tc := range poolErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			checkErrors(t, "bad.yaml", tc.src, tc.want)
		})
	}
}
