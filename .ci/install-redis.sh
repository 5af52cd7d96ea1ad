#!/usr/bin/env bash
# Debian's redis-server for the work-queue tests (tests/jobs/test_queue.py start their
# own server on a free loopback port; nothing is left running). From the mirror already
# in this machine's apt sources.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
    echo "install-redis: redis-server already present"
    exit 0
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends redis-server
