#!/usr/bin/env bash
# Renders every track under ARCHIVE at @1x and @2x into OUTPUT and writes a minimal index.html.
# A sequential loop for now; the worker pool and job queue replace it (issue 3).
set -uo pipefail
tracksnap=$1 archive=$2 output=$3
mkdir -p "$output/thumbs"
shopt -s nullglob globstar
failed=0 rendered=0
cards=""
for track in "$archive"/**/*; do
    [ -f "$track" ] || continue
    name=$(basename "$track")
    stem=${name%.*}
    ok=1
    for scale in 1 2; do
        suffix=$([ $scale = 1 ] && echo "" || echo "@2x")
        if ! "$tracksnap" render "$track" -o "$output/thumbs/$stem$suffix.png" --size 320x240 --scale $scale; then
            ok=0
            break
        fi
    done
    if [ $ok = 1 ]; then
        rendered=$((rendered + 1))
        # Names come from our own sample files, but escape them anyway.
        html_name=$(printf '%s' "$name" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g')
        cards+="<figure><img src=\"thumbs/$stem.png\" srcset=\"thumbs/$stem.png 1x, thumbs/$stem@2x.png 2x\" width=\"320\" height=\"240\" loading=\"lazy\" alt=\"$html_name\"><figcaption>$html_name</figcaption></figure>"$'\n'
    else
        failed=$((failed + 1))
    fi
done
cat > "$output/.index.html.tmp" <<HTML
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>TrackSnap</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;background:#fafafa;color:#222}
main{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:1.25rem}
figure{margin:0;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002;overflow:hidden}
img{display:block;width:100%;height:auto}figcaption{padding:.5rem .75rem;font-size:.9rem}
@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}figure{background:#1c1c1c}}
</style></head><body><h1>TrackSnap</h1><main>
$cards</main></body></html>
HTML
mv "$output/.index.html.tmp" "$output/index.html"
echo "thumbnails: rendered $rendered track(s) into $output/ ($failed failed); open $output/index.html or run 'make serve'"
[ $failed = 0 ]
