#!/usr/bin/env python3
"""soak.py [--seed N] [--nights N] [--bin DIR] [--work DIR]: many nights of a deployment, with faults.

Each night the archive changes the way real archives do (new tracks, a track edited in place, one
renamed, now and then a damaged file or a track without times), then `tracksnap enqueue` and
`tracksnap run` go as cron would start them, and one fault hits the run at a random moment:

  kill9      kill -9 of the whole run (process group)
  sigterm    SIGTERM to the run
  diskfull   the output or the queue file system fills up during the run (a small tmpfs)
  listing    a `tracksnap listing` while the run is going
  second     a second `tracksnap run` on the same queue at the same time
  retry      `tracksnap retry --all` while the run is going

No hand work between nights. After the last night one quiet night runs, then the soaked site must
equal a clean run of the final archive (scripts/compare-sites.py: same tracks, byte-identical
images and detail pages, index.json equal), the queue must hold nothing in new/ or running/, only
the damaged files in failed/, and no temporary file may be left anywhere under Output/.

Runs inside a user and mount namespace (unshare) so the disk can be filled without root: Output/
and Jobs/ are each a tmpfs there. The random choices come from --seed: the same seed gives the
same nights and faults (the moments of the faults still depend on the machine's speed).
Exit 0 when the site is right; 1 with the differences.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FAULTS = ["kill9", "sigterm", "diskfull", "listing", "second", "retry"]


def log(message):
    print(f"soak: {message}", flush=True)


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.tracksnap = os.path.join(args.bin, "tracksnap")
        self.dev = os.path.join(args.bin, "tracksnap-dev")
        self.work = args.work
        self.archive = os.path.join(self.work, "archive")
        self.pool = os.path.join(self.work, "pool")
        self.jobs = os.path.join(self.work, "Jobs")
        self.output = os.path.join(self.work, "Output")
        self.style = os.path.join(self.work, "style.json")
        self.clock = time.time() - 400 * 86400  # archive files are dated in the past, one day a night
        self.pool_files = []
        self.bad = set()
        self.last_run_seconds = 1.0  # how long the previous night's run took, to aim the faults

    # ---- the archive ------------------------------------------------------------------------
    def prepare(self):
        for folder in (self.archive, self.pool, self.jobs, self.output):
            os.makedirs(folder, exist_ok=True)
        # Thumbnails only: the faults are about the queue and the site, not the large images.
        with open(self.style, "w") as f:
            f.write('{"version": 1, "detail": false}')
        subprocess.run([self.dev, "archive", self.pool, str(self.args.pool)], check=True, stdout=subprocess.DEVNULL)
        self.pool_files = sorted(os.path.join(self.pool, n) for n in os.listdir(self.pool))
        self.rng.shuffle(self.pool_files)
        for _ in range(self.args.start):
            self.add_track()
        self.add_untimed()

    def stamp(self, path):
        self.clock += 600
        os.utime(path, (self.clock, self.clock))

    def add_track(self):
        if not self.pool_files:
            return
        source = self.pool_files.pop()
        target = os.path.join(self.archive, f"night-{len(os.listdir(self.archive)):03d}-{os.path.basename(source)}")
        shutil.copyfile(source, target)
        self.stamp(target)

    def add_untimed(self):
        # A track without times: the site dates it by the file's modification time.
        lat, lon = 46.9 + self.rng.random() / 10, 7.4 + self.rng.random() / 10
        coordinates = ",".join(f"[{lon + i / 2000:.6f},{lat + (i % 7) / 3000:.6f}]" for i in range(80))
        target = os.path.join(self.archive, f"untimed-{len(os.listdir(self.archive)):03d}.geojson")
        with open(target, "w") as f:
            f.write('{"type":"Feature","properties":{"name":"untimed"},"geometry":{"type":"LineString","coordinates":[' + coordinates + "]}}")
        self.stamp(target)

    def tracks(self):
        return sorted(n for n in os.listdir(self.archive) if n not in self.bad)

    def change_archive(self):
        for _ in range(self.rng.randint(1, 3)):
            self.add_track()
        names = self.tracks()
        if names and self.pool_files:
            # Edited in place: same name, same inode, new bytes.
            edited = os.path.join(self.archive, self.rng.choice(names))
            with open(self.pool_files.pop(), "rb") as source, open(edited, "r+b") as target:
                data = source.read()
                target.seek(0)
                target.write(data)
                target.truncate(len(data))
            self.stamp(edited)
        names = self.tracks()
        if names and self.rng.random() < 0.5:
            old = self.rng.choice(names)
            new = "renamed-" + old.split("-", 2)[-1] if not old.startswith("renamed-") else "again-" + old
            if not os.path.exists(os.path.join(self.archive, new)):
                os.rename(os.path.join(self.archive, old), os.path.join(self.archive, new))
        if self.rng.random() < 0.3:
            name = f"damaged-{len(self.bad)}.gpx"
            with open(os.path.join(self.archive, name), "wb") as f:
                f.write(b'<?xml version="1.0"?><gpx><trk><trkseg><trkpt lat="46.9" lon=')
                f.write(bytes(self.rng.randrange(256) for _ in range(200)))
            self.stamp(os.path.join(self.archive, name))
            self.bad.add(name)
        if self.rng.random() < 0.2:
            self.add_untimed()

    # ---- one night ----------------------------------------------------------------------------
    def command(self, *arguments):
        return [self.tracksnap, *arguments]

    def run_command(self, extra=()):
        return self.command("run", "--jobs", self.jobs, "--output", self.output, "--settle", "0",
                            "--style", self.style, "--workers", "2", "--quiet", *extra)

    def night(self, number, fault):
        subprocess.run(self.command("enqueue", self.archive, "--jobs", self.jobs, "--mirror", "--quiet"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Within the run: a fraction of what the previous night's run took.
        moment = self.rng.uniform(0.02, 1.0) * self.last_run_seconds
        target = self.rng.choice([self.output, self.jobs])
        started = time.monotonic()
        run = subprocess.Popen(self.run_command(), start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(moment)
        filler = None
        if fault == "kill9":
            try:
                os.killpg(run.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        elif fault == "sigterm":
            run.send_signal(signal.SIGTERM)
        elif fault == "diskfull":
            filler = os.path.join(target, ".soak-filler")
            subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], stderr=subprocess.DEVNULL)
        elif fault == "listing":
            subprocess.run(self.command("listing", "--jobs", self.jobs, "--output", self.output, "--style", self.style),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elif fault == "second":
            subprocess.run(self.run_command(["--no-lock"]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elif fault == "retry":
            subprocess.run(self.command("retry", "--all", "--jobs", self.jobs),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _, stderr = run.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            _, stderr = run.communicate()
            log(f"night {number}: the run did not end within 300 s")
            return False
        if fault == "kill9":
            # The whole group, the supervisor's children included, is gone before the next night.
            try:
                os.killpg(run.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if filler:
            os.unlink(filler)
        if fault in ("listing", "retry", "diskfull"):
            self.last_run_seconds = max(0.2, time.monotonic() - started)
        status = run.returncode
        expected = {0, 75} if fault != "kill9" else {0, 75, -9}
        where = f" ({os.path.basename(target)})" if fault == "diskfull" else ""
        log(f"night {number}: {len(self.tracks())} tracks, {fault}{where} at {moment:.2f} s, exit {status}")
        if status not in expected:
            log(f"night {number}: unexpected exit status {status}: {stderr.decode(errors='replace')[-400:]}")
            return False
        return True

    # ---- the verdict --------------------------------------------------------------------------
    def clean_run(self):
        clean = os.path.join(self.work, "clean")
        shutil.rmtree(clean, ignore_errors=True)
        os.makedirs(clean)
        jobs, output = os.path.join(clean, "Jobs"), os.path.join(clean, "Output")
        subprocess.run(self.command("enqueue", self.archive, "--jobs", jobs, "--quiet"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(self.command("run", "--jobs", jobs, "--output", output, "--settle", "0", "--style", self.style,
                                    "--workers", "2", "--quiet"), check=True, stderr=subprocess.DEVNULL)
        return output

    def problems(self, clean_output):
        found = []
        compare = subprocess.run([sys.executable, os.path.join(HERE, "compare-sites.py"), self.output, clean_output])
        if compare.returncode != 0:
            found.append("the soaked site differs from a clean run (above)")
        for folder, _, names in os.walk(self.output):
            if os.path.basename(folder) == ".tracksnap" or "/.tracksnap" in folder:
                continue
            leftovers = [n for n in names if ".tmp~" in n or n.startswith(".soak")]
            if leftovers:
                found.append(f"temporary files left in {os.path.relpath(folder, self.output)}/: {leftovers[:3]}")
        for sub in ("new", "running"):
            left = [n for n in os.listdir(os.path.join(self.jobs, sub)) if not n.startswith(".")]
            if left:
                found.append(f"Jobs/{sub}/ still holds {left[:3]}")
        # Job names are the archive name behind an 8-hex-digit prefix of its path's hash.
        failed = sorted(n.split("-", 1)[1] for n in os.listdir(os.path.join(self.jobs, "failed"))
                        if not n.endswith(".error") and not n.startswith("."))
        if sorted(self.bad) != failed:
            found.append(f"Jobs/failed/ holds {failed}, expected only the damaged files {sorted(self.bad)}")
        return found

    def main(self):
        self.prepare()
        ok = True
        for number in range(1, self.args.nights + 1):
            self.change_archive()
            ok = self.night(number, self.rng.choice(FAULTS)) and ok
        # The quiet night after the last fault repairs what is left.
        subprocess.run(self.command("enqueue", self.archive, "--jobs", self.jobs, "--mirror", "--quiet"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        quiet = subprocess.run(self.run_command(), stderr=subprocess.PIPE)
        if quiet.returncode != 0:
            log(f"the quiet night exited {quiet.returncode}: {quiet.stderr.decode(errors='replace')[-400:]}")
            ok = False
        found = self.problems(self.clean_run())
        for problem in found:
            log(f"FAILED: {problem}")
        if ok and not found:
            log(f"ok: {self.args.nights} nights with faults (seed {self.args.seed}), then equal to a clean run")
            return 0
        return 1


def inside_namespace(args):
    # Output/ and Jobs/ on small file systems of their own, so a night can fill one of them.
    for name, size in (("Output", "64m"), ("Jobs", "64m")):
        path = os.path.join(args.work, name)
        os.makedirs(path, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path], check=True)
    status = Soak(args).main()
    if status != 0:
        # The tmpfs mounts end with the namespace: keep copies to look at.
        for name in ("Output", "Jobs"):
            shutil.copytree(os.path.join(args.work, name), os.path.join(args.work, "soaked-" + name), symlinks=True)
    return status


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nights", type=int, default=12)
    parser.add_argument("--start", type=int, default=12, help="tracks in the archive on the first night")
    parser.add_argument("--pool", type=int, default=60, help="generated tracks to draw new and edited ones from")
    parser.add_argument("--bin", default=".build/debug", help="folder holding tracksnap and tracksnap-dev")
    parser.add_argument("--work", default=None, help="scratch folder (default: a new one in /tmp, removed on success)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    if args.inside:
        sys.exit(inside_namespace(args))
    # The disk-full nights need a user and mount namespace; some containers refuse one.
    if subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"], capture_output=True).returncode != 0:
        log("skipped: unshare --user --mount is not permitted here (the nights fill a tmpfs of their own)")
        sys.exit(0)
    keep = args.work is not None
    args.work = os.path.abspath(args.work or subprocess.run(["mktemp", "-d", "/tmp/tracksnap-soak.XXXXXX"],
                                                            capture_output=True, text=True, check=True).stdout.strip())
    command = ["unshare", "--user", "--map-root-user", "--mount", sys.executable, os.path.abspath(__file__),
               "--inside", "--seed", str(args.seed), "--nights", str(args.nights), "--start", str(args.start),
               "--pool", str(args.pool), "--bin", args.bin, "--work", args.work]
    status = subprocess.run(command).returncode
    if status == 0 and not keep:
        shutil.rmtree(args.work, ignore_errors=True)
    elif status != 0:
        log(f"kept in {args.work} (soaked-Output, soaked-Jobs, clean/)")
    sys.exit(status)
