#!/usr/bin/env bash
# Whole-process figures for the README (issues 17 and 22): wall time and peak
# RSS of `mcptrustchecker`, medians of RUNS interleaved runs (bench/measure.py:
# posix_spawn + wait4, millisecond precision), each against its target, with
# the floor (a binary that only reads and parses the same file with serde_json)
# measured in the same rounds.
# Usage: bench/run.sh [RUNS]   (default 15)
#   BENCH_CRITERION=0 skips the criterion figure (stages 1+2 on one thread);
#   MTC_BIN=PATH measures another build of the binary (an earlier commit's).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-15}"
cargo build --release --locked --quiet --bin mcptrustchecker \
  --example gen_catalog --example gen_session --example floor
T="${CARGO_TARGET_DIR:-target}/release"
BIN="${MTC_BIN:-$T/mcptrustchecker}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
export MTC_NOW=2026-12-01

for n in 5 2000 10000; do "$T/examples/gen_catalog" "$n" "$OUT/c$n.tools.json" 42; done

# `ci` on a pull request that adds one Cursor config with five servers and
# their lockfile (20 pinned tools each): base = an empty repository, head = it
# with the config and the lockfile.
"$T/examples/gen_session" 5 20 "$OUT/session5" >/dev/null
WS="$OUT/ws"
mkdir -p "$WS"
git -C "$WS" init -q
git -C "$WS" -c user.email=b@x -c user.name=b commit -q --allow-empty -m base
BASE=$(git -C "$WS" rev-parse HEAD)
cp -r "$OUT/session5/.cursor" "$OUT/session5/mcptrustchecker.lock" "$WS/"
git -C "$WS" add -A
git -C "$WS" -c user.email=b@x -c user.name=b commit -q -m head
HEAD_=$(git -C "$WS" rev-parse HEAD)
CI="env -u GITHUB_ACTIONS -u GITHUB_EVENT_PATH -u GITHUB_EVENT_NAME -u CI $BIN ci --base $BASE --head $HEAD_ --workspace $WS"
# The git commands `ci` runs, timed on their own (a logging wrapper on PATH).
mkdir -p "$OUT/gitwrap"
REAL_GIT=$(command -v git)
cat > "$OUT/gitwrap/git" <<EOF
#!/usr/bin/env bash
s=\$(date +%s%N); "$REAL_GIT" "\$@"; rc=\$?; e=\$(date +%s%N)
echo \$(( (e - s) / 1000 )) >> "$OUT/git.us"; exit \$rc
EOF
chmod +x "$OUT/gitwrap/git"
git_ms=()
for _ in $(seq 5); do
  rm -f "$OUT/git.us"
  PATH="$OUT/gitwrap:$PATH" $CI >/dev/null 2>&1 || true
  git_ms+=("$(awk '{s+=$1} END {printf "%.2f", s/1000}' "$OUT/git.us")")
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
GIT_MS=$(printf "%s\n" "${git_ms[@]}" | median)

scan() { echo "$BIN scan $1 --format json -o $OUT/r-$2.json --fail-on none"; }
python3 bench/measure.py "$RUNS" \
  "small=$(scan "$OUT/c5.tools.json" small)" \
  "ci=$CI" \
  "floor2000=$T/examples/floor $OUT/c2000.tools.json" \
  "scan2000=$(scan "$OUT/c2000.tools.json" 2000)" \
  "floor10000=$T/examples/floor $OUT/c10000.tools.json" \
  "scan10000=$(scan "$OUT/c10000.tools.json" 10000)" > "$OUT/m.txt"
get() { awk -v n="$1" -v c="$2" '$1==n {print $c}' "$OUT/m.txt"; }

# A session: one Cursor config with 1,000 servers x 20 tools pinned in the lockfile.
"$T/examples/gen_session" 1000 20 "$OUT/session" >/dev/null
python3 bench/measure.py 3 \
  "session=$BIN scan $OUT/session --root $OUT/session --max-file-size 200000000 --format json -o $OUT/r-s.json --fail-on none" \
  >> "$OUT/m.txt"

check() { awk -v v="$1" -v t="$2" 'BEGIN {print (v < t) ? "met" : "MISSED"}'; }
row() { printf "%-58s %12s  %-14s %s\n" "$1" "$2" "$3" "$4"; }
small_ms=$(get small 2); small_mb=$(get small 3)
ci_ms=$(get ci 2); ci_x=$(awk -v a="$ci_ms" -v g="$GIT_MS" 'BEGIN {printf "%.2f", a - g}')
s2=$(get scan2000 2); f2=$(get floor2000 2); s10=$(get scan10000 2); m10=$(get scan10000 3)
ratio=$(awk -v s="$s2" -v f="$f2" 'BEGIN {printf "%.1f", s / f}')
lin=$(awk -v a="$s10" -v b="$s2" 'BEGIN {printf "%.2f", a / b}')
echo "medians of $RUNS interleaved runs (session: 3), release build, whole process"
row "figure" "measured" "target" ""
row "one small manifest (5 tools): wall" "$small_ms ms" "< 5 ms" "$(check "$small_ms" 5)"
row "one small manifest (5 tools): peak RSS" "$small_mb MB" "< 15 MB" "$(check "$small_mb" 15)"
row "ci, PR adding 1 config (5 servers) + lockfile, excl. git" "$ci_x ms" "< 20 ms" "$(check "$ci_x" 20)"
row "  (ci wall $ci_ms ms, of which its git commands)" "$GIT_MS ms" "" ""
row "2,000 tools (2.9 MB): wall" "$s2 ms" "< 40 ms" "$(check "$s2" 40)"
row "2,000 tools: floor (read + serde_json parse)" "$f2 ms" "" ""
row "2,000 tools: scan / floor" "${ratio}x" "<= 5x" "$(check "$ratio" 5.0001)"
row "10,000 tools (14.6 MB): wall" "$s10 ms" "< 250 ms" "$(check "$s10" 250)"
row "10,000 tools: peak RSS" "$m10 MB" "< 100 MB" "$(check "$m10" 100)"
row "10,000 tools: floor" "$(get floor10000 2) ms" "" ""
row "linearity: 10,000 / 2,000 tools (5x the input)" "${lin}x" "~5x" ""
row "session 1,000 servers x 20 tools (37 MB lockfile): wall" "$(get session 2) ms" "< 2 s" "$(check "$(get session 2)" 2000)"
row "session: peak RSS" "$(get session 3) MB" "" ""
if [ "${BENCH_CRITERION:-1}" != 0 ]; then
  thr=$(cargo bench --locked --bench pipeline -- --noplot 'stages/unicode\+injection-1-thread' 2>/dev/null \
    | awk '$1 == "thrpt:" {print $4, $5; exit}')
  row "stages 1+2, one thread (criterion median)" "$thr" ">= 50 MB/s" ""
fi
