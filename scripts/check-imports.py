#!/usr/bin/env python3
"""Check each target's `import` lines against the "may import" column of ARCHITECTURE.md.

The target table in ARCHITECTURE.md has the columns `target | owns | may import | ...`; the third
cell is `—` or a comma-separated list of backticked TrackSnap target names. Every directory in
Sources/ is a target (Swift, C and system-library targets alike) and needs a row. For a Swift target,
every `import` in Sources/<target>/**/*.swift that names another TrackSnap target must be listed in
its row; imports of modules that are not TrackSnap targets (Foundation, FoundationEssentials, Glibc,
Synchronization, Dispatch, ...) are not checked. C targets have no Swift imports to check.

Usage: scripts/check-imports.py [--architecture FILE] [--sources DIR]
Exit status 0 when every import is allowed, 1 with one line per finding otherwise.
"""
import argparse
import pathlib
import re
import sys

IMPORT = re.compile(
    r"^\s*(?:@[\w()]+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][\w]*)")
BACKTICKED = re.compile(r"^`([^`]+)`$")
NONE = {"—", "–", "-"}


def cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def read_table(path):
    """Returns {target: (line number, set of allowed targets)}; exits with a message on a bad table."""
    if not path.is_file():
        sys.exit(f"check-imports: {path} is missing; it must hold the target table "
                 "(| target | owns | may import | hot loops / unsafe |)")
    lines = path.read_text(encoding="utf-8").splitlines()
    header = next((i for i, line in enumerate(lines)
                   if line.lstrip().startswith("|") and [c.lower() for c in cells(line)[:3]] == ["target", "owns", "may import"]),
                  None)
    if header is None:
        sys.exit(f"check-imports: {path} has no table whose header starts with | target | owns | may import |")
    table, problems = {}, []
    for number, line in enumerate(lines[header + 2:], start=header + 3):
        if not line.lstrip().startswith("|"):
            break
        row = cells(line)
        if len(row) < 3:
            problems.append(f"{path}:{number}: expected at least 3 cells, found {len(row)}")
            continue
        name = BACKTICKED.match(row[0])
        if not name:
            problems.append(f"{path}:{number}: the target cell should be a backticked name, found {row[0]!r}")
            continue
        allowed = set()
        if row[2] not in NONE:
            for item in row[2].split(","):
                match = BACKTICKED.match(item.strip())
                if not match:
                    problems.append(f"{path}:{number}: `{name.group(1)}` may import: expected `—` or backticked "
                                    f"target names separated by commas, found {item.strip()!r}")
                    continue
                allowed.add(match.group(1))
        if name.group(1) in table:
            problems.append(f"{path}:{number}: `{name.group(1)}` has a second row (first at line {table[name.group(1)][0]})")
        table[name.group(1)] = (number, allowed)
    if problems:
        sys.exit("\n".join(problems))
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--architecture", type=pathlib.Path, default=pathlib.Path("ARCHITECTURE.md"))
    parser.add_argument("--sources", type=pathlib.Path, default=pathlib.Path("Sources"))
    options = parser.parse_args()

    targets = sorted(entry.name for entry in options.sources.iterdir() if entry.is_dir())
    table = read_table(options.architecture)
    findings = []
    for target in targets:
        if target not in table:
            findings.append(f"{options.architecture}: no row for target `{target}` (Sources/{target}) in the target table")
    for name, (number, allowed) in sorted(table.items()):
        if name not in targets:
            findings.append(f"{options.architecture}:{number}: `{name}` is not a target (no Sources/{name})")
        for other in sorted(allowed - set(targets)):
            findings.append(f"{options.architecture}:{number}: `{name}` may import `{other}`, which is not a target")
    for target in targets:
        allowed = table.get(target, (0, set()))[1]
        for source in sorted((options.sources / target).rglob("*.swift")):
            for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
                match = IMPORT.match(line)
                if match and match.group(1) in targets and match.group(1) != target and match.group(1) not in allowed and target in table:
                    findings.append(f"{source}:{number}: `{target}` imports `{match.group(1)}`, which its row in "
                                    f"{options.architecture} does not allow (may import: "
                                    f"{', '.join(sorted(allowed)) or '—'})")
    for finding in findings:
        print(finding, file=sys.stderr)
    if findings:
        print(f"check-imports: {len(findings)} finding(s)", file=sys.stderr)
        return 1
    print(f"check-imports: {len(targets)} targets, every import allowed by {options.architecture}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
