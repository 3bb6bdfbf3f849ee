#!/usr/bin/env python3
"""Live scans of real configs, measured.

Builds two client configs from the recorded catalogs in
tests/vendor/corpora/real-catalogs/ (each file's `command`, `args` and `env`
are the config entry): a Claude Desktop config of every npm server and a
VS Code config of every PyPI server. Locks each one live (`lock --live`, which
reads every server and writes its catalog), then compares each server's tool
names with its recorded catalog.

Needs the network (npm and PyPI), `npx` and `uvx` on PATH. Not part of the
test suite. Usage:

    bench/live_real.py [--bin target/release/mcptrustchecker] [--cache DIR]
                       [--cold] [--concurrency N] [--markdown FILE]

`--cold` empties the package cache first (the first scan on a new machine);
without it the cache is reused (every later scan).
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "tests" / "vendor" / "corpora" / "real-catalogs"


def catalogs():
    out = []
    for f in sorted(CATALOGS.glob("*.json")):
        d = json.loads(f.read_text())
        out.append(d)
    return out


def entry(d):
    e = {"command": d["command"], "args": d["args"]}
    if d.get("env"):
        e["env"] = d["env"]
    return e


def run(binary, configs, cache, concurrency, extra):
    """Lock one config live; return (seconds, {server: tool names or None}, stderr)."""
    with tempfile.TemporaryDirectory(prefix="mtc-live-real-") as tmp:
        root = pathlib.Path(tmp)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        for rel, doc in configs.items():
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(json.dumps(doc, indent=2))
        lock = root / "mcptrustchecker.lock"
        cmd = [
            binary, "lock", str(root), "--root", str(root), "--lockfile", str(lock),
            "--live", "--live-concurrency", str(concurrency), "--live-cache", str(cache),
        ] + extra
        t = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True)
        took = time.monotonic() - t
        names = {}
        if lock.exists():
            doc = json.loads(lock.read_text())
            for sid, s in doc.get("servers", {}).items():
                name = sid.rsplit("#", 1)[-1]
                names[name] = sorted(t["name"] for t in s.get("tools", []))
        return took, names, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "mcptrustchecker"))
    ap.add_argument("--cache", default=str(pathlib.Path(tempfile.gettempdir()) / "mtc-live-real-cache"))
    ap.add_argument("--cold", action="store_true")
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--markdown")
    ap.add_argument("--only", choices=["npm", "pypi"])
    ap.add_argument("extra", nargs="*", help="more flags for `lock` (after --)")
    a = ap.parse_args()
    cache = pathlib.Path(a.cache)
    if a.cold and cache.exists():
        shutil.rmtree(cache)
    cats = catalogs()
    sets = {
        "npm (Claude Desktop config)": (
            "npm",
            "claude_desktop_config.json",
            lambda servers: {"mcpServers": servers},
        ),
        "PyPI (VS Code config)": (
            "pypi",
            ".vscode/mcp.json",
            lambda servers: {"servers": {k: dict(v, type="stdio") for k, v in servers.items()}},
        ),
    }
    lines = [
        f"Live scans of real configs ({'cold' if a.cold else 'warm'} package cache, "
        f"concurrency {a.concurrency}, {os.cpu_count()} cores)",
        "",
        "| config | servers | read live | tool names equal to the recorded catalog | wall time |",
        "|---|---|---|---|---|",
    ]
    details = []
    for label, (registry, rel, wrap) in sets.items():
        if a.only and a.only != registry:
            continue
        chosen = [d for d in cats if d["package"]["registry"] == registry]
        servers = {d["name"]: entry(d) for d in chosen}
        took, names, stderr = run(a.bin, {rel: wrap(servers)}, cache, a.concurrency, a.extra)
        read = [d for d in chosen if names.get(d["name"])]
        equal = [d for d in read if names[d["name"]] == sorted(t["name"] for t in d["tools"])]
        lines.append(
            f"| {label} | {len(chosen)} | {len(read)} ({100 * len(read) / max(1, len(chosen)):.0f}%) "
            f"| {len(equal)} ({100 * len(equal) / max(1, len(chosen)):.0f}%) | {took:.1f} s |"
        )
        for d in chosen:
            got = names.get(d["name"])
            want = sorted(t["name"] for t in d["tools"])
            if not got:
                details.append(f"- {d['name']} ({registry}): not read live")
            elif got != want:
                extra = sorted(set(got) - set(want))
                missing = sorted(set(want) - set(got))
                details.append(
                    f"- {d['name']} ({registry}): {len(got)} tools vs {len(want)} recorded; "
                    f"new {extra[:5]}, missing {missing[:5]}"
                )
        if stderr.strip():
            sys.stderr.write(stderr)
    text = "\n".join(lines + ([""] + details if details else [])) + "\n"
    print(text)
    if a.markdown:
        pathlib.Path(a.markdown).write_text(text)


if __name__ == "__main__":
    main()
