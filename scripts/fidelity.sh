#!/usr/bin/env bash
# fidelity.sh runs the suites that build and run real Go programs and judge
# what they did: the real-program tests of realprog, cmd/schedlab and the
# untraced probes, and verify's fidelity suite over every built-in. Their
# outcome depends on the machine (its CPUs, its load), so ./test.sh leaves
# them out; CI runs this script when SCHEDLAB_FIDELITY=1 asks for it.
#
#   scripts/fidelity.sh            # every suite (about 5 minutes on 2 quiet cores)
#   scripts/fidelity.sh -run Real  # passes its arguments to go test
#
# Judge a failure with the load printed first: a busy machine changes the
# answer (docs/fidelity.md).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "fidelity: $(nproc) CPUs, $(go version | cut -d' ' -f3-), load $(cut -d' ' -f1-3 /proc/loadavg)"
SCHEDLAB_REAL_PROGRAMS=1 go test -count=1 -timeout 30m "$@" \
	./real/prog/... ./cmd/schedlab/ ./real/verify/ ./scripts/untraced/ ./scripts/preamble/ ./scripts/puzzles/ ./scripts/gopuzzles/ ./scripts/antspurge/ ./scripts/firstwake/ ./scripts/wakeafteridle/ ./scripts/wakebusy/ ./scripts/vcpupack/ ./scripts/freshgaps/ ./scripts/switchwork/
