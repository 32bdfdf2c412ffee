#!/usr/bin/env python3
"""Converts the time-zone boundary polygons of timezone-boundary-builder (ODbL, as packaged by
PyPI's `timezonefinder-data`) into the compact file TrackSnap looks zones up in:
Sources/CTimeZoneData/timezones.bin. Run once when the boundaries should be refreshed; the output
is committed, so building TrackSnap never needs Python.

Usage (its own venv, nothing installed system-wide):
    python3 -m venv /tmp/tzvenv
    /tmp/tzvenv/bin/pip install timezonefinder timezonefinder-data shapely
    /tmp/tzvenv/bin/python scripts/build_timezone_data.py [OUTPUT] [TOLERANCE_DEGREES]
    touch Sources/CTimeZoneData/timezones_blob.S   # SwiftPM does not see the .incbin dependency

Last run: timezonefinder-data 3.2026.3.post1 (boundaries 2026c), tolerance 0.001° → 2,577,614 bytes;
agrees with timezonefinder's own lookup on 99.9 % of 20,000 random land points (the rest lie where
the source polygons of two zones overlap, e.g. Xinjiang, Abkhazia).

What it does:
  1. Each zone's polygons are simplified (Douglas-Peucker, topology kept) to TOLERANCE_DEGREES
     (default 0.001°, about 110 m north-south); coastline detail is lost, borders move by at most
     that much.
  2. The world is cut into 1° cells. A cell inside one zone stores just that zone; a cell that
     several zones share stores the zone covering most of it (the fallback) and, for every other
     zone, its part of the cell clipped to the cell, with vertices quantised to 1/65535 of a degree
     relative to the cell's south-west corner.
  A lookup then reads one table entry and, on a border cell, tests the point against a few small
  rings (even-odd rule); where no stored part contains it, the cell's fallback zone applies.

File layout (little-endian; see Sources/TimeZones/ZoneBoundaries.swift, which reads it):
    "TSTZ" magic, u16 version (1), u16 zone count
    zone names: per zone a u8 length and the IANA name's bytes (UTF-8)
    u8 length + text: where the data came from (release, tolerance)
    u32 × 360 × 180 cell table, rows from 90°S northwards, columns from 180°W eastwards:
        bit 31 set: the whole cell is the zone in the low 16 bits (0xFFFF: no zone known)
        else: offset of the cell's record from the start of the record area
    record area: per border cell: u16 fallback zone, u16 part count; per part: u16 zone,
        u16 ring count; per ring: u16 vertex count, then (u16 x, u16 y) per vertex (ring not
        closed: the last vertex joins the first)
"""
import struct
import sys

import shapely
from shapely.geometry import MultiPolygon, Polygon
from timezonefinder import TimezoneFinder

CELL_SCALE = 65535
MIN_AREA = 1e-10  # square degrees; parts smaller than this are slivers of the simplification


def zone_geometry(finder, name, tolerance):
    polygons = []
    for rings in finder.get_geometry(tz_name=name, coords_as_pairs=False):
        exterior = list(zip(rings[0][0], rings[0][1]))
        holes = [list(zip(xs, ys)) for xs, ys in rings[1:]]
        polygons.append(Polygon(exterior, holes))
    geometry = shapely.make_valid(MultiPolygon(polygons))
    return shapely.simplify(geometry, tolerance, preserve_topology=True)


def rings_of(geometry):
    """Every ring of a clipped (multi)polygon, as coordinate lists."""
    out = []
    for part in getattr(geometry, "geoms", [geometry]):
        if isinstance(part, Polygon) and not part.is_empty:
            out.append(list(part.exterior.coords))
            out.extend(list(ring.coords) for ring in part.interiors)
        elif hasattr(part, "geoms"):
            out.extend(rings_of(part))
    return out


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else "Sources/CTimeZoneData/timezones.bin"
    tolerance = float(sys.argv[2]) if len(sys.argv) > 2 else 0.001
    finder = TimezoneFinder()
    names = list(finder.timezone_names)
    assert len(names) < 0xFFFF
    print(f"{len(names)} zones, data {finder.data_version}, tolerance {tolerance}°", file=sys.stderr)
    geometries = [zone_geometry(finder, name, tolerance) for name in names]
    tree = shapely.STRtree(geometries)

    table = [0] * (360 * 180)
    records = bytearray()
    block = 10
    for block_south in range(-90, 90, block):
        for block_west in range(-180, 180, block):
            box = shapely.box(block_west, block_south, block_west + block, block_south + block)
            block_parts = []
            for zone in tree.query(box):
                clipped = shapely.clip_by_rect(geometries[zone], *box.bounds)
                if clipped.area > MIN_AREA:
                    block_parts.append((int(zone), clipped))
            for south in range(block_south, block_south + block):
                for west in range(block_west, block_west + block):
                    cell = (south + 90) * 360 + (west + 180)
                    parts = []
                    for zone, geometry in block_parts:
                        clipped = shapely.clip_by_rect(geometry, west, south, west + 1, south + 1)
                        if clipped.area > MIN_AREA:
                            parts.append((zone, clipped))
                    if not parts:
                        table[cell] = 0x8000_0000 | 0xFFFF
                        continue
                    parts.sort(key=lambda p: -p[1].area)
                    if len(parts) == 1:
                        table[cell] = 0x8000_0000 | parts[0][0]
                        continue
                    table[cell] = len(records)
                    records += struct.pack("<HH", parts[0][0], len(parts) - 1)
                    for zone, geometry in parts[1:]:
                        rings = [ring[:-1] for ring in rings_of(geometry) if len(ring) >= 4]
                        records += struct.pack("<HH", zone, len(rings))
                        for ring in rings:
                            assert len(ring) < 0x10000
                            records += struct.pack("<H", len(ring))
                            for x, y in ring:
                                qx = min(CELL_SCALE, max(0, round((x - west) * CELL_SCALE)))
                                qy = min(CELL_SCALE, max(0, round((y - south) * CELL_SCALE)))
                                records += struct.pack("<HH", qx, qy)
        print(f"  up to {block_south + block}°: {len(records)} bytes of border cells", file=sys.stderr)

    out = bytearray(b"TSTZ")
    out += struct.pack("<HH", 1, len(names))
    for name in names:
        encoded = name.encode()
        out += struct.pack("<B", len(encoded)) + encoded
    source = f"timezone-boundary-builder {finder.data_version} (timezonefinder-data), simplified to {tolerance} degrees".encode()
    out += struct.pack("<B", len(source)) + source
    out += struct.pack(f"<{len(table)}I", *table)
    out += records
    with open(output, "wb") as file:
        file.write(out)
    print(f"wrote {output}: {len(out)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
