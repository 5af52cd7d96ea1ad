#!/usr/bin/env bash
# Debian's chromium for the live view's browser tests (tests/web), driven by Playwright
# through its executable path: Playwright's own browser downloads are never used.
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
    echo "install-chromium: chromium already present"
    exit 0
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core
