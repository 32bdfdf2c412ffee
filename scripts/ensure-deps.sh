#!/usr/bin/env bash
# Installs the named Debian packages when missing, if we are root with apt-get; otherwise prints the
# exact command to run and fails. Used by the Makefile and .ci/run.
set -euo pipefail
missing=()
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing ${missing[*]} with apt-get..." >&2
    # Refresh the package lists only when the install cannot find a package.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || {
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    }
    exit 0
fi
echo "TrackSnap needs: ${missing[*]}. Install with:" >&2
echo "    sudo apt-get install -y ${missing[*]}" >&2
exit 1
