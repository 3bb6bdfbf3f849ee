#!/usr/bin/env bash
# Whole-process figures for the README: wall time and peak RSS of
# `mcptrustchecker scan` on synthetic catalogs, median of RUNS runs, measured
# with /usr/bin/time -v. Usage: bench/run.sh [RUNS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
cargo build --release --locked --quiet --bin mcptrustchecker --example gen_catalog --example gen_session
BIN="${CARGO_TARGET_DIR:-target}/release/mcptrustchecker"
GEN="${CARGO_TARGET_DIR:-target}/release/examples/gen_catalog"
GEN_SESSION="${CARGO_TARGET_DIR:-target}/release/examples/gen_session"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# One measured run: wall seconds and peak RSS (MB) appended to the arrays walls/rss.
measure() {
  /usr/bin/time -v "$@" 2> "$OUT/t.txt" >/dev/null || true
  walls+=("$(grep 'Elapsed (wall clock)' "$OUT/t.txt" | awk -F': ' '{split($2,p,":"); print p[1]*60+p[2]}')")
  rss+=("$(grep 'Maximum resident set size' "$OUT/t.txt" | awk -F': ' '{print $2/1024}')")
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
printf "%-12s %12s %14s %10s\n" "tools" "wall (s)" "peak RSS (MB)" "MB/s text"
for n in 100 1000 10000; do
  "$GEN" "$n" "$OUT/c$n.tools.json" 42
  bytes=$(stat -c %s "$OUT/c$n.tools.json")
  walls=(); rss=()
  for _ in $(seq "$RUNS"); do
    measure "$BIN" scan "$OUT/c$n.tools.json" --format json -o "$OUT/r.json" --fail-on F
  done
  w=$(printf "%s\n" "${walls[@]}" | median); m=$(printf "%s\n" "${rss[@]}" | median)
  printf "%-12s %12.3f %14.1f %10.1f\n" "$n" "$w" "$m" "$(awk -v b="$bytes" -v w="$w" 'BEGIN{print (w>0)? b/1048576/w : 0}')"
done
# A session: one Cursor config with 1,000 servers x 20 tools pinned in the lockfile
# (every server graded on its catalog, plus cross-server flows and shadowing).
"$GEN_SESSION" 1000 20 "$OUT/session"
walls=(); rss=()
for _ in $(seq "$RUNS"); do
  measure "$BIN" scan "$OUT/session" --root "$OUT/session" --max-file-size 200000000 --format json -o "$OUT/r.json"
done
w=$(printf "%s\n" "${walls[@]}" | median); m=$(printf "%s\n" "${rss[@]}" | median)
printf "%-12s %12.3f %14.1f %10s\n" "1000x20" "$w" "$m" "session"
