#!/usr/bin/env python3
"""Cut Tests/Fixtures/vector/openmaptiles-vaduz.mbtiles out of the full Liechtenstein vector MBTiles.

The golden images of the built-in map styles (Tests/SnapshotRenderingTests/VectorGoldenImageTests)
draw two tracks around Vaduz; they need exactly the tiles below (6 at zoom 13, 1 at zoom 14, 70 KB).
The metadata keeps the source's layers (`json`) and says the zooms and bounds of what is kept.

Usage: scripts/vector-tiles.sh FULL.mbtiles && scripts/vector-fixture.py FULL.mbtiles OUT.mbtiles
(OUT must not exist.) Tiles are copied byte for byte (gzip-compressed, TMS rows).
"""
import math, sqlite3, sys
full, out = sys.argv[1], sys.argv[2]
# (zoom, first column, last column, first row, last row), rows counted from the north (XYZ).
ranges = [(13, 4311, 4313, 2876, 2877), (14, 8625, 8625, 5753, 5753)]
def lon(x, z): return x / 2**z * 360 - 180
def lat(y, z): return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / 2**z))))
z, x0, x1, y0, y1 = ranges[0]
bounds = f"{lon(x0, z):.6f},{lat(y1 + 1, z):.6f},{lon(x1 + 1, z):.6f},{lat(y0, z):.6f}"
db = sqlite3.connect(out)
db.execute("ATTACH ? AS full", (full,))
db.execute("CREATE TABLE metadata (name text, value text, UNIQUE (name))")
db.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob, UNIQUE (zoom_level, tile_column, tile_row))")
db.execute("INSERT INTO metadata SELECT name, value FROM full.metadata WHERE name IN ('name', 'type', 'version', 'description', 'format', 'json')")
db.executemany("INSERT INTO metadata VALUES (?, ?)", [("minzoom", "13"), ("maxzoom", "14"), ("bounds", bounds)])
for z, x0, x1, y0, y1 in ranges:
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            db.execute("INSERT INTO tiles SELECT * FROM full.tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", (z, x, 2**z - 1 - y))
db.commit()
db.execute("DETACH full")
db.execute("VACUUM")
