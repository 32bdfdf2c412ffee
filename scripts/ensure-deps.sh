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
    # Another apt or dpkg (unattended-upgrades, a second make) may hold the dpkg lock: wait for it
    # (up to ENSURE_DEPS_LOCK_WAIT seconds, default 15 minutes) instead of failing at once.
    wait_seconds=${ENSURE_DEPS_LOCK_WAIT:-900}
    apt_get=(apt-get -o "DPkg::Lock::Timeout=$wait_seconds" -y -qq)
    if lock_holder=$(bash "$(dirname "$0")/dpkg-lock-holder.sh" 2>/dev/null) && [ -n "$lock_holder" ]; then
        echo "Waiting up to ${wait_seconds}s for the dpkg lock, held by: $lock_holder" >&2
    fi
    echo "Installing ${missing[*]} with apt-get..." >&2
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    # Refresh the package lists only when the install cannot find a package.
    if ! DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install "${missing[@]}" >"$log" 2>&1; then
        if ! "${apt_get[@]}" update >"$log" 2>&1 ||
           ! DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install "${missing[@]}" >"$log" 2>&1; then
            echo "apt-get could not install ${missing[*]}:" >&2
            tail -n 20 "$log" >&2
            exit 1
        fi
    fi
    exit 0
fi
echo "TrackSnap needs: ${missing[*]}. Install with:" >&2
echo "    sudo apt-get install -y ${missing[*]}" >&2
exit 1
