#!/usr/bin/env bash
# Compares package pool, without and with a queue (pool-queue: WithQueue as
# long as the capacity), with ants v2.12.1 on ants' benchmark shapes
# (core/pool/bench_test.go) and prints benchstat's table, pool beside ants.
#
# The machine this project is measured on has two cores shared with other
# work, so a figure taken alone says little. The two implementations are run
# in the same session, alternately, one process per benchmark run, and the
# order rotates every round, so that a slow spell of the machine lands on
# each; benchstat then gives each ratio with its p-value. ants is
# benchstat's base, so "vs base" reads as the pool's difference from ants.
# Besides sec/op the benchmarks report cpu-sec/op, the CPU time of the whole
# process per operation, which the load of other work moves much less.
#
#   scripts/bench-pool.sh                 # 10 rounds of the four shapes
#   ROUNDS=6 SHAPES='ParallelSubmit' scripts/bench-pool.sh
#   IMPLS='ants pool' scripts/bench-pool.sh   # leave the queue out
#   OUT=/tmp/pool-bench.txt scripts/bench-pool.sh   # keep the raw results
#   ROUNDS=0 OUT=/tmp/pool-bench.txt scripts/bench-pool.sh   # table again
#
# Only Go is needed: benchstat is run through go run at a pinned version.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-10}
shapes=${SHAPES:-ParallelSubmit CPU100k Sleep100k Sleep1M}
read -r -a impls_all <<<"${IMPLS:-ants pool pool-queue}"
benchstat_version=v0.0.0-20260908200009-22c9c6c9d4da

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=${OUT:-$work/bench.txt}
if ((rounds > 0)); then
  : >"$out"
  # One test binary for every run: building it per run would cost more
  # than some of the runs, and could differ between them.
  go test -c -o "$work/pool.test" ./core/pool/
fi

# benchtime for a shape: Sleep1M is one batch of a million tasks, seconds
# long, so a single iteration per run is enough and keeps the session short.
benchtime() {
  case $1 in
  Sleep1M) echo 1x ;;
  *) echo 1s ;;
  esac
}

# The load while it runs: the machine is shared, and the figures mean
# more beside it.
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for round in $(seq "$rounds"); do
  # Rotate the order by one each round.
  n=${#impls_all[@]}
  impls=()
  for ((i = 0; i < n; i++)); do impls+=("${impls_all[(i + round) % n]}"); done
  for shape in $shapes; do
    shape_impls=("${impls[@]}")
    # Two shapes also run a reference that is no pool: the CPU-bound
    # one its tasks inline on one goroutine (impl=inline, the work
    # alone: no executor can cost less), the million sleeps a goroutine
    # per task (impl=raw: no worker is parked and woken again, which a
    # pool that keeps its workers does per task, as ants does).
    case $shape in
    CPU100k) shape_impls+=(inline) ;;
    Sleep1M) shape_impls+=(raw) ;;
    esac
    for impl in "${shape_impls[@]}"; do
      echo "round $round/$rounds: $shape impl=$impl" >&2
      "$work/pool.test" -test.run '^$' -test.bench "^Benchmark$shape\$/^impl=$impl\$" \
        -test.benchtime "$(benchtime "$shape")" -test.benchmem -test.count 1 >>"$out"
    done
  done
done

echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
go run "golang.org/x/perf/cmd/benchstat@$benchstat_version" -col "/impl@(${impls_all[*]} inline raw)" "$out"
