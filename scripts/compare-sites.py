#!/usr/bin/env python3
"""compare-sites.py [--map-keys] SHARDED SINGLE: checks that a site built by a sharded run equals one
built by a single `tracksnap run` over the same archive.

Must be equal: the set of track ids; every image under thumbs/, byte for byte; every detail page;
index.json and its parts (index/part-N.json) track by track, field by field, in the same order;
the index pages (index.html, page-N.html), site.css and the parts, byte for byte; the archive
overview (overview.html, the region pages region-*.html, the year pages overview-YYYY.html,
index/overview.json, its pictures' tile lists under index/overview/ and every picture under overview/: regions,
their thumbnails and years), byte for byte.

Nothing is left out: a track with no recorded time is placed by its archive file's modification
time, which enqueue keeps on its copy, so both sites order and date it alike.
--map-keys compares two sites whose image keys differ because the settings fingerprint's encoding
changed (e.g. the sites of two TrackSnap versions built from the same archive): each track of the
first site is paired with the one track of the second whose images have the same names after the
key and the same bytes; the first site's keys are then renamed (file names and every reference in
pages and index.json; an overview region's 16-digit name with its track's key) in a temporary
copy, and that copy must equal the second site byte for byte as above. A track with no partner, or with two, is a difference.
Exit 0 when equal; 1 with the differences listed.
"""
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile

KEY = re.compile(r"[0-9a-f]{64}")
# An overview region's name: the first 16 hex digits of its oldest track's key.
# It names the region's pictures (overview/<stem>.t<n>-<digest>.png tiles, .thumb.png, .<year>.t…) and page (region-<stem>.html);
# a tile's digest is of its pixels, so the same pictures have the same tile names in both sites.
STEM = re.compile(r"(overview/|region-|\"id\":\"|^)([0-9a-f]{16})(?![0-9a-f])")


def files(root, sub):
    folder = os.path.join(root, sub)
    if not os.path.isdir(folder):
        return {}
    return {name: hashlib.sha256(open(os.path.join(folder, name), "rb").read()).hexdigest()
            for name in os.listdir(folder) if not name.startswith(".") and os.path.isfile(os.path.join(folder, name))}


def part_paths(document):
    """The parts index.json names, newest first: listed (schema 3) or counted with a path pattern (schema 4)."""
    if isinstance(document["parts"], list):
        return [part["path"] for part in document["parts"]]
    return [document["part_path"].replace("{n}", str(n)) for n in range(document["parts"], 0, -1)]


def listing(root):
    """index.json (schema 3 or 4) with its parts' tracks gathered, newest first, under "tracks"."""
    document = json.load(open(os.path.join(root, "index.json")))
    document["tracks"] = [track for path in part_paths(document)
                          for track in json.load(open(os.path.join(root, path)))["tracks"]]
    return document


def cards(root):
    """Track ids linked from the index pages, as a multiset."""
    found = []
    for name in os.listdir(root):
        if name == "index.html" or re.fullmatch(r"page-\d+\.html", name):
            found += re.findall(r'href="tracks/([0-9a-f]{64})\.html"', open(os.path.join(root, name)).read())
    return sorted(found)


def image_sets(root):
    """Each key's images as a sorted tuple of (name after the key, SHA-256 of the bytes)."""
    found = {}
    for name, digest in files(root, "thumbs").items():
        match = re.fullmatch(r"([0-9a-f]{64})(.*\.png)", name)
        if match:
            found.setdefault(match.group(1), []).append((match.group(2), digest))
    return {key: tuple(sorted(images)) for key, images in found.items()}


def key_map(first, second):
    """Pairs each key of `first` with the key of `second` whose images are the same; problems."""
    by_images = {}
    for key, images in image_sets(second).items():
        by_images.setdefault(images, []).append(key)
    mapping, problems = {}, []
    for key, images in sorted(image_sets(first).items()):
        partners = by_images.get(images, [])
        if len(partners) != 1:
            problems.append(f"key {key[:12]}: {len(partners)} tracks of the second site have its images")
        else:
            mapping[key] = partners[0]
    if len(set(mapping.values())) != len(mapping):
        problems.append("two keys of the first site map to one of the second")
    return mapping, problems


def rekeyed_copy(root, mapping, destination):
    """The site's public files (no dot folders) with every mapped key renamed, in names and text."""
    stems = {key[:16]: partner[:16] for key, partner in mapping.items()}
    rename_stems = lambda text: STEM.sub(lambda m: m.group(1) + stems.get(m.group(2), m.group(2)), text)
    rename = lambda text: rename_stems(KEY.sub(lambda m: mapping.get(m.group(0), m.group(0)), text))
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        relative = os.path.relpath(folder, root)
        os.makedirs(os.path.join(destination, rename(relative)), exist_ok=True)
        for name in names:
            if name.startswith("."):
                continue
            source = os.path.join(folder, name)
            target = os.path.join(destination, rename(relative), rename(name))
            if name.endswith((".html", ".json", ".css")):
                text = open(source, encoding="utf-8").read()
                with open(target, "w", encoding="utf-8") as out:
                    out.write(rename(text))
            else:
                shutil.copyfile(source, target)


def main_mapping_keys(first, second):
    mapping, problems = key_map(first, second)
    for p in problems:
        print("compare-sites:", p, file=sys.stderr)
    if problems:
        return 1
    print(f"compare-sites: {len(mapping)} keys paired by their images' bytes", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="compare-sites-") as copy:
        rekeyed_copy(first, mapping, copy)
        return main(copy, second)


def main(sharded, single):
    problems = []
    for sub in ("thumbs", "tracks", "overview", "index/overview"):
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
                          if re.fullmatch(r"index\.html|page-\d+\.html|site\.css|index\.json|overview(-\d+)?\.html|region-[0-9a-z-]+\.html", name)}
    for sub, a, b in ((".", pages(sharded), pages(single)), ("index", files(sharded, "index"), files(single, "index"))):
        differing = sorted(name for name in set(a) | set(b) if a.get(name) != b.get(name))
        if differing:
            problems.append(f"{sub}/: {len(differing)} page(s) differ or exist in one site only, e.g. {differing[:3]}")
    for p in problems:
        print("compare-sites:", p, file=sys.stderr)
    if not problems:
        images = len(files(sharded, "thumbs"))
        print(f"compare-sites: equal: {len(ids_a)} tracks, {images} byte-identical images, "
              f"{len(files(sharded, 'tracks'))} identical detail pages, {len(files(sharded, 'overview'))} identical overview pictures, "
              "identical index pages, overview, region and year pages and index.json", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    mapping_keys = arguments[:1] == ["--map-keys"]
    if mapping_keys:
        arguments = arguments[1:]
    if len(arguments) != 2:
        print("usage: compare-sites.py [--map-keys] SHARDED_OUTPUT SINGLE_OUTPUT", file=sys.stderr)
        sys.exit(2)
    sys.exit(main_mapping_keys(*arguments) if mapping_keys else main(*arguments))
