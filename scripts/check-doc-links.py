#!/usr/bin/env python3
"""Check that every relative link in README.md, ARCHITECTURE.md and docs/*.md resolves.

A link is `[text](target)`. Targets with a scheme (http:, https:, mailto:) are skipped. A path must
exist relative to the file; a `#fragment` must match a heading of the target Markdown file (GitHub's
anchor rules: lower case, punctuation removed, spaces to hyphens). Exit 1 and one line per broken link.
"""
import glob
import os
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```")


def anchors(path):
    found = set()
    counts = {}
    in_fence = False
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence or not line.startswith("#"):
                continue
            title = line.lstrip("#").strip().lower()
            slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
            n = counts.get(slug, 0)
            counts[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def links(path):
    in_fence = False
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            for match in LINK.finditer(line):
                yield number, match.group(1)


def main(root):
    files = [os.path.join(root, "README.md"), os.path.join(root, "ARCHITECTURE.md")]
    files += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    broken = 0
    for path in files:
        if not os.path.exists(path):
            print(f"{os.path.relpath(path, root)}: missing")
            broken += 1
            continue
        for number, target in links(path):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            file_part, _, fragment = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            where = f"{os.path.relpath(path, root)}:{number}: {target}"
            if not os.path.exists(resolved):
                print(f"{where}: no such file")
                broken += 1
            elif fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
                print(f"{where}: no heading with anchor #{fragment}")
                broken += 1
    checked = len(files)
    print(f"check-doc-links: {checked} files, {broken} broken link(s)", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
