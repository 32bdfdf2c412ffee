#!/usr/bin/python3
"""Reference rasterizer for TrackSnap's stroke tests: pycairo strokes the same pixel-space
polylines (round caps and joins, one path, so a translucent colour is blended once) over a flat
paper colour and writes straight-alpha RGBA rows to stdout.

stdin: {"width", "height", "paper": [r,g,b], "color": [r,g,b,a], "stroke_width_px",
        "polylines": [[[x, y], ...], ...]}
"""
import json
import sys

import cairo

spec = json.load(sys.stdin)
width, height = spec["width"], spec["height"]
surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
context = cairo.Context(surface)
r, g, b = (c / 255 for c in spec["paper"])
context.set_source_rgb(r, g, b)
context.paint()
context.set_line_width(spec["stroke_width_px"])
context.set_line_cap(cairo.LINE_CAP_ROUND)
context.set_line_join(cairo.LINE_JOIN_ROUND)
context.set_antialias(cairo.ANTIALIAS_GRAY)
for polyline in spec["polylines"]:
    context.move_to(*polyline[0])
    for point in polyline[1:]:
        context.line_to(*point)
cr, cg, cb, ca = (c / 255 for c in spec["color"])
context.set_source_rgba(cr, cg, cb, ca)
context.stroke()
surface.flush()
data = surface.get_data()
stride = surface.get_stride()
out = bytearray()
for y in range(height):
    row = data[y * stride : y * stride + width * 4]
    for x in range(width):
        # ARGB32 is native-endian premultiplied; the background is opaque, so alpha is 255.
        bb, gg, rr, aa = row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]
        out += bytes((rr, gg, bb, aa))
sys.stdout.buffer.write(out)
