#!/usr/bin/env bash
# scripts/slurm-check.sh ARCHIVE OUTDIR [TASKS]
#
# Runs the shipped Slurm files (deploy/slurm/*.sbatch) on a real one-node Slurm cluster started
# here: installs slurm-wlm and munge when missing, writes a one-node configuration under a
# temporary folder (nothing outside it is changed but the packages), starts munged, slurmctld and
# slurmd, enqueues ARCHIVE into OUTDIR/../Jobs, submits the array (TASKS tasks, default 4) and the
# fan-in listing with --dependency=afterany, waits, stops the daemons it started (by pid) and
# exits 0 only when every job is accounted for (done, or failed with a reason), every task and
# the listing completed, and `tracksnap status --json` agrees.
#
# Then, unless SLURM_CHECK_COMPARE=0, the same archive is run on one machine (`tracksnap run`)
# and the two sites are compared (scripts/compare-sites.py: same track ids, byte-identical images,
# the same index.json apart from its generation time).
#
# SLURM_CHECK_FAULTS=1 also runs the fault drills on the same cluster (see faults() below).
# TRACKSNAP=path/to/tracksnap (default .build/release/tracksnap, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: scripts/slurm-check.sh ARCHIVE OUTDIR [TASKS]" >&2; exit 2; }
archive=$(realpath "$1")
mkdir -p "$2"
outdir=$(realpath "$2")
tasks=${3:-4}
[[ "$tasks" =~ ^[0-9]+$ ]] && [ "$tasks" -ge 1 ] || { echo "slurm-check: TASKS must be a positive number, found '$tasks'" >&2; exit 2; }
queue=$(dirname "$outdir")/Jobs
tracksnap=${TRACKSNAP:-$root/.build/release/tracksnap}
if [ ! -x "$tracksnap" ]; then make -s release >/dev/null; fi
tracksnap=$(realpath "$tracksnap")

bash scripts/ensure-deps.sh slurm-wlm munge slurm-client

say() { echo "slurm-check: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

# --- a one-node cluster in a temporary folder ------------------------------------------------
cluster=$(mktemp -d /tmp/tracksnap-slurm.XXXXXX)
mkdir -p "$cluster"/{state,spool,logs}
pids=()
stop_daemons() {
    local pid
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true  # this container reaps no zombies: we do
    done
    pids=()
}
cleanup() {
    local status=$?
    stop_daemons
    if [ $status -ne 0 ]; then
        say "daemon logs kept in $cluster/logs"
        tail -n 20 "$cluster"/logs/*.log >&2 2>/dev/null || true
    else
        rm -rf "$cluster"
    fi
    exit $status
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
node=$(hostname -s)
node_line=$(slurmd -C 2>/dev/null | head -1)  # NodeName=... CPUs=... RealMemory=...
cpus=$(nproc)
controller_port=$(free_port)
node_port=$(free_port)

# munge: our own key and socket, so a munged already running here is not touched.
dd if=/dev/urandom bs=1 count=1024 of="$cluster/munge.key" 2>/dev/null
chmod 0400 "$cluster/munge.key"
munged --force --foreground --key-file="$cluster/munge.key" --socket="$cluster/munge.sock" \
    --pid-file="$cluster/munged.pid" --log-file="$cluster/logs/munged.log" --seed-file="$cluster/munge.seed" >>"$cluster/logs/munged.out" 2>&1 &
pids+=($!)

cat >"$cluster/slurm.conf" <<CONF
ClusterName=tracksnap-check
SlurmctldHost=$node
SlurmctldPort=$controller_port
SlurmdPort=$node_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$cluster/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/logs/slurmctld.log
SlurmdLogFile=$cluster/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MinJobAge=3600
JobRequeue=1
KillWait=5
$node_line State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$cluster/slurm.conf"

for _ in $(seq 50); do [ -S "$cluster/munge.sock" ] && break; sleep 0.1; done
slurmctld -D -i -f "$SLURM_CONF" >>"$cluster/logs/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >>"$cluster/logs/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
    state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.2
done
[ "$state" = idle ] || fail "the node did not come up (state '${state:-none}')"
say "one-node cluster up: $node, $cpus CPUs, slurmctld :$controller_port, slurmd :$node_port"

# --- the shipped files, changed only in paths and array size --------------------------------
export TRACKSNAP="$tracksnap" TRACKSNAP_JOBS="$queue" TRACKSNAP_OUTPUT="$outdir"

# Waits until none of the given job ids is pending or running (at most $2 seconds).
wait_for() {
    local ids=$1 limit=${2:-1800} start=$SECONDS
    while [ -n "$(squeue -h -j "$ids" -o %i 2>/dev/null)" ]; do
        [ $((SECONDS - start)) -lt "$limit" ] || fail "jobs $ids still running after ${limit} s"
        sleep 0.5
    done
}

# State and exit code of every task of an array (or of a job), "COMPLETED 0:0" when all is well.
task_states() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]* .*ExitCode=[0-9:]*' | sed -E 's/JobState=([A-Z_]+).*ExitCode=([0-9:]+)/\1 \2/'; }

submit_array() {  # $1 = array spec, e.g. 0-3; prints the array job id
    sbatch --parsable --array="$1" --chdir="$cluster/logs" --output="$cluster/logs/tracksnap-%A_%a.out" \
        --export=ALL,TRACKSNAP_SHARDS="$tasks" deploy/slurm/tracksnap.sbatch
}
submit_listing() {  # $1 = dependency
    sbatch --parsable --dependency="$1" --chdir="$cluster/logs" --output="$cluster/logs/listing-%j.out" \
        --export=ALL deploy/slurm/listing.sbatch
}

"$tracksnap" enqueue "$archive" --jobs "$queue" --quiet || [ $? -eq 1 ]  # 1: some files skipped (named)
enqueued=$(find "$queue/new" "$queue/done" "$queue/failed" "$queue/running" -maxdepth 1 -type f ! -name '.*' ! -name '*.error' 2>/dev/null | wc -l)
say "queue $queue: $enqueued job(s)"

check_accounted() {
    local status
    status=$("$tracksnap" status --jobs "$queue" --json)
    python3 - "$status" "$enqueued" <<'PY' || fail "not every job is accounted for"
import json, sys
status, expected = json.loads(sys.argv[1]), int(sys.argv[2])
failed = status["failed"]
problems = []
if status["queued"] or status["running"]:
    problems.append(f"{status['queued']} queued and {status['running']} running after the run")
if status["done"] + len(failed) != expected:
    problems.append(f"{status['done']} done + {len(failed)} failed != {expected} enqueued")
for record in failed:
    if not record.get("class") or not record.get("message"):
        problems.append(f"{record.get('job')}: failed without a reason")
for p in problems: print("slurm-check:", p, file=sys.stderr)
print(f"slurm-check: status agrees: {status['done']} done, {len(failed)} failed with a reason, nothing queued or running", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

started=$SECONDS
array=$(submit_array "0-$((tasks - 1))")
listing=$(submit_listing "afterany:$array")
say "submitted array $array (0-$((tasks - 1))) and listing $listing (afterany:$array)"
wait_for "$array,$listing"
elapsed=$((SECONDS - started))
bad=$(task_states "$array" | grep -vc '^COMPLETED 0:0$' || true)
[ "$bad" -eq 0 ] || { task_states "$array" >&2; fail "$bad array task(s) did not complete with exit 0"; }
[ "$(task_states "$listing")" = "COMPLETED 0:0" ] || fail "the listing job ended $(task_states "$listing")"
check_accounted
grep -h "listed" "$cluster"/logs/listing-*.out >&2 || true
say "sharded run: $tasks task(s), $elapsed s from submission to the listing's end"

if [ "${SLURM_CHECK_FAULTS:-0}" = 1 ]; then
    # shellcheck source=scripts/slurm-faults.sh
    source scripts/slurm-faults.sh
fi

stop_daemons

if [ "${SLURM_CHECK_COMPARE:-1}" = 1 ]; then
    single=$(mktemp -d /tmp/tracksnap-single.XXXXXX)
    "$tracksnap" enqueue "$archive" --jobs "$single/Jobs" --quiet || [ $? -eq 1 ]
    "$tracksnap" run --jobs "$single/Jobs" --output "$single/Output" --quiet --settle 0 || [ $? -eq 1 ]
    python3 scripts/compare-sites.py "$outdir" "$single/Output" || fail "the sharded site differs from a single-machine run"
    rm -rf "$single"
fi
say "OK"
