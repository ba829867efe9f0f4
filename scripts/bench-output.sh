#!/usr/bin/env bash
# bench-output.sh measures how fast schedlab run writes a trace (issue 15):
# on a run of about 611,000 events (200,000 goroutines of 10µs on 4 Ps),
# the output rate of a format is events / (time(format) - time(none)),
# --format none being the same run with only its end printed.
#
#   scripts/bench-output.sh              this checkout
#   BASE=9431b3f scripts/bench-output.sh this checkout against a commit
#   ROUNDS=9 scripts/bench-output.sh     more rounds (default 5)
#
# The runs of every binary and format alternate, round after round, and
# the medians are reported: on a shared machine the noise comes in waves,
# and alternating spreads a wave over all of them instead of one. The
# rate is given from wall-clock time, the measure, and from CPU time
# (user+system), which other programs disturb less. It needs Go, bash and
# the usual POSIX tools (awk, sed, sort; git and tar for BASE).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh

rounds=${ROUNDS:-5}
formats=(none text jsonl)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/big.yaml" <<'EOF'
name: big
title: Output speed (issue 15)
summary: 200,000 goroutines of 10µs on 4 Ps, some 611,000 events.
procs: 4
main:
  - go: {count: 200000, do: [{cpu: 10us}]}
EOF

names=(this)
go build -o "$tmp/this" ./cmd/schedlab
if [ -n "${BASE:-}" ]; then
  build_at "$BASE" "$tmp"
  names=(base this)
fi
events=$(events_of "$tmp/this" "$tmp/big.yaml")
echo "scenario: $events events; $rounds rounds of ${names[*]} × ${formats[*]}, output to /dev/null"

# seconds runs a command and prints its wall, user and system time in
# seconds (bash's time, so that no /usr/bin/time is needed).
seconds() {
  local TIMEFORMAT='%3R %3U %3S'
  { time "$@" >/dev/null; } 2>&1
}

for ((r = 1; r <= rounds; r++)); do
  for f in "${formats[@]}"; do
    for n in "${names[@]}"; do
      seconds "$tmp/$n" run --format "$f" "$tmp/big.yaml" >>"$tmp/t.$n.$f"
    done
  done
done

# median of column $2 of file $1; column 0 is user+system.
median() {
  awk -v c="$2" '{print c ? $c : $2 + $3}' "$1" | sort -n |
    awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# rate prints events / (t - t_none) in millions a second.
rate() { awk -v e="$events" -v t="$1" -v z="$2" 'BEGIN { if (t > z) printf "%.2fM", e / (t - z) / 1e6; else print "n/a" }'; }

# The wall-clock rate is the measure; the CPU rate (user+system) is less
# disturbed by other programs on a shared machine.
printf '%-6s %-6s %8s %10s %8s %10s   %s\n' binary format wall events/s cpu events/s "wall of each run (s)"
for n in "${names[@]}"; do
  wnone=$(median "$tmp/t.$n.none" 1)
  cnone=$(median "$tmp/t.$n.none" 0)
  for f in "${formats[@]}"; do
    w=$(median "$tmp/t.$n.$f" 1)
    c=$(median "$tmp/t.$n.$f" 0)
    if [ "$f" = none ]; then
      wr=- cr=-
    else
      wr=$(rate "$w" "$wnone") cr=$(rate "$c" "$cnone")
    fi
    printf '%-6s %-6s %7.3fs %10s %7.3fs %10s   %s\n' "$n" "$f" "$w" "$wr" "$c" "$cr" "$(awk '{printf "%s ", $1}' "$tmp/t.$n.$f")"
  done
done
