#!/usr/bin/env bash
# bench-model.sh: the model's cost per scheduling event (issue 15), with
# one command on a machine that has only Go.
#
#   scripts/bench-model.sh            this tree: ns/event, allocs/event
#                                     and bytes/G on every shape, the
#                                     first run's cost against later ones,
#                                     and cpu-ns/event against heaploop
#   scripts/bench-model.sh COMMIT     the same, side by side with COMMIT
#
# Runs alternate between the two test binaries, so that a machine shared
# with other work slows both alike; benchstat compares them. COUNT (6)
# sets the runs per binary. benchstat is fetched through the module proxy
# the first time, as test.sh fetches staticcheck.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-6}
BENCHSTAT_VERSION=v0.0.0-20260908200009-22c9c6c9d4da
benchstat=(go run "golang.org/x/perf/cmd/benchstat@${BENCHSTAT_VERSION}")

tmp=$(mktemp -d)
base=${1:-}
cleanup() {
  if [ -n "$base" ] && [ -d "$tmp/base" ]; then
    git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

go test -c -o "$tmp/new.test" ./core/gmp
go build -o "$tmp/heaploop" ./scripts/heaploop
bins=(new)
if [ -n "$base" ]; then
  git worktree add --detach "$tmp/base" "$base" >/dev/null
  # A base from before the folders were grouped has the model in gmp/.
  basegmp=core/gmp
  [ -d "$tmp/base/core/gmp" ] || basegmp=gmp
  (cd "$tmp/base" && go test -c -o "$tmp/base.test" "./$basegmp")
  bins=(base new)
fi

# The test binaries run in core/gmp/, as go test would run them. Each
# round ends with heaploop, the yardstick (scripts/heaploop), whose CPU
# time per step the model's cpu-ns/event is set against at the end.
echo "load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
cd core/gmp
for i in $(seq "$count"); do
  for b in "${bins[@]}"; do
    echo "run $i/$count: $b" >&2
    "$tmp/$b.test" -test.run XXX -test.bench 'BenchmarkEvents$' -test.count 1 >>"$tmp/$b.txt"
  done
  "$tmp/heaploop" | sed -n 's/.*cpu_ns_per_step=\([0-9.]*\).*/\1/p' >>"$tmp/heaploop.txt"
done

# The first run in a process against later ones (BenchmarkFirstRun starts
# fresh processes). An older tree may not have the benchmark; then the
# cost of a lone first run is still printed, from BenchmarkEvents at 1x.
for b in "${bins[@]}"; do
  # A variable, not a pipe into grep -q: with pipefail, grep quitting
  # early could fail the test binary with SIGPIPE.
  listed=$("$tmp/$b.test" -test.list '^BenchmarkFirstRun$')
  if [ -n "$listed" ]; then
    "$tmp/$b.test" -test.run XXX -test.bench 'BenchmarkFirstRun' -test.benchtime 3x >>"$tmp/$b-first.txt"
  else
    for i in $(seq 3); do
      "$tmp/$b.test" -test.run XXX -test.bench 'BenchmarkEvents/procs=64/gs=1000000' -test.benchtime 1x >>"$tmp/$b-first.txt"
    done
  fi
done

cd ../..
if [ -n "$base" ]; then
  "${benchstat[@]}" base="$tmp/base.txt" new="$tmp/new.txt"
  echo
  echo "first run (base):"
  grep '^Benchmark' "$tmp/base-first.txt"
else
  "${benchstat[@]}" "$tmp/new.txt"
fi
echo
echo "first run:"
grep '^Benchmark' "$tmp/new-first.txt"

# The model's cpu-ns/event on each shape against the yardstick: the ratio
# of the medians.
echo
for b in "${bins[@]}"; do
  awk -v name="$b" '
    function median(k,   i, j, t, m) {
      m = n[k]
      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[k, j] < v[k, i]) { t = v[k, i]; v[k, i] = v[k, j]; v[k, j] = t }
      return m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
    }
    FNR == NR { v["heaploop", ++n["heaploop"]] = $1; next }
    /^BenchmarkEvents\// {
      k = $1; sub(/-[0-9]+$/, "", k); sub(/^BenchmarkEvents\//, "", k)
      if (!(k in seen)) { seen[k] = 1; order[++shapes] = k }
      for (i = 2; i < NF; i++) if ($(i + 1) == "cpu-ns/event") v[k, ++n[k]] = $i
    }
    END {
      floor = median("heaploop")
      printf "%s against heaploop (%.1f cpu-ns/step):", name, floor
      for (s = 1; s <= shapes; s++) printf " %s %.2fx;", order[s], median(order[s]) / floor
      printf "\n"
    }
  ' "$tmp/heaploop.txt" "$tmp/$b.txt"
done
