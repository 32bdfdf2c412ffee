#!/usr/bin/env python3
"""overview_numpy_peer.py ROUTES.bin: the density count of the overview benchmark done the way a
one-shot Python heat map does it (numpy), for `tracksnap-dev bench --section overview`.

ROUTES.bin (written by the benchmark, little-endian): int32 width, int32 height, int32 track count;
then per track int32 point count and that many (float64 x, float64 y) in the picture's pixels,
segments joined. Each track is sampled every 0.25 px along its segments, the samples' pixels made
unique (once per pixel per track), and added to a count grid (np.add.at). Prints one JSON line:
{"seconds": ..., "tracks": ..., "nonzero": ..., "maximum": ...}. Needs numpy.
"""
import json
import struct
import sys
import time

import numpy as np


def main(path):
    data = open(path, "rb").read()
    width, height, count = struct.unpack_from("<iii", data, 0)
    offset = 12
    tracks = []
    for _ in range(count):
        (points,) = struct.unpack_from("<i", data, offset)
        offset += 4
        tracks.append(np.frombuffer(data, dtype="<f8", count=points * 2, offset=offset).reshape(points, 2))
        offset += points * 16
    start = time.perf_counter()
    counts = np.zeros(width * height, dtype=np.uint32)
    for xy in tracks:
        if len(xy) < 2:
            continue
        a, b = xy[:-1], xy[1:]
        lengths = np.hypot(*(b - a).T)
        steps = np.maximum(1, np.ceil(lengths / 0.25).astype(np.int64))
        segment = np.repeat(np.arange(len(a)), steps)
        t = (np.arange(steps.sum()) - np.repeat(np.cumsum(steps) - steps, steps)) / np.repeat(steps, steps)
        samples = a[segment] + (b - a)[segment] * t[:, None]
        x, y = np.floor(samples[:, 0]).astype(np.int64), np.floor(samples[:, 1]).astype(np.int64)
        inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
        pixels = np.unique(y[inside] * width + x[inside])
        counts[pixels] += 1
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "tracks": count, "nonzero": int(np.count_nonzero(counts)), "maximum": int(counts.max())}))


if __name__ == "__main__":
    main(sys.argv[1])
