#!/usr/bin/env bash
# make fuzz: builds the reader fuzzer (libFuzzer + AddressSanitizer) and runs each reader for
# FUZZ_SECONDS from the committed seeds in Fuzz/seeds/<reader>/, FUZZ_PARALLEL readers at a time.
# The growing corpus stays in .build/fuzz-corpus/<reader>/ (not committed); a crash, leak or timeout
# is written to Fuzz/findings/<reader>-crash-<sha1> and the script exits 1. Turn every finding
# into a regression fixture in Tests/Fixtures/fuzz/ (FuzzRegressionTests decodes them all).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-600}
parallel=${FUZZ_PARALLEL:-2}
readers=${FUZZ_READERS:-gpx csv tcx fit kml kmz geojson gzip}
TRACKSNAP_FUZZ=1 swift build -c release --build-path .build/fuzz --product tracksnap-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld 2>&1 | grep -v "Cannot export local symbol" >&2
binary=.build/fuzz/release/tracksnap-fuzz
mkdir -p Fuzz/findings .build/fuzz-logs
run_one() {
    local reader=$1
    mkdir -p ".build/fuzz-corpus/$reader"
    # Swift's own crash reporter would symbolicate for minutes; libFuzzer reports instead.
    SWIFT_BACKTRACE=enable=no TRACKSNAP_FUZZ_READER=$reader "$binary" ".build/fuzz-corpus/$reader" "Fuzz/seeds/$reader" \
        -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="Fuzz/findings/$reader-" >".build/fuzz-logs/$reader.log" 2>&1
}
status=0
pids=()
names=()
for reader in $readers; do
    run_one "$reader" &
    pids+=($!)
    names+=("$reader")
    if [ ${#pids[@]} -ge "$parallel" ]; then
        wait "${pids[0]}" || status=1
        pids=("${pids[@]:1}")
    fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
printf '%-8s %12s %10s %8s  %s\n' reader executions exec/s corpus result
for reader in $readers; do
    log=.build/fuzz-logs/$reader.log
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    corpus=$(ls ".build/fuzz-corpus/$reader" | wc -l)
    result=$(grep -q -E "^==[0-9]+==ERROR|deadly signal|Test unit written" "$log" && echo "FINDING (see $log)" || echo "no findings")
    printf '%-8s %12s %10s %8s  %s\n' "$reader" "$runs" "$speed" "$corpus" "$result"
done
exit $status
