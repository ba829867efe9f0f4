#!/usr/bin/env bash
# bench.sh reproduces every measured figure docs/ quotes, on this
# machine, with one command. Each part prints under a heading that names the
# document and section it feeds. Figures that come from the deterministic model
# (compare tables, captures, exercises) are not here: the tests hold them.
#
#   scripts/bench.sh                 # every part (about 15 minutes on 2 cores)
#   scripts/bench.sh model output    # only some parts
#
# Parts: fidelity verify real bench model procs output run instructions
# writer pool (instructions needs valgrind, and is left out without it).
# Timing figures are ratios against a baseline measured in the same run,
# interleaved; a busy machine widens them, so note the load printed first.
set -euo pipefail
cd "$(dirname "$0")/.."

parts=("$@")
if [ ${#parts[@]} -eq 0 ]; then
	parts=(fidelity verify real bench model procs output run instructions writer pool)
	command -v valgrind >/dev/null || parts=("${parts[@]/instructions/}")
fi

bin=$(mktemp -d)/schedlab
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/schedlab

heading() { printf '\n== %s\n' "$*"; }
heading "machine: $(nproc) CPUs, $(go version | cut -d' ' -f3-), load $(cut -d' ' -f1-3 /proc/loadavg)"

for part in "${parts[@]}"; do
	[ -n "$part" ] || continue # instructions, left out without valgrind
	case $part in
	fidelity)
		heading "docs/fidelity.md 'Noise' and core/gmp/doc.go: the model's figures over seeds 1-10"
		go test -count 1 -run 'TestHogBesidePingPong|TestTimerBurstsOnOneP|TestPingPongOnTwoPs' -v ./core/gmp/ | grep -E 'seed|ok|FAIL'
		heading "core/gmp/doc.go: the real runtime's, untraced (sets of ten runs; 20 for the bursts)"
		go build -o "$(dirname "$bin")/untraced" ./scripts/untraced
		"$(dirname "$bin")/untraced" hog-pingpong | tail -1
		"$(dirname "$bin")/untraced" -runs 20 timer-bursts | tail -1
		"$(dirname "$bin")/untraced" pingpong-2p | tail -1
		;;
	verify)
		heading "docs/fidelity.md 'verify': go run ./cmd/schedlab verify --all"
		"$bin" verify --all
		;;
	real)
		heading "docs/fidelity.md 'real': go run ./cmd/schedlab real tour --runs 3"
		"$bin" real tour --runs 3
		;;
	bench)
		heading "docs/cli.md 'bench': go run ./cmd/schedlab bench"
		"$bin" bench
		heading "docs/cli.md 'bench', short sleeps"
		"$bin" bench --shape sleep --task-time 1ms --tasks 20000 --concurrency 200
		;;
	model)
		heading "docs/speed.md: the model's cost per event (scripts/bench-model.sh)"
		scripts/bench-model.sh
		;;
	procs)
		heading "core/gmp BenchmarkProcs: cost per event at 8, 64 and 256 Ps (scripts/bench-procs.sh)"
		scripts/bench-procs.sh
		;;
	output)
		# 9431b3f: the last commit before the writers appended into one
		# buffer, which docs/speed.md's "before" figures come from.
		heading "docs/speed.md: trace output (BASE=9431b3f scripts/bench-output.sh)"
		BASE=9431b3f scripts/bench-output.sh
		;;
	run)
		heading "issue 30: the whole command on 300k goroutines, 64 Ps, none and jsonl, against heaploop (scripts/bench-run.sh)"
		scripts/bench-run.sh
		;;
	instructions)
		heading "docs/speed.md: instructions per event, none and jsonl, counted by cachegrind (scripts/bench-instructions.sh)"
		scripts/bench-instructions.sh
		;;
	writer)
		heading "view/tracelog BenchmarkRun and BenchmarkWrite: model and writer in process, the writer alone"
		go test -run XXX -bench 'BenchmarkRun$|BenchmarkWrite$' -count 6 ./view/tracelog/ | grep -E '^Benchmark'
		;;
	pool)
		heading "docs/pool.md 'Against ants' (scripts/bench-pool.sh)"
		scripts/bench-pool.sh
		;;
	*)
		echo "bench.sh: unknown part $part (parts: fidelity verify real bench model procs output run instructions writer pool)" >&2
		exit 2
		;;
	esac
done
