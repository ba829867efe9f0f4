#!/usr/bin/env bash
# bench-instructions.sh: the instructions `schedlab run` executes per event,
# counted by valgrind's cachegrind, for --format none and --format jsonl,
# on view/tracelog/testdata/procs64.yaml at a tenth of its size (30,000
# goroutines on 64 Ps, some 223,000 events), with GOMAXPROCS=1.
#
#   scripts/bench-instructions.sh            this tree
#   scripts/bench-instructions.sh COMMIT     this tree and COMMIT
#
# A count of instructions is the same from run to run, whatever else the
# machine does, where CPU time on this shared 2-core machine moves by 5%
# from one run to the next: a change of a few instructions an event shows
# here at once, where scripts/bench-run.sh needs rounds of interleaved runs
# to see it. It is not the time: a cache miss costs more than many
# instructions, so a change it favours is then measured in time, by
# bench-run.sh. Needs valgrind (Debian: apt-get install valgrind); each
# count takes some 10 to 20 seconds under it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
command -v valgrind >/dev/null || { echo "bench-instructions: needs valgrind" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/count: 300000/count: 30000/' view/tracelog/testdata/procs64.yaml >"$tmp/procs64-tenth.yaml"

go build -o "$tmp/new" ./cmd/schedlab
bins=(new)
if [ -n "${1:-}" ]; then
  build_at "$1" "$tmp"
  bins=(base new)
fi
events=$(events_of "$tmp/new" "$tmp/procs64-tenth.yaml")

# count BIN FORMAT prints the instructions of one run.
count() {
  GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$tmp/$1" run --format "$2" "$tmp/procs64-tenth.yaml" 2>&1 >/dev/null |
    sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}

for b in "${bins[@]}"; do
  none=$(count "$b" none)
  jsonl=$(count "$b" jsonl)
  awk -v b="$b" -v n="$none" -v j="$jsonl" -v e="$events" 'BEGIN {
    printf "%s: %d events; instructions per event: none %.0f, jsonl %.0f; jsonl/none %.2fx\n", b, e, n / e, j / e, j / n
  }'
done
