#!/usr/bin/env bash
# Builds a site from the sample tracks plus tracks with hostile names, serves it over loopback and
# checks it in headless Chromium (scripts/browser_check.py): every image loads, no console error,
# no dialog (an unescaped name would alert), no link leaving the site. Screenshots go to
# $SCREENSHOTS (default Output/.checks). Usage: scripts/site-check.sh [TRACKSNAP_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
tracksnap=${1:-.build/debug/tracksnap}
screenshots=${SCREENSHOTS:-Output/.checks}
work=$(mktemp -d /tmp/tracksnap-site-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/archive"
cp Jobs/samples/* "$work/archive/"

# name, file name: each must stay text on the pages.
hostile() {
  local name=$1 file=$2 lat=$3
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="site-check" xmlns="http://www.topografix.com/GPX/1/1"><trk>'
    [ -n "$name" ] && printf '<name>%s</name>' "$name"
    printf '<trkseg>'
    for i in $(seq 0 40); do
      printf '<trkpt lat="%s" lon="%s"><ele>%s</ele><time>2025-06-01T07:%02d:%02dZ</time></trkpt>' \
        "$(awk "BEGIN{printf \"%.6f\", $lat + $i * 0.0003}")" "$(awk "BEGIN{printf \"%.6f\", 7.44 + $i * 0.0004}")" "$((500 + i))" $((i / 6)) $(((i * 10) % 60))
    done
    printf '</trkseg></trk></gpx>\n'
  } > "$work/archive/$file"
}
hostile '&lt;script&gt;alert(1)&lt;/script&gt;' 'script-name.gpx' 46.90
hostile '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;' 'attribute-name.gpx' 46.91
hostile '../../etc/passwd' 'path-name.gpx' 46.92
hostile '' '"><img src=x onerror=alert(2)>.gpx' 46.93
hostile '' "<script>alert(3)<script> & 'quotes'.gpx" 46.94

"$tracksnap" enqueue "$work/archive" --jobs "$work/Jobs" --quiet
# Four cards a page, so the pager, a second page and month headings across pages are exercised.
"$tracksnap" run --jobs "$work/Jobs" --output "$work/Output" --settle 0 --workers 2 --page-size 4 --quiet
/usr/bin/python3 scripts/browser_check.py "$work/Output" "$screenshots"
