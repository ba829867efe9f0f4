#!/usr/bin/env bash
# release.sh builds schedlab for the platforms a class uses, so that
# students install nothing but the binary: Linux, macOS and Windows, each
# on amd64 and arm64, with CGO_ENABLED=0 (no C toolchain, no libc to
# match; the UI, the model and the exports need none).
#
#   scripts/release.sh [VERSION]   archives and SHA256SUMS in dist/
#                                  (VERSION: default git describe, else devel)
#   scripts/release.sh --check     builds the six into a temporary folder
#                                  and keeps nothing: CI runs this
#
# Each archive holds the binary, README.md, LICENSE if there is one, and
# docs/: schedlab_VERSION_OS_ARCH.tar.gz (Linux, macOS) or .zip
# (Windows). SHA256SUMS lists every archive's checksum (sha256sum -c
# SHA256SUMS checks them). The version and the commit are set in the
# binary with -ldflags (schedlab --version shows them), since Go records
# no commit in a build of a git worktree or with -buildvcs=false.
#
# GoReleaser would do the same from a configuration file, but it cannot
# be installed offline: it is not packaged in Debian, and its installers
# download release binaries from outside the registries this project's
# machines reach. This script needs only Go, git, tar, zip (or python3 for
# the .zip) and sha256sum.
#
# schedlab real and schedlab verify build Go programs: they need a Go
# toolchain on the machine that runs them, and say so when there is none.
set -euo pipefail
cd "$(dirname "$0")/.."

platforms=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64)

check=""
version=""
case "${1:-}" in
--check) check=1 ;;
-h | --help)
  sed -n '2,/^set -euo/p' "$0" | sed '$d'
  exit 0
  ;;
"") ;;
*) version=$1 ;;
esac

commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
if [ -n "$commit" ] && [ -n "$(git status --porcelain 2>/dev/null)" ]; then
  commit="$commit, modified"
fi
if [ -z "$version" ]; then
  version=$(git describe --tags --exact-match 2>/dev/null || echo devel)
fi
ldflags="-s -w -X 'main.releaseVersion=$version' -X 'main.releaseCommit=$commit'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build OS ARCH OUT: one binary, static and without local paths.
build() {
  CGO_ENABLED=0 GOOS=$1 GOARCH=$2 go build -trimpath -ldflags "$ldflags" -o "$3" ./cmd/schedlab
}

if [ -n "$check" ]; then
  for pl in "${platforms[@]}"; do
    os=${pl%/*} arch=${pl#*/}
    exe=schedlab
    [ "$os" = windows ] && exe=schedlab.exe
    build "$os" "$arch" "$tmp/$os-$arch/$exe"
    echo "release.sh: $os/$arch builds ($(wc -c <"$tmp/$os-$arch/$exe") bytes)"
  done
  echo "release.sh: all ${#platforms[@]} platforms build"
  exit 0
fi

# zipdir ARCHIVE DIR: a .zip of DIR (its name inside), with zip or python3.
zipdir() {
  local archive=$1 dir=$2
  if command -v zip >/dev/null 2>&1; then
    (cd "$(dirname "$dir")" && zip -qr "$archive" "$(basename "$dir")")
  else
    python3 - "$archive" "$dir" <<'PY'
import os, sys, zipfile
archive, root = sys.argv[1], sys.argv[2]
base = os.path.dirname(root)
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for d, _, files in os.walk(root):
        for f in sorted(files):
            p = os.path.join(d, f)
            z.write(p, os.path.relpath(p, base))
PY
  fi
}

dist=dist
rm -rf "$dist"
mkdir -p "$dist"
for pl in "${platforms[@]}"; do
  os=${pl%/*} arch=${pl#*/}
  name=schedlab_${version}_${os}_${arch}
  dir=$tmp/$name
  mkdir -p "$dir"
  exe=schedlab
  [ "$os" = windows ] && exe=schedlab.exe
  build "$os" "$arch" "$dir/$exe"
  cp README.md "$dir/"
  [ -f LICENSE ] && cp LICENSE "$dir/"
  cp -r docs "$dir/"
  if [ "$os" = windows ]; then
    zipdir "$PWD/$dist/$name.zip" "$dir"
  else
    tar -C "$tmp" -czf "$dist/$name.tar.gz" "$name"
  fi
  echo "release.sh: $dist/$name built"
done
(cd "$dist" && sha256sum -- * >SHA256SUMS)
echo "release.sh: $dist/SHA256SUMS:"
cat "$dist/SHA256SUMS"
