#!/usr/bin/python3
"""Times Mapnik drawing vector tiles: the peer of TrackSnap's vector maps (issue 23) in `make bench`.

Debian's python3-mapnik reads an OpenMapTiles-schema MBTiles file through GDAL/OGR's MBTiles/MVT
driver and draws it with an OSM-Bright-like style written here in Mapnik's Python API (land use and
cover, water, parks and forest, buildings at detail zooms, roads by class with casings, paths and
tracks dashed, railways, boundaries; no labels), for exactly the images TrackSnap draws: each input
line gives an image's Web-Mercator viewport and pixel size, as TrackSnap's render info records them
(`viewport_epsg3857`, `width`, `height`, `scale`). The tiles are read at the zoom TrackSnap uses,
min(floor(continuous zoom), 14), the continuous zoom counted in points (256-px tiles) so that an @2x
image reads the same tiles as its @1x twin and Mapnik draws it with scale_factor 2 (double widths).

Mapnik's OGR input takes no GDAL open options, and the MBTiles driver needs ZOOM_LEVEL to read any
zoom but the highest, so each tile zoom gets a small OGR VRT file naming the MBTiles file, the
layer and the open option. The map (style and datasources) is built once per tile zoom and reused
for every image at that zoom, as a long-lived worker would; each timed run sets the viewport and
size, renders and encodes the PNG in memory: by default an 8-bit palette PNG (Mapnik's png8, which
quantizes), the kind of file TrackSnap writes for a flat-coloured map; `--format png` gives RGBA,
about twice the bytes and 20-70 ms less at the 1280x960 sizes. With a `track` key (a GPX file) in an input line the
route is drawn on top (OGR GPX, layer "tracks"), as scripts/mapnik_bench.py does, so the peer does
the same work as a TrackSnap image; --no-route leaves it out.

usage: mapnik_vector_bench.py [--runs N] [--no-route] [--format png8|png] [--save DIR]
                              [--dump-xml FILE] MBTILES VIEWPORTS.jsonl
  VIEWPORTS.jsonl: one JSON object a line, {"viewport_epsg3857": [minx, miny, maxx, maxy],
  "width": W, "height": H} in pixels, optionally "scale" (device pixels per point, default 1),
  "track" (a GPX file) and any other keys, which are echoed.
  Prints one JSON line per image: the input's keys, "tile_zoom", "zoom", "median_ms" (wall) and
  "median_cpu_ms" (this process's CPU time: steadier on a shared, busy machine) over the runs,
  "runs" and "png_bytes". --save writes each image as DIR/NNNN.png (to look at it).
"""
import argparse
import json
import math
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from xml.sax.saxutils import escape, quoteattr

import mapnik

MERCATOR = "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs +over"
WGS84 = "+proj=longlat +datum=WGS84 +no_defs"
EARTH_CIRCUMFERENCE_M = 2 * math.pi * 6378137
MAX_TILE_ZOOM = 14


def tile_zoom_for(viewport, width_px, scale):
    """The continuous zoom of an image (256-px tiles, counted in points) and the tile zoom read for it."""
    span = viewport[2] - viewport[0]
    zoom = math.log2(EARTH_CIRCUMFERENCE_M * (width_px / scale) / (256 * span))
    return zoom, max(0, min(math.floor(zoom), MAX_TILE_ZOOM))


def ramp(zoom, stops, base=1.0):
    """A MapLibre-style {stops, base} zoom function: the value at `zoom`, exponential between stops."""
    if zoom <= stops[0][0]:
        return stops[0][1]
    for (z0, v0), (z1, v1) in zip(stops, stops[1:]):
        if zoom <= z1:
            t = (zoom - z0) / (z1 - z0) if base == 1 else (base ** (zoom - z0) - 1) / (base ** (z1 - z0) - 1)
            return v0 + t * (v1 - v0)
    return stops[-1][1]


def fill(color, opacity=1.0):
    symbol = mapnik.PolygonSymbolizer()
    symbol.fill = mapnik.Color(color)
    symbol.fill_opacity = opacity
    return symbol


def outline(color, width):
    symbol = mapnik.LineSymbolizer()
    symbol.stroke = mapnik.Color(color)
    symbol.stroke_width = width
    return symbol


def line(color, width, dash=None, cap="BUTT", opacity=1.0):
    symbol = mapnik.LineSymbolizer()
    symbol.stroke = mapnik.Color(color)
    symbol.stroke_width = max(0.1, width)
    symbol.stroke_opacity = opacity
    symbol.stroke_linejoin = mapnik.stroke_linejoin.ROUND_JOIN
    symbol.stroke_linecap = getattr(mapnik.stroke_linecap, cap + "_CAP")
    if dash:
        symbol.stroke_dasharray = ",".join(str(round(d * max(1.0, width), 2)) for d in dash)
    return symbol


def rule(filter_text, *symbols):
    r = mapnik.Rule()
    if filter_text:
        r.filter = mapnik.Expression(filter_text)
    for symbol in symbols:
        r.symbols.append(symbol)
    return r


def one_of(field, values):
    return " or ".join(f"[{field}] = '{value}'" for value in values)


# Road classes of the OpenMapTiles `transportation` layer, drawn as OSM Bright does: fill colour,
# casing colour, the fill width's stops (style zoom, i.e. 512-px tiles: TrackSnap's zoom + 1) and
# the tile zoom from which the class is drawn.
ROADS = [
    ("motorway", "#fc8", "#e9ac77", [(5, 0.5), (6, 1), (20, 22)], 4),
    ("trunk", "#fea", "#e9ac77", [(5, 0.5), (6, 1), (20, 20)], 5),
    ("primary", "#fea", "#e9ac77", [(5, 0.4), (6, 0.75), (20, 18)], 6),
    ("secondary", "#fea", "#e9ac77", [(6.5, 0.5), (8, 0.6), (20, 16)], 8),
    ("tertiary", "#fea", "#e9ac77", [(6.5, 0.5), (8, 0.6), (20, 14)], 9),
    ("minor", "#fff", "#cfcdca", [(11, 0.4), (14, 1.6), (20, 12)], 11),
    ("service", "#fff", "#cfcdca", [(13, 0.4), (15, 1), (20, 8)], 12),
]


def transportation_styles(zoom):
    """Casings (one style, drawn first), then fills, paths, tracks and railways (a second style)."""
    style_zoom = zoom + 1
    casings, fills = mapnik.Style(), mapnik.Style()
    for name, color, casing, stops, minzoom in reversed(ROADS):
        if zoom < minzoom:
            continue
        width = ramp(style_zoom, stops, 1.2)
        where = f"[class] = '{name}' and not ([brunnel] = 'tunnel')"
        if zoom >= 10:
            casings.rules.append(rule(where, line(casing, width + ramp(style_zoom, [(10, 0.5), (20, 3)], 1.2), cap="ROUND")))
        fills.rules.append(rule(where, line(color, width, cap="ROUND")))
        fills.rules.append(rule(f"[class] = '{name}' and [brunnel] = 'tunnel'", line(color, width, dash=(0.5, 0.25), opacity=0.7)))
    if zoom >= 11:
        fills.rules.append(rule("[class] = 'track'", line("#b39867", ramp(style_zoom, [(12, 0.8), (14, 1.2), (20, 6)], 1.2), dash=(2, 1))))
    if zoom >= 12:
        fills.rules.append(rule(one_of("class", ["path", "pedestrian"]), line("#a89280", ramp(style_zoom, [(13, 0.8), (15, 1.2), (20, 5)], 1.2), dash=(1.5, 1))))
    if zoom >= 9:
        rail_width = ramp(style_zoom, [(8, 0.4), (14, 1.5), (20, 4)], 1.4)
        fills.rules.append(rule(one_of("class", ["rail", "transit"]), line("#bbb", rail_width)))
        if zoom >= 13:
            fills.rules.append(rule(one_of("class", ["rail", "transit"]), line("#f8f4f0", rail_width * 0.5, dash=(3, 3))))
    return casings, fills


def styles_for(zoom, fields):
    """The OSM-Bright-like style at one tile zoom: (layer, [mapnik.Style]) in drawing order.

    FIELDS maps each layer to the attributes the tiles declare: Mapnik fails a render whose filter
    names an attribute the datasource lacks, and tilemaker's profile leaves some out (no `brunnel`
    on water, no `maritime` on boundaries), so those conditions are only written where they exist.
    """
    style_zoom = zoom + 1
    layers = []

    def unless(layer, field, value):
        return f" and not ([{field}] = {value})" if field in fields.get(layer, ()) else ""

    landcover = mapnik.Style()
    landcover.rules.append(rule("[class] = 'wood' or [class] = 'forest'", fill("#6a4", 0.1)))
    landcover.rules.append(rule("[class] = 'grass'", fill("#b0d59a", 0.3)))
    landcover.rules.append(rule("[class] = 'farmland'", fill("#eef0d5", 0.6)))
    landcover.rules.append(rule("[class] = 'wetland'", fill("#d4e8e0", 0.6)))
    landcover.rules.append(rule("[class] = 'ice'", fill("#e0ecec", 0.8)))
    landcover.rules.append(rule("[class] = 'rock' or [class] = 'sand'", fill("#e2e0d7", 0.6)))
    layers.append(("landcover", [landcover]))

    landuse = mapnik.Style()
    landuse.rules.append(rule("[class] = 'residential' or [class] = 'suburb' or [class] = 'neighbourhood'", fill("hsl(30,19%,90%)", 0.4)))
    landuse.rules.append(rule("[class] = 'commercial' or [class] = 'retail'", fill("hsl(0,60%,87%)", 0.23)))
    landuse.rules.append(rule("[class] = 'industrial' or [class] = 'railway'", fill("hsl(49,100%,88%)", 0.34)))
    landuse.rules.append(rule("[class] = 'cemetery'", fill("#e0e4dd")))
    landuse.rules.append(rule("[class] = 'hospital'", fill("#fde")))
    landuse.rules.append(rule(one_of("class", ["school", "university", "college", "kindergarten"]), fill("#f0e8f8")))
    landuse.rules.append(rule(one_of("class", ["stadium", "pitch", "playground", "track"]), fill("#d8e8c8", 0.7)))
    layers.append(("landuse", [landuse]))

    park = mapnik.Style()
    park.rules.append(rule(None, fill("#d8e8c8", 0.7), outline("#cfe0bd", 0.8)))
    layers.append(("park", [park]))

    waterway = mapnik.Style()
    water_color = "hsl(205,56%,73%)"
    waterway.rules.append(rule("[class] = 'river' or [class] = 'canal'", line(water_color, ramp(style_zoom, [(10, 0.8), (20, 6)], 1.2), cap="ROUND")))
    if zoom >= 12:
        waterway.rules.append(rule("not ([class] = 'river' or [class] = 'canal')", line(water_color, ramp(style_zoom, [(13, 0.5), (20, 3)], 1.3), cap="ROUND")))
    layers.append(("waterway", [waterway]))

    water = mapnik.Style()
    water.rules.append(rule("[class] != ''" + unless("water", "brunnel", "'tunnel'"), fill(water_color)))
    layers.append(("water", [water]))

    if zoom >= 11:
        aeroway = mapnik.Style()
        aeroway.rules.append(rule(None, fill("#f0ede9")))
        layers.append(("aeroway", [aeroway]))

    if zoom >= 13:
        building = mapnik.Style()
        building.rules.append(rule(None, fill("#f2eae2"), outline("#dfdbd7", 0.6)))
        layers.append(("building", [building]))

    casings, fills = transportation_styles(zoom)
    layers.append(("transportation", [casings, fills]))

    boundary = mapnik.Style()
    boundary.rules.append(rule("[admin_level] >= 3 and [admin_level] <= 6" + unless("boundary", "maritime", 1), line("#9e9cab", ramp(style_zoom, [(4, 0.4), (5, 1), (12, 1.8)], 1.4), dash=(3, 1, 1, 1))))
    if zoom >= 12:
        boundary.rules.append(rule("[admin_level] >= 7 and [admin_level] <= 8", line("#9e9cab", ramp(style_zoom, [(12, 0.6), (16, 1.2)], 1.4), dash=(2, 2), opacity=0.6)))
    boundary.rules.append(rule("[admin_level] = 2" + unless("boundary", "maritime", 1), line("hsl(248,7%,66%)", ramp(style_zoom, [(0, 0.6), (4, 1.4), (5, 2), (12, 8)], 1), cap="ROUND")))
    layers.append(("boundary", [boundary]))
    return layers


def vrt_for(mbtiles, zoom, folder, layer_names):
    """An OGR VRT naming each layer of MBTILES read at tile zoom ZOOM (the MBTiles driver's ZOOM_LEVEL)."""
    path = os.path.join(folder, f"z{zoom}.vrt")
    source = escape(os.path.abspath(mbtiles))
    parts = ["<OGRVRTDataSource>"]
    for name in layer_names:
        parts.append(
            f"<OGRVRTLayer name={quoteattr(name)}><SrcDataSource>{source}</SrcDataSource>"
            f'<OpenOptions><OOI key="ZOOM_LEVEL">{zoom}</OOI></OpenOptions>'
            f"<SrcLayer>{escape(name)}</SrcLayer></OGRVRTLayer>"
        )
    parts.append("</OGRVRTDataSource>")
    with open(path, "w") as file:
        file.write("\n".join(parts))
    return path


def layer_fields(mbtiles):
    """Each vector layer's attribute names, from the MBTiles metadata's `json` → `vector_layers`."""
    with sqlite3.connect(f"file:{mbtiles}?mode=ro", uri=True) as db:
        row = db.execute("SELECT value FROM metadata WHERE name = 'json'").fetchone()
    layers = json.loads(row[0]).get("vector_layers", []) if row else []
    return {layer["id"]: set(layer.get("fields", {})) for layer in layers}


def build_map(mbtiles, zoom, folder, fields):
    """The map for one tile zoom: background, then each styled layer over its VRT layer."""
    m = mapnik.Map(256, 256, MERCATOR)
    m.background = mapnik.Color("#f8f4f0")
    m.buffer_size = 8  # px of features beyond the edge, so strokes and casings are not cut at it
    layers = [(name, styles) for name, styles in styles_for(zoom, fields) if name in fields]
    vrt = vrt_for(mbtiles, zoom, folder, [name for name, _ in layers])
    for name, styles in layers:
        layer = mapnik.Layer(name, MERCATOR)
        layer.datasource = mapnik.Ogr(file=vrt, layer=name)
        # One query serves both transportation styles (casings, fills) instead of one each.
        layer.cache_features = len(styles) > 1
        for index, style in enumerate(styles):
            style_name = f"{name}-{index}"
            m.append_style(style_name, style)
            layer.styles.append(style_name)
        m.layers.append(layer)
    return m


def route_style():
    style = mapnik.Style()
    stroke = line("#0a6cffd9", 6.0, cap="ROUND")
    style.rules.append(rule(None, stroke))
    return style


def render(m, image_spec, fmt, route):
    viewport, width, height = image_spec["viewport_epsg3857"], image_spec["width"], image_spec["height"]
    scale = float(image_spec.get("scale", 1))
    m.resize(width, height)
    m.zoom_to_box(mapnik.Box2d(*viewport))
    if route and image_spec.get("track"):
        layer = mapnik.Layer("route", WGS84)
        layer.datasource = mapnik.Ogr(file=image_spec["track"], layer="tracks")
        layer.styles.append("route")
        m.layers.append(layer)
    try:
        image = mapnik.Image(width, height)
        mapnik.render(m, image, scale)
        return image.tostring(fmt)
    finally:
        if route and image_spec.get("track"):
            del m.layers[len(m.layers) - 1]


def bench_arguments(script, description, extra=lambda parser: None):
    """The options both Mapnik benches take (and `extra`'s), checked; returns them and the viewports."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-route", action="store_true", help="draw the map only, not the input's track")
    parser.add_argument("--format", default="png8", help="Mapnik image format: png8 (default) a 256-colour palette PNG, png RGBA")
    parser.add_argument("--save", help="write each image as DIR/NNNN.png")
    extra(parser)
    parser.add_argument("mbtiles")
    parser.add_argument("viewports")
    args = parser.parse_args()
    if not os.path.isfile(args.mbtiles):
        sys.exit(f"{script}: no such MBTiles file: {args.mbtiles}")
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    with open(args.viewports) as file:
        specs = [json.loads(text) for text in file if text.strip()]
    return args, specs


def time_and_report(m, spec, index, zoom, tile_zoom, args):
    """Draws one image `args.runs` times and prints its spec with the median wall and CPU times (one JSON line)."""
    times, cpu_times, png = [], [], b""
    for _ in range(args.runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        png = render(m, spec, args.format, not args.no_route)
        times.append((time.perf_counter() - start) * 1000)
        cpu_times.append((time.process_time() - cpu_start) * 1000)
    if args.save:
        with open(os.path.join(args.save, f"{index:04d}.png"), "wb") as out:
            out.write(png)
    result = dict(spec)
    result.update(
        tile_zoom=tile_zoom, zoom=round(zoom, 3), median_ms=statistics.median(times), median_cpu_ms=statistics.median(cpu_times),
        runs=args.runs, png_bytes=len(png))
    print(json.dumps(result), flush=True)


def main():
    args, specs = bench_arguments(
        "mapnik_vector_bench.py", __doc__.split("\n")[0],
        lambda parser: parser.add_argument("--dump-xml", help="write the style at the first image's tile zoom as Mapnik XML"))
    maps = {}
    fields = layer_fields(args.mbtiles)
    with tempfile.TemporaryDirectory(prefix="mapnik-vector-") as folder:
        for index, spec in enumerate(specs):
            zoom, tile_zoom = tile_zoom_for(spec["viewport_epsg3857"], spec["width"], float(spec.get("scale", 1)))
            if tile_zoom not in maps:
                maps[tile_zoom] = build_map(args.mbtiles, tile_zoom, folder, fields)
                maps[tile_zoom].append_style("route", route_style())
                if args.dump_xml and len(maps) == 1:
                    mapnik.save_map(maps[tile_zoom], args.dump_xml)
            m = maps[tile_zoom]
            time_and_report(m, spec, index, zoom, tile_zoom, args)


if __name__ == "__main__":
    main()
