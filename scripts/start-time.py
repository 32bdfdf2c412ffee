#!/usr/bin/env python3
"""Process start of one or more executables, compared fairly on a shared machine.

    python3 scripts/start-time.py [--rounds N] [--args "--version"] BINARY [BINARY ...]

Each round starts every binary 20 times in turn (posix_spawn, standard output to /dev/null), so
a burst of load from elsewhere hits all of them alike; at the end it prints, per binary, the
median wall time from spawn to exit and the median CPU time of the child (user + system, from
wait4). CPU time is the steadier figure when other builds share the cores. Used for
`tracksnap --version` in docs/performance.md (issue 24).
"""
import argparse
import os
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="interleaved rounds (default 30)")
    parser.add_argument("--args", default="--version", help="arguments for every binary (default --version)")
    parser.add_argument("binaries", nargs="+")
    options = parser.parse_args()
    arguments = options.args.split()
    wall = {binary: [] for binary in options.binaries}
    cpu = {binary: [] for binary in options.binaries}
    devnull = os.open("/dev/null", os.O_WRONLY)
    for _ in range(options.rounds):
        for binary in options.binaries:
            for _ in range(20):
                start = time.perf_counter()
                pid = os.posix_spawn(binary, [binary] + arguments, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
                _, status, usage = os.wait4(pid, 0)
                wall[binary].append(time.perf_counter() - start)
                cpu[binary].append(usage.ru_utime + usage.ru_stime)
                if status != 0:
                    raise SystemExit(f"{binary} exited with status {status}")
    for binary in options.binaries:
        print(
            f"{binary}: wall median {statistics.median(wall[binary]) * 1000:.2f} ms, "
            f"CPU median {statistics.median(cpu[binary]) * 1000:.2f} ms over {len(wall[binary])} starts"
        )


if __name__ == "__main__":
    main()
