#!/usr/bin/env bash
# bench-run.sh: what the whole command costs per event (issue 30), on
# view/tracelog/testdata/procs64.yaml (300,000 goroutines on 64 Ps, each
# computing 10µs, sleeping 1ms and computing 10µs again: 2.2M events):
# schedlab run --format none and --format jsonl, in CPU time (user+system)
# per event, process start to exit, output to /dev/null; and heaploop, the
# yardstick (scripts/heaploop: a minimal discrete-event heap loop of the
# same shape), in the same rounds.
#
#   scripts/bench-run.sh            this tree
#   scripts/bench-run.sh COMMIT     this tree and COMMIT, side by side
#
# Every round runs each binary in each format and the yardstick, the order
# reversed every other round, so that a machine shared with other work
# slows all of them alike. COUNT (6) sets the rounds. It prints benchstat's
# comparison, then the ratios of the medians: none against the yardstick,
# jsonl against none.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
count=${COUNT:-6}
benchstat=(go run "golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da")
scenario=view/tracelog/testdata/procs64.yaml

tmp=$(mktemp -d)
base=${1:-}
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/new" ./cmd/schedlab
go build -o "$tmp/heaploop" ./scripts/heaploop
bins=(new)
if [ -n "$base" ]; then
  build_at "$base" "$tmp"
  bins=(base new)
fi
events=$(events_of "$tmp/new" "$scenario")
echo "load $(cut -d' ' -f1-3 /proc/loadavg); $events events; $count rounds of ${bins[*]} × none jsonl, and heaploop" >&2

# cpu runs a command and prints its user+system seconds (bash's time, so
# that no /usr/bin/time is needed).
cpu() {
  local TIMEFORMAT='%3U %3S'
  { time "$@" >/dev/null; } 2>&1 | awk '{print $1 + $2}'
}

for i in $(seq "$count"); do
  jobs=()
  for b in "${bins[@]}"; do
    jobs+=("$b none" "$b jsonl")
  done
  jobs+=(heaploop)
  if ((i % 2 == 0)); then
    mapfile -t jobs < <(printf '%s\n' "${jobs[@]}" | tac)
  fi
  for job in "${jobs[@]}"; do
    set -- $job
    echo "round $i/$count: $job" >&2
    if [ "$1" = heaploop ]; then
      # heaploop times its loop itself: setup is left out, as the model's
      # tables are not.
      ns=$("$tmp/heaploop" | sed -n 's/.*cpu_ns_per_step=\([0-9.]*\).*/\1/p')
      for b in "${bins[@]}"; do
        echo "BenchmarkCommand/heaploop 1 $ns cpu-ns/event" >>"$tmp/$b.txt"
      done
      continue
    fi
    s=$(cpu "$tmp/$1" run --format "$2" "$scenario")
    awk -v s="$s" -v e="$events" -v f="$2" 'BEGIN { printf "BenchmarkCommand/format=%s 1 %.1f cpu-ns/event\n", f, s * 1e9 / e }' >>"$tmp/$1.txt"
  done
done

if [ -n "$base" ]; then
  "${benchstat[@]}" base="$tmp/base.txt" new="$tmp/new.txt"
else
  "${benchstat[@]}" "$tmp/new.txt"
fi
# The ratios of the medians.
for b in "${bins[@]}"; do
  awk -v name="$b" '
    /^BenchmarkCommand\// { k = substr($1, 18); v[k, ++n[k]] = $3 }
    function median(k,   i, j, t, m) {
      m = n[k]
      for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[k, j] < v[k, i]) { t = v[k, i]; v[k, i] = v[k, j]; v[k, j] = t }
      return m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
    }
    END {
      none = median("format=none"); jsonl = median("format=jsonl"); floor = median("heaploop")
      printf "%s: cpu-ns/event none %.1f, jsonl %.1f, heaploop %.1f; none/heaploop %.2fx, jsonl/none %.2fx\n", name, none, jsonl, floor, none / floor, jsonl / none
    }
  ' "$tmp/$b.txt"
done
