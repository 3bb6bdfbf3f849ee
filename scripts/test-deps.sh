#!/usr/bin/env bash
# Install the tools the test suite drives, into .cache/ (idempotent, registries only):
# a Python venv with the SARIF/workflow validators and the MCP SDK for fixture servers.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache
if [ ! -x .cache/venv/bin/python ]; then
  python3 -m venv .cache/venv
fi
.cache/venv/bin/python -m pip install --quiet --disable-pip-version-check -r scripts/test-requirements.txt
# Published MCP servers for the live tests (npm registry, pinned), into .cache/npm.
if [ ! -f .cache/npm/node_modules/@modelcontextprotocol/server-everything/package.json ]; then
  mkdir -p .cache/npm
  npm install --silent --no-audit --no-fund --prefix .cache/npm @modelcontextprotocol/server-everything@2026.8.31
fi
# The npm filesystem server (flows: the filesystem + fetch session scanned live).
if [ ! -f .cache/npm/node_modules/@modelcontextprotocol/server-filesystem/package.json ]; then
  mkdir -p .cache/npm
  npm install --silent --no-audit --no-fund --prefix .cache/npm @modelcontextprotocol/server-filesystem@2026.8.31
fi
