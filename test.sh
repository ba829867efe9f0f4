#!/usr/bin/env bash
# The project's test command (README.md): formatting, vet, staticcheck, and
# the suite; the race detector runs on the packages that start goroutines.
#
# Every phase runs, even after one fails, so that one run reports every
# failure; the summary at the end gives each phase's time and result, and
# the script exits non-zero if any phase failed. Nothing here runs a real
# Go program whose outcome depends on the machine's load: those suites are
# in scripts/fidelity.sh.
set -uo pipefail
cd "$(dirname "$0")"

phases=()
failed=0
passed=0

# phase NAME CMD...: runs one phase, timed, and records its result.
phase() {
  local name=$1
  shift
  echo "== $name"
  local start=$SECONDS
  if "$@"; then
    phases+=("$(printf '%-12s ok     %4ds' "$name" $((SECONDS - start)))")
    passed=$((passed + 1))
  else
    phases+=("$(printf '%-12s FAILED %4ds' "$name" $((SECONDS - start)))")
    failed=$((failed + 1))
  fi
}

gofmt_clean() {
  local unformatted
  unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
  if [ -n "$unformatted" ]; then
    echo "gofmt would change:" >&2
    echo "$unformatted" >&2
    return 1
  fi
}

# The benchmark and fidelity scripts take minutes, so the suite only
# checks that bash can read them.
scripts_parse() {
  local script
  for script in scripts/*.sh; do
    bash -n "$script" || return 1
  done
}

# staticcheck, pinned; go run fetches it through the module proxy the first
# time, so a machine with only Go can run this script.
STATICCHECK_VERSION=v0.8.2
staticcheck() {
  go run "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}" ./...
}

# Packages whose code starts goroutines (the real pool, the lockstep check
# that drives it, the real benchmark, the class server) run under the race
# detector; the
# pure core and the packages over it gain nothing from it and take several
# times longer under it. The UI starts goroutines only in its event loop
# (App.run: the player and the signal watcher; the trace view's player):
# the tests that start it (TestIdle* in tui, TestTUI* and TestRoot* in
# cmd/schedlab, through the CLI) run under the race detector too, the
# rest of the UI's tests, which drive it key by key, without it.
race_pkgs='/(core/pool|core/lockstep|real/bench|teach/class)(/|$)'
race_ui_tests='^(TestIdle|TestTUI|TestRoot)'
pkgs=$(go list ./...)

# Every test that waits does so within a deadline: a test that hangs
# fails after 5 minutes with every goroutine's stack, instead of holding
# CI to its own limit.
# The race phase runs -short: core/lockstep's differential sweep then
# takes each built-in at its own P count only, and the suite's phase runs
# the whole sweep again without the race detector.
race_suite() {
  go test -race -short -count=1 -timeout 5m $(grep -E "$race_pkgs" <<<"$pkgs") &&
    go test -race -count=1 -timeout 5m -run "$race_ui_tests" ./view/tui ./cmd/schedlab
}

suite() {
  go test -count=1 -timeout 5m $(grep -vE "$race_pkgs" <<<"$pkgs") ./core/lockstep
}

phase gofmt gofmt_clean
phase scripts scripts_parse
phase vet go vet ./...
phase staticcheck staticcheck
phase race race_suite
phase tests suite

echo
echo "test.sh: phase        result  time"
for line in "${phases[@]}"; do
  echo "test.sh: $line"
done
echo "test.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
