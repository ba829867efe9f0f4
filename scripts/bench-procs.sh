#!/usr/bin/env bash
# bench-procs.sh: the model's cost per event as the number of Ps grows
# (core/gmp BenchmarkProcs: 100,000 goroutines at 8, 64 and 256 Ps), and
# the ratio of 256 Ps to 8 in CPU time per event.
#
#   scripts/bench-procs.sh            this tree
#   scripts/bench-procs.sh COMMIT     interleaved with COMMIT, side by side
#
# Runs alternate between the two test binaries, the order flipped every
# round, so that a machine shared with other work slows both alike. COUNT
# (8) sets the runs per binary. A COMMIT older than the benchmark gets its
# file copied in.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-8}
benchstat=(go run "golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da")

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
bins=(new)
if [ -n "$base" ]; then
  git worktree add --detach "$tmp/base" "$base" >/dev/null
  cp -n core/gmp/bench_procs_test.go "$tmp/base/core/gmp/" 2>/dev/null || true
  (cd "$tmp/base" && go test -c -o "$tmp/base.test" ./core/gmp)
  bins=(base new)
fi

echo "load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
cd core/gmp
for i in $(seq "$count"); do
  order=("${bins[@]}")
  if ((i % 2 == 0)); then order=($(printf '%s\n' "${bins[@]}" | tac)); fi
  for b in "${order[@]}"; do
    echo "run $i/$count: $b" >&2
    "$tmp/$b.test" -test.run XXX -test.bench 'BenchmarkProcs$' -test.benchtime 3x -test.count 1 >>"$tmp/$b.txt"
  done
done
cd ../..

if [ -n "$base" ]; then
  "${benchstat[@]}" base="$tmp/base.txt" new="$tmp/new.txt"
else
  "${benchstat[@]}" "$tmp/new.txt"
fi
# The ratio of the medians of cpu-ns/event at 256 Ps and at 8.
for b in "${bins[@]}"; do
  awk -v name="$b" '
    /^BenchmarkProcs\/procs=/ {
      split($1, a, "[=-]"); p = a[2]
      for (i = 2; i < NF; i++) if ($(i + 1) == "cpu-ns/event") v[p, ++n[p]] = $i
    }
    function median(p,   i, j, t, m) {
      m = n[p]
      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[p, j] < v[p, i]) { t = v[p, i]; v[p, i] = v[p, j]; v[p, j] = t }
      return m % 2 ? v[p, (m + 1) / 2] : (v[p, m / 2] + v[p, m / 2 + 1]) / 2
    }
    END { printf "%s: cpu-ns/event 8 Ps %.1f, 64 Ps %.1f, 256 Ps %.1f; 256/8 = %.2fx\n", name, median(8), median(64), median(256), median(256) / median(8) }
  ' "$tmp/$b.txt"
done
