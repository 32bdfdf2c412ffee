#!/usr/bin/python3
"""Times Mapnik drawing raster tiles: the peer of TrackSnap's raster basemaps (issue 24) in `make bench`.

Debian's python3-mapnik reads a raster MBTiles file (256-px PNG tiles, such as the OSM-style palette
tiles of scripts/raster-tiles-from-vector.py) through its GDAL input and GDAL's MBTiles driver, which
serves each zoom as an overview: for an image GDAL picks the zoom whose resolution is nearest at or
above the image's, and Mapnik resamples it bilinearly (RasterSymbolizer scaling "bilinear"). The
route is drawn on top as in scripts/mapnik_vector_bench.py (same input lines, same output), and the
image is encoded in memory as an 8-bit palette PNG (Mapnik's png8) unless --format png.

usage: mapnik_raster_bench.py [--runs N] [--no-route] [--format png8|png] [--save DIR] MBTILES VIEWPORTS.jsonl
  VIEWPORTS.jsonl and the output lines: as mapnik_vector_bench.py ("tile_zoom" is the image's
  continuous zoom rounded down, for the table; GDAL chooses the overview itself).
"""
import os
import sys

import mapnik

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mapnik_vector_bench as peer  # noqa: E402  (route style, render, tile zoom)


def build_map(mbtiles):
    """One map for every image: the tiles as a GDAL raster layer in Web Mercator."""
    m = mapnik.Map(256, 256, peer.MERCATOR)
    m.background = mapnik.Color("#f2efe9")
    style = mapnik.Style()
    rule = mapnik.Rule()
    symbol = mapnik.RasterSymbolizer()
    symbol.scaling = mapnik.scaling_method.BILINEAR
    rule.symbols.append(symbol)
    style.rules.append(rule)
    m.append_style("tiles", style)
    layer = mapnik.Layer("tiles", peer.MERCATOR)
    layer.datasource = mapnik.Gdal(file=mbtiles, band=-1)
    layer.styles.append("tiles")
    m.layers.append(layer)
    m.append_style("route", peer.route_style())
    return m


def main():
    args, specs = peer.bench_arguments("mapnik_raster_bench.py", __doc__.split("\n")[0])
    m = build_map(args.mbtiles)
    for index, spec in enumerate(specs):
        zoom, tile_zoom = peer.tile_zoom_for(spec["viewport_epsg3857"], spec["width"], float(spec.get("scale", 1)))
        peer.time_and_report(m, spec, index, zoom, tile_zoom, args)


if __name__ == "__main__":
    main()
