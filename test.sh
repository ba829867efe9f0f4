#!/usr/bin/env bash
# The project's test command (README.md): formatting, vet, and the whole suite under the race detector.
set -euo pipefail
cd "$(dirname "$0")"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:" >&2
  echo "$unformatted" >&2
  exit 1
fi
go vet ./...
go test -race -count=1 ./...
