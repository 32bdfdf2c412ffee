#!/usr/bin/env bash
# Disk full without root: a user + mount namespace with a 2 MB tmpfs as Output/.
# Renders a track, fills the disk, changes the track and runs again: the run must exit 75, return
# the job to new/ unchanged, leave no temporary file and keep the old thumbnail byte for byte;
# after space is freed, a rerun completes. Prints "disk-full: ok" on success.
set -euo pipefail
tracksnap=$1 root=$2
fail() { echo "disk-full: FAILED: $*"; exit 1; }
unshare --user --map-root-user --mount true || fail "unshare --user --mount is not permitted here"
export tracksnap root
exec unshare --user --map-root-user --mount bash -euo pipefail -c '
fail() { echo "disk-full: FAILED: $*"; exit 1; }
mkdir -p "$root/Output" "$root/archive"
# Thumbnails only: the 2 MB disk is sized for them and the overview (96 tiles of 160 points,
# a page each on tmpfs; the new tiles of a picture drawn again come before the old ones go), not
# for 1280x960 detail snapshots.
printf "{\"version\": 1, \"detail\": false}" > "$root/thumbnails-only.json"
mount -t tmpfs -o size=2m tmpfs "$root/Output"
cp "$root/seed/first.gpx" "$root/archive/run.gpx"
touch -d "1 hour ago" "$root/archive/run.gpx"
"$tracksnap" enqueue "$root/archive" --jobs "$root/Jobs" -q
"$tracksnap" run --jobs "$root/Jobs" --output "$root/Output" --settle 0 --style "$root/thumbnails-only.json" -q || fail "first run"
(cd "$root/Output" && sha256sum thumbs/* index.json) > "$root/before.sha256"
dd if=/dev/zero of="$root/Output/filler" bs=4k 2>/dev/null || true
cp "$root/seed/second.gpx" "$root/archive/run.gpx.new" && mv "$root/archive/run.gpx.new" "$root/archive/run.gpx"
touch -d "1 hour ago" "$root/archive/run.gpx"
"$tracksnap" enqueue "$root/archive" --jobs "$root/Jobs" -q
set +e
"$tracksnap" run --jobs "$root/Jobs" --output "$root/Output" --settle 0 --style "$root/thumbnails-only.json" -q 2> "$root/stderr"
status=$?
set -e
[ $status = 75 ] || fail "exit status $status, expected 75: $(cat "$root/stderr")"
grep -q "No space left" "$root/stderr" || fail "no disk-full message: $(cat "$root/stderr")"
queued=$(ls "$root/Jobs/new")
case "$queued" in *"~a"*|"") fail "job not back in new/ unchanged: [$queued]";; esac
[ -z "$(ls "$root/Jobs/running")" ] || fail "a claim was left in running/"
leftovers=$(find "$root/Output" -name "*.tmp~*")
[ -z "$leftovers" ] || fail "temporary files left: $leftovers"
(cd "$root/Output" && sha256sum --quiet -c "$root/before.sha256") || fail "the previous thumbnail or listing changed"
rm "$root/Output/filler"
"$tracksnap" run --jobs "$root/Jobs" --output "$root/Output" --settle 0 --style "$root/thumbnails-only.json" -q || fail "rerun after freeing space"
[ -z "$(ls "$root/Jobs/new")" ] || fail "rerun left jobs in new/"
echo "disk-full: ok"
'
