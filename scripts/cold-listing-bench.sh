#!/usr/bin/env bash
# The listing benchmark's cold listing (100,000 tracks, no listing state, no pages) on a fresh
# ext4 file system of its own, with the page cache emptied before the timing: what a first
# listing of a real archive meets. On the work disk the bench's earlier runs have just deleted
# 100,000 pages, and ext4 passes over recently freed inodes when it makes new files (40% of one
# run's samples, docs/performance.md), so cold figures there swing 3x from run to run.
#
# Usage (root: it mounts a loop device): scripts/cold-listing-bench.sh [tracksnap-dev binary]
# COLD_LISTING_IMAGE sets the image file (default /tmp/tracksnap-cold-listing.img, 5 GB sparse;
# about 2.3 GB are used); it is unmounted and deleted at the end. The bench's setup writes the
# 100,000 jobs and records in 5-15 minutes; COLD_LISTING_FROM=DIR (the `listing-100000` folder of an
# earlier `bench --section listing`) copies that archive instead (1-2 minutes), without what the
# cold listing deletes (its state and pages); its overview state is kept, as in the bench. Without
# it the setup's archive has no overview yet, so the cold listing also draws the whole overview.
set -euo pipefail
binary=$(realpath "${1:-.build/release/tracksnap-dev}")
image=${COLD_LISTING_IMAGE:-/tmp/tracksnap-cold-listing.img}
mountpoint=${image%.img}.mnt
if [ "$(id -u)" != 0 ]; then
    echo "cold-listing-bench: needs root to mount a loop device (mount -o loop $image)" >&2
    exit 2
fi
[ -x "$binary" ] || { echo "cold-listing-bench: no binary at $binary (swift build -c release --product tracksnap-dev)" >&2; exit 2; }
cleanup() {
    umount "$mountpoint" 2>/dev/null || true
    rm -f "$image"
    rmdir "$mountpoint" 2>/dev/null || true
}
trap cleanup EXIT
rm -f "$image"
truncate -s 5G "$image"
mkfs.ext4 -q -F "$image"
mkdir -p "$mountpoint"
mount -o loop "$image" "$mountpoint"
if [ -n "${COLD_LISTING_FROM:-}" ]; then
    # What the bench's cold listing deletes itself (the listing's state, the detail pages) is not
    # copied; the overview's state and files are, as the bench keeps them.
    mkdir -p "$mountpoint/listing-100000"
    tar -C "$COLD_LISTING_FROM" --exclude=./Output/tracks --exclude='./Output/tracks.deleting-*' \
        --exclude=./Output/.tracksnap/listing --exclude=./Output/.tracksnap/listing-cache --exclude=./Output/.tracksnap/pages \
        --exclude=./Output/.tracksnap/pages-tracks --exclude=./Output/.tracksnap/catalog --exclude=./Output/.tracksnap/published \
        -cf - . | tar -C "$mountpoint/listing-100000" -xf -
fi
# The setup makes (or finds) the 100,000 jobs and records; the cold listing then writes every page.
TRACKSNAP_BENCH_ADD_ONLY=1 TRACKSNAP_BENCH_DROP_CACHES=1 "$binary" bench --work "$mountpoint" --section listing
