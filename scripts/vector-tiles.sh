#!/usr/bin/env bash
# Makes the OpenMapTiles-schema vector MBTiles of Liechtenstein (issue 23's test and benchmark map)
# from the shared OSM extract with Debian's tilemaker and the config and Lua profile its package
# ships (the command in ../shared/maps/README.md). The vector benchmark (`tracksnap-dev bench
# --section vector`) and scripts/raster-tiles-from-vector.py read it; it is generated data, kept
# out of git (.bench/ by default).
#
# usage: scripts/vector-tiles.sh OUT.mbtiles [EXTRACT.osm.pbf]
#   EXTRACT defaults to $TRACKSNAP_SHARED/maps/liechtenstein-2013-08-03.osm.pbf, else the first
#   ../shared/maps/ found beside this clone or beside the main clone of its git worktrees (CI
#   checks the repository out next to the shared folder).
# Idempotent: an OUT newer than the extract is kept as it is (delete it to remake it). tilemaker
# is installed through scripts/ensure-deps.sh when missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2; }
out=$1
name=liechtenstein-2013-08-03.osm.pbf
extract=${2:-}
if [ -z "$extract" ]; then
    candidates=()
    [ -n "${TRACKSNAP_SHARED:-}" ] && candidates+=("$TRACKSNAP_SHARED/maps/$name")
    candidates+=("$repo/../shared/maps/$name")
    # A git worktree (e.g. /work/wt/NAME) sits elsewhere than its main clone: look beside that too.
    if common=$(git -C "$repo" rev-parse --path-format=absolute --git-common-dir 2>/dev/null); then
        candidates+=("$(dirname "$common")/../shared/maps/$name")
    fi
    for candidate in "${candidates[@]}"; do
        if [ -f "$candidate" ]; then extract=$candidate; break; fi
    done
    if [ -z "$extract" ]; then
        echo "vector-tiles.sh: $name not found; looked in: ${candidates[*]} (pass its path as the second argument)" >&2
        exit 1
    fi
fi
[ -f "$extract" ] || { echo "vector-tiles.sh: no such extract: $extract" >&2; exit 1; }
if [ -s "$out" ] && [ "$out" -nt "$extract" ]; then
    echo "$out is up to date"
    exit 0
fi
bash "$here/ensure-deps.sh" tilemaker
examples=/usr/share/doc/tilemaker/examples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# tilemaker resolves the profile's helper files relative to the working directory, and writes its
# output in place: build in a temporary folder and move the finished file, so an interrupted run
# never leaves a half-written OUT that the next run would take as up to date.
cp "$examples/config-openmaptiles.json" "$examples/process-openmaptiles.lua" "$work/"
mkdir -p "$(dirname "$out")"
abs_extract=$(cd "$(dirname "$extract")" && pwd)/$(basename "$extract")
(cd "$work" && tilemaker --input "$abs_extract" --output tiles.mbtiles \
    --config config-openmaptiles.json --process process-openmaptiles.lua >tilemaker.log 2>&1) || {
    tail -n 20 "$work/tilemaker.log" >&2
    exit 1
}
mv "$work/tiles.mbtiles" "$out"
echo "wrote $out ($(stat -c %s "$out") bytes) from $extract"
