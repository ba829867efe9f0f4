#!/usr/bin/env bash
# The project's test command (README.md): formatting, vet, staticcheck, and
# the suite; the race detector runs on the packages that start goroutines.
set -euo pipefail
cd "$(dirname "$0")"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:" >&2
  echo "$unformatted" >&2
  exit 1
fi
# The benchmark scripts (scripts/bench.sh and its parts) take minutes, so
# the suite only checks that bash can read them.
for script in scripts/*.sh; do
  bash -n "$script"
done
go vet ./...
# staticcheck, pinned; go run fetches it through the module proxy the first
# time, so a machine with only Go can run this script.
STATICCHECK_VERSION=v0.8.2
go run "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}" ./...

# Packages whose code starts goroutines (or drives a terminal UI, which
# does) run under the race detector; the pure core and the packages over it
# gain nothing from it and take several times longer under it.
race='/(pool|lockstep|realbench|realprog|tui|cmd)(/|$)'
pkgs=$(go list ./...)
go test -race -count=1 $(grep -E "$race" <<<"$pkgs")
go test -count=1 $(grep -vE "$race" <<<"$pkgs")
# The UI's memory bound is measured without the race detector, whose own
# memory it would otherwise count.
go test -count=1 -run 'TestUIMemoryIsBounded' ./tui
