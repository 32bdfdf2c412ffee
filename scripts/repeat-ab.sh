#!/bin/bash
# Alternating rounds of `tracksnap-dev repeat` over several builds, for before/after figures on a
# machine whose speed drifts: each round runs every build once, so drift hits them alike.
#   scripts/repeat-ab.sh ROUNDS RENDERS FILE WIDTH SCALE -- BUILD...
# BUILD is a tracksnap-dev executable. Prints, per build in the order given, the median of the
# rounds' medians in ms (the mean of the middle two for an even number of rounds) and every
# round's median, sorted. Stops at the first render that fails.
set -euo pipefail
if [ $# -lt 7 ] || [ "$6" != "--" ]; then
    echo "usage: $0 ROUNDS RENDERS FILE WIDTH SCALE -- BUILD..." >&2
    exit 64
fi
rounds=$1 renders=$2 file=$3 width=$4 scale=$5
shift 6
declare -A times
for _ in $(seq "$rounds"); do
    for build in "$@"; do
        # `repeat` ends with "median X ms over N"; anything else is a failure.
        if ! last=$("$build" repeat "$file" "$width" "$scale" "$renders" | tail -1); then
            echo "$0: $build repeat $file $width $scale $renders failed" >&2
            exit 1
        fi
        milliseconds=$(awk '$1 == "median" && $2 ~ /^[0-9.]+$/ {print $2}' <<<"$last")
        if [ -z "$milliseconds" ]; then
            echo "$0: $build: no median in its output: $last" >&2
            exit 1
        fi
        times[$build]="${times[$build]:-} $milliseconds"
    done
done
for build in "$@"; do
    tr ' ' '\n' <<<"${times[$build]}" | grep . | sort -n | awk -v build="$build" '
        { value[NR] = $1; all = all " " $1 }
        END {
            middle = NR % 2 ? value[(NR + 1) / 2] : (value[NR / 2] + value[NR / 2 + 1]) / 2
            printf "%s median %.2f ms; rounds:%s\n", build, middle, all
        }'
done
