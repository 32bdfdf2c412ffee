#!/bin/bash
# Alternating rounds of `tracksnap-dev repeat` over several builds, for before/after figures on a
# machine whose speed drifts: each round runs every build once, so drift hits them alike.
#   scripts/repeat-ab.sh ROUNDS RENDERS FILE WIDTH SCALE -- BUILD...
# BUILD is a tracksnap-dev executable. Prints, per build, the median of the rounds' medians (ms)
# and every round's median, sorted.
set -euo pipefail
if [ $# -lt 7 ] || [ "$6" != "--" ]; then
    echo "usage: $0 ROUNDS RENDERS FILE WIDTH SCALE -- BUILD..." >&2
    exit 64
fi
rounds=$1 renders=$2 file=$3 width=$4 scale=$5
shift 6
for _ in $(seq "$rounds"); do
    for build in "$@"; do
        echo "$build $("$build" repeat "$file" "$width" "$scale" "$renders" | tail -1 | awk '{print $2}')"
    done
done | sort -k1,1 -k2n | awk '
    { runs[$1] = runs[$1] " " $2; n[$1]++; value[$1, n[$1]] = $2 }
    END { for (b in runs) print b, "median", value[b, int((n[b] + 1) / 2)], "ms; rounds:" runs[b] }'
