#!/usr/bin/env python3
"""compare-sites.py SHARDED SINGLE: checks that a site built by a sharded run equals one built by
a single `tracksnap run` over the same archive.

Must be equal: the set of track ids; every image under thumbs/, byte for byte; every detail page;
index.json and its parts (index/part-N.json) track by track, field by field, in the same order;
the index pages (index.html, page-N.html), site.css and the parts, byte for byte.

Nothing is left out: a track with no recorded time is placed by its archive file's modification
time, which enqueue keeps on its copy, so both sites order and date it alike.
Exit 0 when equal; 1 with the differences listed.
"""
import hashlib
import json
import os
import re
import sys


def files(root, sub):
    folder = os.path.join(root, sub)
    if not os.path.isdir(folder):
        return {}
    return {name: hashlib.sha256(open(os.path.join(folder, name), "rb").read()).hexdigest()
            for name in os.listdir(folder) if not name.startswith(".") and os.path.isfile(os.path.join(folder, name))}


def listing(root):
    """index.json (schema 3) with its parts' tracks gathered, newest first, under "tracks"."""
    document = json.load(open(os.path.join(root, "index.json")))
    document["tracks"] = [track for part in document["parts"]
                          for track in json.load(open(os.path.join(root, part["path"])))["tracks"]]
    return document


def cards(root):
    """Track ids linked from the index pages, as a multiset."""
    found = []
    for name in os.listdir(root):
        if name == "index.html" or re.fullmatch(r"page-\d+\.html", name):
            found += re.findall(r'href="tracks/([0-9a-f]{64})\.html"', open(os.path.join(root, name)).read())
    return sorted(found)


def main(sharded, single):
    problems = []
    for sub in ("thumbs", "tracks"):
        a, b = files(sharded, sub), files(single, sub)
        if set(a) != set(b):
            problems.append(f"{sub}/: {len(set(a) - set(b))} only in the sharded site, {len(set(b) - set(a))} only in the single run")
        differing = [name for name in set(a) & set(b) if a[name] != b[name]]
        if differing:
            problems.append(f"{sub}/: {len(differing)} file(s) differ, e.g. {sorted(differing)[:3]}")
    index_a, index_b = listing(sharded), listing(single)
    tracks_a = index_a.pop("tracks")
    tracks_b = index_b.pop("tracks")
    if index_a != index_b:
        problems.append(f"index.json header differs: {index_a} vs {index_b}")
    ids_a, ids_b = [t["id"] for t in tracks_a], [t["id"] for t in tracks_b]
    if set(ids_a) != set(ids_b):
        problems.append(f"track ids differ: {len(set(ids_a) - set(ids_b))} only sharded, {len(set(ids_b) - set(ids_a))} only single")
    by_id_b = {t["id"]: t for t in tracks_b}
    for track in tracks_a:
        other = by_id_b.get(track["id"])
        if other is None:
            continue
        fields = sorted(k for k in set(track) | set(other) if k != "page" and track.get(k) != other.get(k))
        if fields:
            problems.append(f"track {track['id'][:12]}: fields differ: {fields}")
    if ids_a != ids_b:
        problems.append("the tracks are in a different order")
    if cards(sharded) != cards(single):
        problems.append("the index pages link different tracks")
    pages = lambda root: {name: digest for name, digest in files(root, ".").items()
                          if re.fullmatch(r"index\.html|page-\d+\.html|site\.css|index\.json", name)}
    for sub, a, b in ((".", pages(sharded), pages(single)), ("index", files(sharded, "index"), files(single, "index"))):
        differing = sorted(name for name in set(a) | set(b) if a.get(name) != b.get(name))
        if differing:
            problems.append(f"{sub}/: {len(differing)} page(s) differ or exist in one site only, e.g. {differing[:3]}")
    for p in problems:
        print("compare-sites:", p, file=sys.stderr)
    if not problems:
        images = len(files(sharded, "thumbs"))
        print(f"compare-sites: equal: {len(ids_a)} tracks, {images} byte-identical images, "
              f"{len(files(sharded, 'tracks'))} identical detail pages, identical index pages and index.json", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: compare-sites.py SHARDED_OUTPUT SINGLE_OUTPUT", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
