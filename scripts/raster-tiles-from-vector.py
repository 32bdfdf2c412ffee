#!/usr/bin/python3
"""Renders OSM-style raster tiles from the Liechtenstein vector tiles: the map for issue 24's bench.

Issue 24 measures raster basemaps on "OSM-style raster tiles: 8-bit palette PNGs of about 3 KB";
the project's generated tiles (`tracksnap-dev tiles`) are neither real maps nor that small. This
draws every 256-px tile of a region at zooms 10-16 (default) from an OpenMapTiles-schema vector
MBTiles (scripts/vector-tiles.sh) with the OSM-Bright-like Mapnik style of
scripts/mapnik_vector_bench.py, read at vector zoom min(z, 14) through GDAL's MBTiles/MVT driver,
quantizes each to an 8-bit palette PNG (Mapnik's png8, 256 colours) and writes a raster MBTiles
(TMS rows, `format` png, bounds, zooms and the OpenMapTiles/OpenStreetMap attribution in the
metadata). Generated data: keep it out of git (.bench/).

usage: raster-tiles-from-vector.py OUT.mbtiles [--vector IN.mbtiles] [--zooms 10-16]
                                   [--bounds W,S,E,N] [--force]
  --vector  the vector MBTiles (default .bench/vector/liechtenstein.mbtiles, made with
            scripts/vector-tiles.sh when missing)
  --bounds  degrees, default the vector file's metadata bounds
  An OUT newer than the vector file is kept (idempotent) unless --force. Prints the tile count and
  the mean tile size per zoom.
"""
import argparse
import math
import os
import sqlite3
import subprocess
import sys
import tempfile

import mapnik

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mapnik_vector_bench as peer  # noqa: E402  (the style and the VRT-per-zoom map builder)

ORIGIN_SHIFT_M = math.pi * 6378137
ATTRIBUTION = "© OpenMapTiles © OpenStreetMap contributors"


def tile_range(bounds, zoom):
    """The XYZ columns and rows of the tiles at `zoom` that cover [west, south, east, north]."""
    west, south, east, north = bounds
    count = 1 << zoom

    def column(lon):
        return min(count - 1, max(0, int((lon + 180) / 360 * count)))

    def row(lat):
        y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
        return min(count - 1, max(0, int((1 - y / math.pi) / 2 * count)))

    return range(column(west), column(east) + 1), range(row(north), row(south) + 1)


def tile_box(zoom, x, y):
    """The tile's extent in EPSG:3857 metres."""
    size = 2 * ORIGIN_SHIFT_M / (1 << zoom)
    minx = -ORIGIN_SHIFT_M + x * size
    maxy = ORIGIN_SHIFT_M - y * size
    return mapnik.Box2d(minx, maxy - size, minx + size, maxy)


def metadata_bounds(vector):
    with sqlite3.connect(f"file:{vector}?mode=ro", uri=True) as db:
        row = db.execute("SELECT value FROM metadata WHERE name = 'bounds'").fetchone()
    if not row:
        sys.exit(f"raster-tiles-from-vector.py: {vector} has no bounds in its metadata; pass --bounds")
    return [float(value) for value in row[0].split(",")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--vector", default=os.path.join(HERE, "..", ".bench", "vector", "liechtenstein.mbtiles"))
    parser.add_argument("--zooms", default="10-16")
    parser.add_argument("--bounds")
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args()
    low, _, high = args.zooms.partition("-")
    zooms = range(int(low), int(high or low) + 1)
    if not os.path.isfile(args.vector):
        subprocess.run(["bash", os.path.join(HERE, "vector-tiles.sh"), args.vector], check=True)
    if not args.force and os.path.isfile(args.out) and os.path.getmtime(args.out) > os.path.getmtime(args.vector):
        print(f"{args.out} is up to date (--force to redraw)")
        return
    bounds = [float(v) for v in args.bounds.split(",")] if args.bounds else metadata_bounds(args.vector)
    fields = peer.layer_fields(args.vector)

    folder = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(folder, exist_ok=True)
    partial = args.out + ".partial"
    if os.path.exists(partial):
        os.remove(partial)
    db = sqlite3.connect(partial)
    db.executescript(
        "CREATE TABLE metadata (name TEXT, value TEXT);"
        "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);"
        "CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);"
    )
    metadata = {
        "name": "Liechtenstein, OSM-Bright-like (Mapnik from OpenMapTiles vector tiles)",
        "format": "png",
        "type": "baselayer",
        "minzoom": str(zooms.start),
        "maxzoom": str(zooms.stop - 1),
        "bounds": ",".join(f"{v:.6f}" for v in bounds),
        "attribution": ATTRIBUTION,
    }
    db.executemany("INSERT INTO metadata VALUES (?, ?)", metadata.items())
    total_count = total_bytes = 0
    with tempfile.TemporaryDirectory(prefix="raster-tiles-") as scratch:
        for zoom in zooms:
            m = peer.build_map(args.vector, min(zoom, peer.MAX_TILE_ZOOM), scratch, fields)
            m.resize(256, 256)
            columns, rows = tile_range(bounds, zoom)
            count = size = 0
            for x in columns:
                for y in rows:
                    m.zoom_to_box(tile_box(zoom, x, y))
                    image = mapnik.Image(256, 256)
                    mapnik.render(m, image)
                    png = image.tostring("png8")
                    db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (zoom, x, (1 << zoom) - 1 - y, png))
                    count += 1
                    size += len(png)
            db.commit()
            print(f"zoom {zoom}: {count} tiles, mean {size / count:.0f} bytes", flush=True)
            total_count += count
            total_bytes += size
    db.close()
    os.replace(partial, args.out)
    print(f"wrote {args.out}: {total_count} tiles, mean {total_bytes / total_count:.0f} bytes, {os.path.getsize(args.out)} bytes in all")


if __name__ == "__main__":
    main()
