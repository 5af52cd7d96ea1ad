#!/usr/bin/env bash
# Install KiCad 9 (kicad-cli, demos, official libraries, pcbnew for the system python)
# from Debian's bookworm-backports suite, using the mirror already configured in this
# machine's apt sources. No host name is written here: it is read from those sources.
set -euo pipefail

if command -v kicad-cli >/dev/null 2>&1 && kicad-cli version 2>/dev/null | grep -q '^9\.'; then
    echo "install-kicad: kicad-cli $(kicad-cli version) already present"
    exit 0
fi

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

list=/etc/apt/sources.list.d/boardwire-backports.sources
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    # First Debian (non-security) mirror URI from deb822 or one-line sources.
    mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' \
             | grep -v -- '-security' | grep -i debian | head -n1 || true)
    if [ -z "$mirror" ]; then
        mirror=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' \
                 | grep -v -- '-security' | grep -i debian | head -n1 || true)
    fi
    if [ -z "$mirror" ]; then
        echo "install-kicad: no Debian mirror found in /etc/apt sources" >&2
        exit 1
    fi
    printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$mirror" | $SUDO tee "$list" >/dev/null
    echo "install-kicad: added bookworm-backports from $mirror"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q -t bookworm-backports --no-install-recommends \
    kicad kicad-demos kicad-footprints kicad-symbols
kicad-cli version
