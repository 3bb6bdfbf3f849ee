#!/usr/bin/env bash
# Build the Dockerfile and run the image's entrypoint on a fixture repository the
# way the GitHub runner runs a container action, then check what the runner (uid
# 1001 on the host) gets back: exit codes, outputs, a readable SARIF file, and a
# workspace left untouched.
#
# Works without a container engine or registry access: the two base images are
# built from Debian packages with debootstrap (bookworm) and imported into local
# storage with buildah; the build base gets the host's Rust toolchain (>= 1.95).
# The image is built with `buildah bud --isolation chroot` and run with
# `buildah run --isolation chroot`. Everything is cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/mcptrustchecker-image-test/ (rootfs trees, the
# cargo registry, the cargo target dir) and in buildah's storage (base images,
# build layers), so a re-run only rebuilds what changed.
#
# Needs root (debootstrap, chroot isolation, chown to uid 1001), buildah,
# debootstrap, setpriv (util-linux), git, python3 and rustc/cargo >= 1.95 on the
# host. On Debian/Ubuntu: apt-get install -y buildah debootstrap. With
# --install-deps (as root) the script runs that apt-get itself.
#
# Usage: sudo bash scripts/image-test.sh [--install-deps] [--rebuild-bases] [--keep]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

install_deps=0 rebuild_bases=0 keep=0
for a in "$@"; do
  case "$a" in
    --install-deps) install_deps=1 ;;
    --rebuild-bases) rebuild_bases=1 ;;
    --keep) keep=1 ;;
    -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $a" >&2; exit 2 ;;
  esac
done

t0=$(date +%s)
phase_start=$t0
phase() { # phase NAME: print the time the previous phase took
  local now
  now=$(date +%s)
  printf '== %s (+%ss, total %ss)\n' "$1" "$((now - phase_start))" "$((now - t0))"
  phase_start=$now
}

if [ "$(id -u)" -ne 0 ]; then
  echo "image-test: run as root (debootstrap, chroot isolation and chown to uid 1001 need it)" >&2
  exit 2
fi
missing=()
for c in buildah debootstrap setpriv git python3 rustc cargo; do
  command -v "$c" >/dev/null || missing+=("$c")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$install_deps" = 1 ] && command -v apt-get >/dev/null; then
    apt-get install -y buildah debootstrap util-linux git python3
  else
    echo "image-test: missing ${missing[*]}; install with: apt-get install -y buildah debootstrap" >&2
    echo "(or re-run with --install-deps); rustc/cargo >= 1.95 come from rustup" >&2
    exit 2
  fi
fi

cache="${XDG_CACHE_HOME:-$HOME/.cache}/mcptrustchecker-image-test"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
suite=bookworm
mkdir -p "$cache"
export BUILDAH_ISOLATION=chroot
prefix=localhost/mcptrustchecker-image-test
sysroot=$(rustc --print sysroot)
rust_version=$(rustc --version | awk '{print $2}')
runtime_base="$prefix/runtime-base:$suite"
build_base="$prefix/build-base:$suite-rust-$rust_version"
image="$prefix/mcptrustchecker:local"
host_ca=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}

have_image() { buildah inspect --type image "$1" >/dev/null 2>&1; }

# debootstrap ROOTFS [--include=...]: a minbase Debian tree, built once.
bootstrap() {
  local dir=$1
  shift
  if [ "$rebuild_bases" = 1 ]; then rm -rf "$dir" "$dir.done"; fi
  if [ ! -f "$dir.done" ]; then
    rm -rf "$dir"
    debootstrap --variant=minbase "$@" "$suite" "$dir" "$mirror" >"$dir.log" 2>&1 || {
      tail -20 "$dir.log" >&2
      exit 2
    }
    rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
    touch "$dir.done"
  fi
}

# import ROOTFS NAME [buildah config args...]: the tree as a one-layer local image.
import() {
  local dir=$1 name=$2 ctr mnt
  shift 2
  if [ "$rebuild_bases" = 1 ] && have_image "$name"; then buildah rmi -f "$name" >/dev/null; fi
  have_image "$name" && return 0
  ctr=$(buildah from scratch)
  mnt=$(buildah mount "$ctr")
  cp -a "$dir"/. "$mnt"/
  buildah umount "$ctr" >/dev/null
  buildah config "$@" --cmd /bin/bash "$ctr"
  buildah commit --quiet --rm "$ctr" "$name" >/dev/null
}

phase "checks done; cache in $cache"
bootstrap "$cache/rootfs-runtime"
import "$cache/rootfs-runtime" "$runtime_base" \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
phase "runtime base $runtime_base"

bootstrap "$cache/rootfs-build" --include=gcc,libc6-dev,ca-certificates
if ! have_image "$build_base" || [ "$rebuild_bases" = 1 ]; then
  # The host toolchain (Debian's rustc is too old for edition 2024), in the
  # layout of the official rust image: CARGO_HOME=/usr/local/cargo.
  rm -rf "$cache/rootfs-build/usr/local/rust"
  mkdir -p "$cache/rootfs-build/usr/local/rust/bin" "$cache/rootfs-build/usr/local/cargo"
  cp -a "$sysroot/bin/rustc" "$sysroot/bin/cargo" "$cache/rootfs-build/usr/local/rust/bin/"
  cp -a "$sysroot/lib" "$cache/rootfs-build/usr/local/rust/"
  # The host's CA bundle, so cargo reaches crates.io through the same (possibly
  # TLS-intercepting) proxy the host uses. Only this local build base has it.
  cp "$host_ca" "$cache/rootfs-build/etc/ssl/certs/ca-certificates.crt"
fi
import "$cache/rootfs-build" "$build_base" \
  --env PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env CARGO_HOME=/usr/local/cargo
phase "build base $build_base (rustc $rust_version)"

# The build: the registry and the target dir are volumes, so a source change
# rebuilds incrementally and the crates are downloaded once.
mkdir -p "$cache/cargo-registry" "$cache/target"
buildah bud --isolation chroot --layers --quiet \
  --build-arg "BUILD_BASE=$build_base" --build-arg "RUNTIME_BASE=$runtime_base" \
  --volume "$cache/cargo-registry:/usr/local/cargo/registry" \
  --volume "$cache/target:/build/target" \
  --tag "$image" --file Dockerfile . >"$cache/build.log" 2>&1 || {
  tail -40 "$cache/build.log" >&2
  echo "image-test: the build failed (full log: $cache/build.log)" >&2
  exit 1
}
phase "built $image"

# The image's OCI config, as the runner's `docker run` reads it.
config() {
  buildah inspect --type image "$image" | python3 -c '
import json, sys
v = json.load(sys.stdin)["OCIv1"]["config"].get(sys.argv[1])
print(v if isinstance(v, str) else json.dumps(v, separators=(",", ":")) if v else "")' "$1"
}
entrypoint=$(config Entrypoint)
cmd=$(config Cmd)
user=$(config User)
workdir=$(config WorkingDir)
mapfile -t entry_argv < <(python3 -c 'import json,sys; [print(a) for a in json.loads(sys.argv[1] or "[]")]' "$entrypoint")
# action.yml's args replace CMD, as `docker run IMAGE ARGS` does.
mapfile -t action_args < <(sed -n 's/^  args: \[\(.*\)\]$/\1/p' action.yml | tr ',' '\n' | tr -d ' "')

tmp=$(mktemp -d /tmp/mtc-image-test.XXXXXX)
chmod 755 "$tmp" # the runner user reaches RUNNER_TEMP
ctr=""
cleanup() {
  [ -n "$ctr" ] && buildah rm "$ctr" >/dev/null 2>&1
  if [ "$keep" = 1 ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
ctr=$(buildah from --pull-never "$image")

pass=0 fail=0 failed=()
check() { # check NAME COMMAND...: one named assertion
  local name=$1
  shift
  if "$@"; then
    pass=$((pass + 1))
    echo "  ok    $name"
  else
    fail=$((fail + 1))
    failed+=("$name")
    echo "  FAIL  $name"
  fi
}
as_runner() { setpriv --reuid=1001 --regid=1001 --clear-groups -- "$@"; }

# The fixture repository as actions/checkout leaves it: a git work tree owned by
# the runner user.
fixture_repo() {
  local ws=$1
  mkdir -p "$ws"
  cp -a fixtures/demo/. "$ws"/
  git -C "$ws" init --quiet --initial-branch=main
  git -C "$ws" -c user.name=t -c user.email=t@example.invalid add -A
  git -C "$ws" -c user.name=t -c user.email=t@example.invalid commit --quiet -m fixture
  chown -R 1001:1001 "$ws"
}

# run_action NAME ENV...: one action step. Prints the exit code into $tmp/NAME/rc.
run_action() {
  local name=$1 d
  shift
  d="$tmp/$name"
  local rt="$d/runner/_temp"
  mkdir -p "$rt/_github_home" "$rt/_runner_file_commands" "$rt/_github_workflow"
  fixture_repo "$d/work/repo"
  : >"$rt/_runner_file_commands/set_output_x"
  : >"$rt/_runner_file_commands/step_summary_x"
  echo '{"schedule": "17 4 * * 1"}' >"$rt/_github_workflow/event.json"
  chown -R 1001:1001 "$d/runner"
  # Every input the runner passes: INPUT_<NAME> (hyphens kept) with its default.
  local -a inputs=()
  while IFS='=' read -r k v; do
    inputs+=(--env "INPUT_${k^^}=$v")
  done < <(python3 - action.yml <<'EOF'
import re, sys
name = None
section = False
for line in open(sys.argv[1]):
    if re.match(r"^\S", line):
        section = line.startswith("inputs:")
        continue
    if not section:
        continue
    m = re.match(r"^  ([a-z0-9-]+):\s*$", line)
    if m:
        name = m.group(1)
        continue
    m = re.match(r"^    default:\s*(.*?)\s*$", line)
    if m and name:
        v = m.group(1)
        if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
            v = v[1:-1]
        if "${{" in v:
            v = ""  # github.token: the step has no token here
        print(f"{name}={v}")
EOF
  )
  local rc=0
  buildah run --isolation chroot \
    --volume "$d/work/repo:/github/workspace" \
    --volume "$rt/_github_home:/github/home" \
    --volume "$rt/_runner_file_commands:/github/file_commands" \
    --volume "$rt/_github_workflow:/github/workflow" \
    --workingdir /github/workspace \
    --env HOME=/github/home --env GITHUB_WORKSPACE=/github/workspace \
    --env RUNNER_TEMP="$rt" --env GITHUB_ACTIONS=true --env CI=true \
    --env GITHUB_EVENT_NAME=schedule --env GITHUB_EVENT_PATH=/github/workflow/event.json \
    --env GITHUB_REPOSITORY=owner/repo --env GITHUB_REF=refs/heads/main \
    --env "GITHUB_SHA=$(git -c safe.directory='*' -C "$d/work/repo" rev-parse HEAD)" \
    --env GITHUB_OUTPUT=/github/file_commands/set_output_x \
    --env GITHUB_STEP_SUMMARY=/github/file_commands/step_summary_x \
    "${inputs[@]}" "$@" \
    "$ctr" -- "${entry_argv[@]}" "${action_args[@]}" >"$d/stdout" 2>"$d/stderr" || rc=$?
  echo "$rc" >"$d/rc"
}

# output NAME KEY: a step output as the runner parses GITHUB_OUTPUT (key=value or heredoc).
output() {
  python3 - "$tmp/$1/runner/_temp/_runner_file_commands/set_output_x" "$2" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
out, i = {}, 0
while i < len(lines):
    l = lines[i]
    if "<<" in l and ("=" not in l or l.index("<<") < l.index("=")):
        k, delim = l.split("<<", 1)
        j = lines.index(delim, i + 1)
        out[k] = "\n".join(lines[i + 1:j])
        i = j + 1
        continue
    if "=" in l:
        k, v = l.split("=", 1)
        out[k] = v
    i += 1
print(out.get(sys.argv[2], ""), end="")
EOF
}

# host_path RUN PATH: where the runner finds an output path. The contract is a
# host path; a path relative to the workspace or inside the container's mounts
# is mapped too, so the file checks below test the file, not only the path.
host_path() {
  local d="$tmp/$1"
  case "$2" in
    "") echo "" ;;
    /github/workspace/*) echo "$d/work/repo/${2#/github/workspace/}" ;;
    /github/home/*) echo "$d/runner/_temp/_github_home/${2#/github/home/}" ;;
    /*) echo "$2" ;;
    *) echo "$d/work/repo/$2" ;;
  esac
}

# sarif_ok PATH CATEGORY: read by the runner user, SARIF 2.1.0, category as asked.
sarif_ok() {
  [ -n "$1" ] || return 1
  as_runner cat "$1" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
assert doc.get("version") == "2.1.0", doc.get("version")
got = (doc["runs"][0].get("automationDetails") or {}).get("id")
# A category is written as `category/` (upload-sarif does the same: the
# trailing slash says "no run id").
want = (sys.argv[1].rstrip("/") + "/") if sys.argv[1] else None
assert got == want, (got, want)' "$2"
}

workspace_clean() { # nothing new, changed or ignored in the checkout
  local st
  st=$(git -c safe.directory='*' -C "$tmp/$1/work/repo" status --porcelain --untracked-files=all --ignored) || return 1
  [ -z "$st" ] || { printf '        %s\n' "$st"; return 1; }
}

phase "image config: ENTRYPOINT $entrypoint CMD $cmd (action args: ${action_args[*]})"
echo "checks:"
check "ENTRYPOINT is the binary" test "$entrypoint" = '["/usr/local/bin/mcptrustchecker"]'
check "CMD is ci" test "$cmd" = '["ci"]'
check "no USER, no WORKDIR" test -z "$user$workdir"
entry() { buildah run --isolation chroot "$ctr" -- "${entry_argv[@]}" "$@" >"$tmp/out" 2>&1; }
for args in "lock --help" "rules" "--version"; do
  # shellcheck disable=SC2086 # word-split on purpose: `docker run IMAGE lock --help`
  check "IMAGE $args exits 0" entry $args
done
buildah run --isolation chroot "$ctr" -- "${entry_argv[@]}" rules >"$tmp/out" 2>&1 || true
check "IMAGE rules lists MTC-UNI-001" grep -q MTC-UNI-001 "$tmp/out"
phase "entrypoint checks"

category=mcptrustchecker-image-test
run_action gate --env "INPUT_CATEGORY=$category"
rt="$tmp/gate/runner/_temp"
sarif_out=$(output gate sarif-file)
sarif=$(host_path gate "$sarif_out")
echo "  (gate: exit $(cat "$tmp/gate/rc"), grade=$(output gate grade), sarif-file=$sarif_out)"
check "fixtures/demo fails the gate: exit 1" test "$(cat "$tmp/gate/rc")" = 1
check "grade output is F" test "$(output gate grade)" = F
check "passed output is false" test "$(output gate passed)" = false
check "sarif-file output is a host path under \$RUNNER_TEMP/_github_home" \
  test "${sarif_out#"$rt/_github_home/"}" != "$sarif_out"
check "the SARIF file is a readable regular file for uid 1001" as_runner test -f "$sarif" -a -r "$sarif" -a ! -L "$sarif"
mode=$(stat -c %a "$sarif" 2>/dev/null || echo missing)
check "the SARIF file is mode 0644 (it is $mode)" test "$mode" = 644
check "the SARIF parses as 2.1.0 with automationDetails.id = category" sarif_ok "$sarif" "$category"
check "the step summary is written" as_runner test -s "$rt/_runner_file_commands/step_summary_x"
check "nothing written into the workspace" workspace_clean gate
phase "gate run (default inputs, category set)"

run_action report --env "INPUT_FAIL-ON=none" --env "INPUT_FAIL-ON-DRIFT=false"
sarif_out=$(output report sarif-file)
sarif=$(host_path report "$sarif_out")
echo "  (report: exit $(cat "$tmp/report/rc"), grade=$(output report grade), sarif-file=$sarif_out)"
check "fail-on none, fail-on-drift false: exit 0" test "$(cat "$tmp/report/rc")" = 0
check "grade output is still F" test "$(output report grade)" = F
check "passed output is true" test "$(output report passed)" = true
check "the SARIF is readable for uid 1001, 2.1.0, no automationDetails.id" sarif_ok "$sarif" ""
check "nothing written into the workspace" workspace_clean report
phase "report-only run (fail-on none)"

for r in gate report; do
  if [ "$(cat "$tmp/$r/rc")" = 2 ] || [ "$fail" -gt 0 ]; then
    echo "--- $r stderr (last lines)"
    tail -5 "$tmp/$r/stderr"
  fi
done
echo "image-test: $pass passed, $fail failed in $(($(date +%s) - t0))s"
if [ "$fail" -gt 0 ]; then
  printf '  failed: %s\n' "${failed[@]}"
  exit 1
fi
