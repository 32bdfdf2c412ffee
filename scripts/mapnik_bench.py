#!/usr/bin/python3
"""Times Mapnik (Debian's python3-mapnik) on the benchmark's tracks: the peer for `make bench`.

For each GPX file: open it with Mapnik's OGR datasource (layer "tracks"), fit the map to the
track's extent in Web Mercator, stroke it with round caps and joins at the same size, and encode a
PNG in memory — the same work TrackSnap's pipeline does. Prints one JSON line per file with the
median milliseconds over the runs.
usage: mapnik_bench.py RUNS WIDTH HEIGHT FILE...
"""
import json
import statistics
import sys
import time

import mapnik

MERCATOR = "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs +over"


def render(path, width, height):
    m = mapnik.Map(width, height, MERCATOR)
    m.background = mapnik.Color("#F2EFE9")
    style = mapnik.Style()
    rule = mapnik.Rule()
    line = mapnik.LineSymbolizer()
    line.stroke = mapnik.Color(10, 108, 255, 217)
    line.stroke_width = 6.0
    line.stroke_linecap = mapnik.stroke_linecap.ROUND_CAP
    line.stroke_linejoin = mapnik.stroke_linejoin.ROUND_JOIN
    rule.symbols.append(line)
    style.rules.append(rule)
    m.append_style("track", style)
    layer = mapnik.Layer("track", "+proj=longlat +datum=WGS84 +no_defs")
    layer.datasource = mapnik.Ogr(file=path, layer="tracks")
    layer.styles.append("track")
    m.layers.append(layer)
    m.zoom_all()
    m.zoom(1.25)  # 10% padding on each side
    image = mapnik.Image(width, height)
    mapnik.render(m, image)
    return image.tostring("png")


def main():
    runs, width, height = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    for path in sys.argv[4:]:
        times = []
        size = 0
        for _ in range(runs):
            start = time.perf_counter()
            size = len(render(path, width, height))
            times.append((time.perf_counter() - start) * 1000)
        print(json.dumps({"file": path, "median_ms": statistics.median(times), "runs": runs, "png_bytes": size}), flush=True)


if __name__ == "__main__":
    main()
