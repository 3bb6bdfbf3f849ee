#!/usr/bin/env bash
# Regenerate the PR-comment examples in docs/: two pull requests on a copy of
# fixtures/demo, run through `mcptrustchecker ci` exactly as the action runs it
# (the job summary is the comment's Markdown), rendered with GitHub's Markdown
# renderer (cmark-gfm, from the test venv) and photographed in headless
# Chromium:
#
#   docs/comment-poisoned.{md,png}  a PR hides instructions in a tool description
#                                   (Tags block) without updating the lockfile
#   docs/comment-reviewed.{md,png}  a PR adds a tool and re-locks: a reviewed change
#
# Commits carry fixed dates, so the same version renders the same bytes.
# Needs: a release build (cargo build --release), bash scripts/test-deps.sh
# (.cache/venv with cmarkgfm), Debian's chromium and an emoji font
# (apt-get install chromium fonts-noto-color-emoji).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
bin=${MTC_BIN:-$repo/target/release/mcptrustchecker}
py=$repo/.cache/venv/bin/python
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -x "$bin" ] || { echo "comment-screenshot: build first: cargo build --release" >&2; exit 2; }
[ -x "$py" ] || { echo "comment-screenshot: run bash scripts/test-deps.sh first" >&2; exit 2; }
[ -n "$chrome" ] || { echo "comment-screenshot: install chromium (apt-get install chromium fonts-noto-color-emoji)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.com GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.com
export GIT_AUTHOR_DATE=2026-11-30T09:00:00Z GIT_COMMITTER_DATE=2026-11-30T09:00:00Z

# A repository whose base commit pins a clean notes server.
base_repo() { # base_repo DIR
  mkdir -p "$1"
  cp -r fixtures/demo/. "$1/"
  # The clean description: the demo's poisoned one without its Tags-block characters.
  "$py" - "$1/servers/notes/tools.json" <<'PY'
import re, sys
p = sys.argv[1]
t = open(p, encoding="utf-8").read()
open(p, "w", encoding="utf-8").write(re.sub("[\U000E0000-\U000E007F]", "", t))
PY
  git -C "$1" init -q -b main
  (cd "$1" && "$bin" lock >/dev/null)
  git -C "$1" add -A
  git -C "$1" commit -qm base
}

run_ci() { # run_ci DIR NAME: the comment Markdown into docs/NAME.md
  local base head
  base=$(git -C "$1" rev-parse HEAD~1)
  head=$(git -C "$1" rev-parse HEAD)
  : >"$tmp/summary.md"
  set +e
  env -i PATH="$PATH" HOME="$tmp" GITHUB_STEP_SUMMARY="$tmp/summary.md" \
    GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=octo-org/agents \
    GITHUB_RUN_ID=4242 GITHUB_RUN_ATTEMPT=1 INPUT_COMMENT=false INPUT_SARIF-FILE="$tmp/r.sarif" \
    RUNNER_TEMP="$tmp" "$bin" ci --workspace "$1" --base "$base" --head "$head" >"$tmp/log" 2>&1
  echo "comment-screenshot: $2: ci exited $?"
  set -e
  cp "$tmp/summary.md" "docs/$2.md"
}

# 1. Poisoned: the demo's hidden payload arrives, the lockfile is not updated.
base_repo "$tmp/poisoned"
cp fixtures/demo/servers/notes/tools.json "$tmp/poisoned/servers/notes/tools.json"
git -C "$tmp/poisoned" commit -qam "Improve note search"
run_ci "$tmp/poisoned" comment-poisoned

# 2. Reviewed: a benign tool is added and the lockfile re-pinned in the same PR.
base_repo "$tmp/reviewed"
"$py" - "$tmp/reviewed/servers/notes/tools.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p, encoding="utf-8"))
d["tools"].append({"name": "add_note", "description": "Add a note with a title and a body.",
                   "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}, "body": {"type": "string"}},
                                   "required": ["title"]}})
open(p, "w", encoding="utf-8").write(json.dumps(d, indent=2) + "\n")
PY
(cd "$tmp/reviewed" && "$bin" lock >/dev/null)
git -C "$tmp/reviewed" commit -qam "Add add_note, re-lock"
run_ci "$tmp/reviewed" comment-reviewed

# Render like a GitHub comment and photograph it.
for name in comment-poisoned comment-reviewed; do
  "$py" - "docs/$name.md" "$tmp/$name.html" <<'PY'
import sys, cmarkgfm
from cmarkgfm.cmark import Options
md = open(sys.argv[1], encoding="utf-8").read()
body = cmarkgfm.github_flavored_markdown_to_html(md, options=Options.CMARK_OPT_UNSAFE)
css = """body{font:14px/1.5 -apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#1f2328;margin:0;background:#f6f8fa}
.c{max-width:860px;margin:16px;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:16px 24px}
h2{font-size:20px;border-bottom:1px solid #d8dee4;padding-bottom:.3em}h3{font-size:16px}h4{font-size:14px}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:#eff1f3;padding:.2em .4em;border-radius:6px}
pre{background:#f6f8fa;padding:12px;border-radius:6px;overflow:auto}pre code{background:none;padding:0}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 12px}a{color:#0969da;text-decoration:none}
ins{background:#dafbe1;text-decoration:none}del{background:#ffebe9}details{margin:8px 0}summary{cursor:pointer}
sub{color:#59636e}hr{border:0;border-top:1px solid #d8dee4}"""
open(sys.argv[2], "w", encoding="utf-8").write(
    f"<!doctype html><meta charset=utf-8><style>{css}</style><div class=c>{body}</div>")
PY
  "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/chrome-$name" --hide-scrollbars --window-size=910,1700 \
    --screenshot="$repo/docs/$name.png" "file://$tmp/$name.html" >/dev/null 2>&1
  echo "comment-screenshot: docs/$name.png"
done
