# Sourced by scripts/slurm-check.sh (SLURM_CHECK_FAULTS=1) on its running one-node cluster: the
# fault drills of issue 14 on the real scheduler, each over its own copy of a generated archive
# (SLURM_FAULT_TRACKS tracks, default 300), each ending in the same checks: every job done,
# nothing quarantined, no claim left, exactly one set of images per track, and the site equal to
# a single-machine run's (scripts/compare-sites.py). SLURM_CHECK_SPEED=1 adds the timings of
# 1, 2 and 4 tasks over SLURM_SPEED_TRACKS (default 2,000) tracks.

fault_tracks=${SLURM_FAULT_TRACKS:-300}
dev=$(dirname "$tracksnap")/tracksnap-dev
[ -x "$dev" ] || { swift build -c release --static-swift-stdlib --product tracksnap-dev >/dev/null; }
drills=$cluster/drills
mkdir -p "$drills"
"$dev" archive "$drills/archive" "$fault_tracks" >/dev/null

# The reference: one machine, one run.
"$tracksnap" enqueue "$drills/archive" --jobs "$drills/single/Jobs" --quiet
"$tracksnap" run --jobs "$drills/single/Jobs" --output "$drills/single/Output" --quiet --settle 0

# A fresh queue and site for drill $1; sets TRACKSNAP_JOBS/OUTPUT for the submissions.
fresh() {
    export TRACKSNAP_JOBS="$drills/$1/Jobs" TRACKSNAP_OUTPUT="$drills/$1/Output"
    "$tracksnap" enqueue "$drills/archive" --jobs "$TRACKSNAP_JOBS" --quiet
}
done_count() { find "$TRACKSNAP_JOBS/done" -maxdepth 1 -type f ! -name '.*' 2>/dev/null | wc -l; }
# Waits until array task $1 is running and the queue has at least $2 finished jobs.
wait_running_with_done() {
    local start=$SECONDS
    until [ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = RUNNING ] && [ "$(done_count)" -ge "$2" ]; do
        [ $((SECONDS - start)) -lt 300 ] || fail "task $1 never ran with $2 jobs done"
        sleep 0.1
    done
}
# The common ending of every drill.
verify_drill() {
    local name=$1 status
    status=$("$tracksnap" status --jobs "$TRACKSNAP_JOBS" --json)
    python3 - "$status" "$fault_tracks" "$TRACKSNAP_OUTPUT" "$name" <<'PY' || fail "drill $name"
import json, os, sys
status, expected, output, name = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
problems = []
if status["done"] != expected: problems.append(f"{status['done']} of {expected} done")
if status["failed"]: problems.append(f"quarantined: {[f['job'] + ': ' + f['message'] for f in status['failed']][:3]}")
if status["queued"] or status["running"]: problems.append(f"{status['queued']} queued, {status['running']} running")
index = json.load(open(os.path.join(output, "index.json")))
parts = [index["part_path"].replace("{n}", str(n)) for n in range(index["parts"], 0, -1)]  # index.json schema 4
ids = {t["id"] for path in parts for t in json.load(open(os.path.join(output, path)))["tracks"]}
thumbs = [n for n in os.listdir(os.path.join(output, "thumbs")) if not n.startswith(".")]
stems = {n[:64] for n in thumbs}  # images are named by the track's 64-digit id
if stems != ids: problems.append(f"images for {len(stems - ids)} unlisted id(s), {len(ids - stems)} listed id(s) without images")
if len(thumbs) != 4 * len(ids): problems.append(f"{len(thumbs)} images for {len(ids)} tracks (expected 4 each)")
stray = [n for n in os.listdir(output) + thumbs if ".tmp" in n or n.startswith(".tsnap-")]
if stray: problems.append(f"temporary files left: {stray[:3]}")
for p in problems: print(f"slurm-check: drill {name}:", p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
    python3 scripts/compare-sites.py "$TRACKSNAP_OUTPUT" "$drills/single/Output" || fail "drill $name: the site differs from a single-machine run"
    say "drill $name: OK ($fault_tracks done, none quarantined, 4 images per track, site equal to one machine's)"
}

# 1. scancel one task while it renders, then `scontrol requeue` it.
fresh cancel
array=$(sbatch --parsable --array=0-1 --chdir="$cluster/logs" --output="$cluster/logs/cancel-%A_%a.out" \
    --export=ALL,TRACKSNAP_SHARDS=2 deploy/slurm/tracksnap.sbatch)
wait_running_with_done "${array}_0" 20
scancel "${array}_0"
for _ in $(seq 100); do [ "$(squeue -h -j "${array}_0" -o %T 2>/dev/null)" = "" ] && break; sleep 0.1; done
say "drill cancel: task ${array}_0 cancelled with $(done_count) of $fault_tracks done; requeued"
scontrol requeue "${array}_0"
# A requeued job waits two minutes before it is eligible again; an operator in a hurry (and CI)
# can release it at once.
scontrol update JobId="${array}_0" StartTime=now 2>/dev/null || true
wait_for "$array"
listing=$(submit_listing "afterany:$array"); wait_for "$listing"
verify_drill cancel

# 2. A node failure: every process of one task's job steps (slurmstepd included) killed with
#    SIGKILL, so nothing is given back, then the node marked DOWN as slurmctld does when a node
#    stops answering. The array's --requeue puts the task back; once the node returns, it runs
#    again and must reclaim the dead claims without blaming their jobs.
fresh nodefail
array=$(sbatch --parsable --array=0-1 --chdir="$cluster/logs" --output="$cluster/logs/nodefail-%A_%a.out" \
    --export=ALL,TRACKSNAP_SHARDS=2 deploy/slurm/tracksnap.sbatch)
wait_running_with_done "${array}_0" 20
job=$(squeue -h -j "${array}_0" -o %A)
victims=$(scontrol listpids "$job" 2>/dev/null | awk 'NR > 1 { print $1 }' | sort -u)
steps=$(pgrep -f "slurmstepd: \[$job\." || true)
held=$(find "$TRACKSNAP_JOBS/running" -maxdepth 1 -type f ! -name '.*' | wc -l)
# slurmd is frozen meanwhile, as on a dead node: awake, it sometimes reported the batch script's
# end before the node was down, and the task then ended instead of being requeued.
slurmd_pid=$(cat "$cluster/slurmd.pid")
kill -STOP "$slurmd_pid"
# shellcheck disable=SC2086
kill -KILL $victims $steps 2>/dev/null || true
for pid in $victims $steps; do wait "$pid" 2>/dev/null || true; done
scontrol update NodeName="$node" State=DOWN Reason="tracksnap node-failure drill"
for _ in $(seq 100); do [ "$(squeue -h -j "${array}_0" -o %T 2>/dev/null)" != RUNNING ] && break; sleep 0.1; done
kill -CONT "$slurmd_pid"
say "drill nodefail: SIGKILL to $(echo $victims $steps | wc -w) process(es) of job $job holding $held claim(s); node down, task ${array}_0 $(squeue -h -j "${array}_0" -o %T 2>/dev/null || echo gone)"
# With ReturnToService=2 the node may already be back (its slurmd registered again).
scontrol update NodeName="$node" State=RESUME 2>/dev/null || true
scontrol update JobId="${array}_0" StartTime=now 2>/dev/null || true
wait_for "$array"
[ "$(scontrol -o show job "$job" | grep -o 'Restarts=[0-9]*')" != "Restarts=0" ] || fail "drill nodefail: the task was not requeued"
listing=$(submit_listing "afterany:$array"); wait_for "$listing"
verify_drill nodefail

# 3. One task only, and more tasks than cores (8 on this machine's CPUs).
for count in 1 8; do
    fresh "tasks-$count"
    array=$(sbatch --parsable --array=0-$((count - 1)) --cpus-per-task=1 --chdir="$cluster/logs" \
        --output="$cluster/logs/tasks$count-%A_%a.out" --export=ALL,TRACKSNAP_SHARDS=$count deploy/slurm/tracksnap.sbatch)
    listing=$(submit_listing "afterany:$array"); wait_for "$array,$listing"
    verify_drill "tasks-$count"
done

# 4. A listing started while the tasks still run (a user's mistake): it must say what it saw and
#    corrupt nothing; the fan-in after the array then lists everything.
fresh early-listing
array=$(sbatch --parsable --array=0-1 --chdir="$cluster/logs" --output="$cluster/logs/early-%A_%a.out" \
    --export=ALL,TRACKSNAP_SHARDS=2 deploy/slurm/tracksnap.sbatch)
wait_running_with_done "${array}_0" 20
early=$("$tracksnap" listing --jobs "$TRACKSNAP_JOBS" --output "$TRACKSNAP_OUTPUT" 2>&1) || fail "drill early-listing: the early listing failed: $early"
say "drill early-listing: the early listing said: $early"
[[ "$early" =~ "a run is not finished" ]] || fail "drill early-listing: the early listing did not say what it saw"
listing=$(submit_listing "afterany:$array"); wait_for "$array,$listing"
verify_drill early-listing

if [ "${SLURM_CHECK_SPEED:-0}" = 1 ]; then
    speed_tracks=${SLURM_SPEED_TRACKS:-2000}
    "$dev" archive "$drills/speed-archive" "$speed_tracks" >/dev/null
    for count in 1 2 4; do
        export TRACKSNAP_JOBS="$drills/speed-$count/Jobs" TRACKSNAP_OUTPUT="$drills/speed-$count/Output"
        "$tracksnap" enqueue "$drills/speed-archive" --jobs "$TRACKSNAP_JOBS" --quiet
        started=$(date +%s.%N)
        array=$(sbatch --parsable --array=0-$((count - 1)) --cpus-per-task=$((cpus / (count < cpus ? count : cpus))) \
            --chdir="$cluster/logs" --output="$cluster/logs/speed-%A_%a.out" --export=ALL,TRACKSNAP_SHARDS=$count deploy/slurm/tracksnap.sbatch)
        wait_for "$array" 3600
        array_done=$(date +%s.%N)
        listing=$(submit_listing "afterany:$array"); wait_for "$listing"
        listed=$(date +%s.%N)
        # The scheduler's own cost: the same array again over the now finished queue (each task
        # starts, finds nothing to do and ends).
        empty=$(sbatch --parsable --array=0-$((count - 1)) --cpus-per-task=1 --chdir="$cluster/logs" \
            --output="$cluster/logs/empty-%A_%a.out" --export=ALL,TRACKSNAP_SHARDS=$count deploy/slurm/tracksnap.sbatch)
        empty_start=$(date +%s.%N); wait_for "$empty"; empty_end=$(date +%s.%N)
        python3 -c "import sys; a,b,c,d,e,n,t=map(float,sys.argv[1:]); print(f'slurm-check: speed: {int(t)} tracks, {int(n)} task(s): array {b-a:.1f} s ({t/(b-a):.0f} tracks/s), fan-in listing {c-b:.1f} s, an empty array of {int(n)} task(s) {e-d:.2f} s ({(e-d)/n:.2f} s a task)')" \
            "$started" "$array_done" "$listed" "$empty_start" "$empty_end" "$count" "$speed_tracks" >&2
    done
fi
