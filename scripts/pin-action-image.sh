#!/usr/bin/env bash
# Pin action.yml to a published image: rewrite `runs.image` from the Dockerfile
# (built on the user's runner) to docker://IMAGE@sha256:DIGEST, and drop the
# comment above it that says it builds from the Dockerfile. The release workflow
# runs it on the release commit only; main keeps `image: Dockerfile`.
#
# Usage: scripts/pin-action-image.sh ghcr.io/OWNER/REPO@sha256:<64 hex> [ACTION_YML]
set -euo pipefail
ref=${1:?usage: pin-action-image.sh IMAGE@sha256:DIGEST [action.yml]}
file=${2:-"$(dirname "$0")/../action.yml"}
ref=${ref#docker://}
if ! [[ "$ref" =~ ^[a-z0-9]+([._-][a-z0-9]+)*(\.[a-z0-9]+)*(:[0-9]+)?(/[a-z0-9]+([._-][a-z0-9]+)*)+@sha256:[0-9a-f]{64}$ ]]; then
  echo "pin-action-image: not a lower-case IMAGE@sha256:<64 hex> reference: $ref" >&2
  exit 2
fi
# Exactly one `image:` under `runs:`, at two spaces.
n=$(grep -c '^  image: ' "$file" || true)
if [ "$n" -ne 1 ]; then
  echo "pin-action-image: expected one '  image:' line in $file, found $n" >&2
  exit 2
fi
tmp=$(mktemp "$file.XXXXXX")
trap 'rm -f "$tmp"' EXIT
# Drop the run of comment lines directly above `image:` (the note about the
# Dockerfile), then replace the line itself.
awk -v ref="$ref" '
  /^  #/ { held = held $0 "\n"; next }
  /^  image: / { held = ""; print "  image: docker://" ref; next }
  { printf "%s", held; held = ""; print }
  END { printf "%s", held }
' "$file" >"$tmp"
grep -qxF "  image: docker://$ref" "$tmp"
cat "$tmp" >"$file"
