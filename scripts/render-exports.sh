#!/usr/bin/env bash
# render-exports.sh draws what schedlab's exports look like in tools that
# did not write them, as PNG files a person (or a review) can look at:
#
#   scripts/render-exports.sh [OUTDIR] [SCENARIO]   (default: /tmp/schedlab-renders, tour)
#
#   - SCENARIO.svg rendered by rsvg-convert at 1280 pixels wide, and the
#     64-P burst drawn for a 16:9 slide at 1280x720;
#   - SCENARIO.json (the Perfetto export) opened in speedscope, in headless
#     Chromium. The Perfetto UI itself cannot be fetched offline;
#     speedscope, from the npm registry, reads the same files.
#
# It needs Go, rsvg-convert (librsvg2-bin), chromium, node and npm, and
# python3 for a web server on 127.0.0.1 (speedscope fetches a profile
# over http). Nothing here is a test: the tests check the same files by
# program (view/export's TestPerfettoInSpeedscope, TestSVG*).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-/tmp/schedlab-renders}
name=${2:-tour}
mkdir -p "$out"
tmp=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/schedlab" ./cmd/schedlab
"$tmp/schedlab" export "$name" --format svg -o "$out/$name.svg"
rsvg-convert -w 1280 "$out/$name.svg" -o "$out/$name-svg.png"
"$tmp/schedlab" export burst --procs 64 --format svg --fit 16:9 --width 1280 -o "$out/burst-64p.svg"
rsvg-convert -w 1280 -h 720 "$out/burst-64p.svg" -o "$out/burst-64p-svg.png"

"$tmp/schedlab" export "$name" --format perfetto -o "$tmp/$name.json"
npm install --silent --no-audit --no-fund --no-save --prefix "$tmp/npm" speedscope@1.25.0 >/dev/null
mkdir "$tmp/www"
cp -r "$tmp/npm/node_modules/speedscope/dist/release/." "$tmp/www/"
cp "$tmp/$name.json" "$tmp/www/"
port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$tmp/www" >/dev/null 2>&1 &
server=$!
sleep 1
chromium --headless --no-sandbox --disable-dev-shm-usage --window-size=1280,720 --timeout=5000 \
  --screenshot="$out/$name-speedscope.png" \
  "http://127.0.0.1:$port/index.html#profileURL=http://127.0.0.1:$port/$name.json&view=time-ordered" >/dev/null 2>&1
ls -l "$out"
