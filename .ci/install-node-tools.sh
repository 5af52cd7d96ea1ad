#!/usr/bin/env bash
# Node 22 and the official MCP test tools (the conformance suite and the Inspector CLI)
# into .ci/node/node_modules, pinned by .ci/node/package-lock.json; the MCP tests run
# them from there. Does nothing when the locked versions are already installed. Without
# npm it installs Debian's (npm only unpacks here: the tools run on the locked node 22).
# No registry means a failed run, never a skipped test.
set -euo pipefail
cd "$(dirname "$0")/node"

stamp=node_modules/.installed-lock
if [ -x node_modules/.bin/node ] && cmp -s package-lock.json "$stamp"; then
    echo "install-node-tools: node $(node_modules/.bin/node --version) and the MCP tools already present"
    exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO apt-get install -y -q --no-install-recommends npm
fi

# Optional dependencies are the web Inspector's native bundlers; the CLI needs none.
# `npm install --no-save` follows the lock without rewriting it; `npm ci` (npm 11) refuses
# this lock over a Windows-only optional package it leaves out of it.
npm install --no-save --omit=optional --no-audit --no-fund --loglevel=error
node_modules/.bin/node --version | grep -q '^v22\.' || {
    echo "install-node-tools: node_modules/.bin/node is not node 22" >&2
    exit 1
}
cp package-lock.json "$stamp"
echo "install-node-tools: node $(node_modules/.bin/node --version) installed in .ci/node"
