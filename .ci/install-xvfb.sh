#!/usr/bin/env bash
# Xvfb (a headless X server) for the live-attach tests, which start KiCad's PCB editor
# under it (tests/kicad/test_live.py), plus ImageMagick's `import` for screenshots of
# its window and xdotool to drive it as a person would. Debian packages, from the
# mirror already in this machine's apt sources.
set -euo pipefail

if command -v Xvfb >/dev/null 2>&1 && command -v import >/dev/null 2>&1 && command -v xdotool >/dev/null 2>&1; then
    echo "install-xvfb: Xvfb, import and xdotool already present"
    exit 0
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends xvfb imagemagick xdotool
