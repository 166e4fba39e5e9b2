#!/usr/bin/env bash
# Runs every fuzz target for N inputs (default 1,000,000) and prints a table of target,
# inputs run, seconds, inputs per second and result.
#
#   fuzz/run.sh              # 1,000,000 inputs per target
#   fuzz/run.sh 10000        # a short run
#   fuzz/run.sh 10000 profile table_card   # only these targets
#
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). New inputs that
# libFuzzer finds go to fuzz/grown/<target>/ (never into the checked-in corpus/), crashes
# to fuzz/artifacts/<target>/, each target's libFuzzer output to fuzz/logs/<target>.log.
# Extra libFuzzer flags can be given in FUZZ_FLAGS.
set -uo pipefail

runs="${1:-1000000}"
shift || true
cd "$(dirname "$0")"

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=(device_frame session_meta table_card join_ticket bots_file profile
        greedquest_input sprawl_input protocol_message start_file log_file inbox_file
        secrets_file screen_feed core_message)
fi

# Debug assertions on: an arithmetic overflow is a panic, as in the tests.
cargo +nightly fuzz build -a || exit 1
mkdir -p logs

# -timeout: seconds one input may take; -malloc_limit_mb: the largest single allocation
# (no decoder may believe a lying length prefix); -rss_limit_mb: the whole process.
flags=(-runs="$runs" -timeout=10 -malloc_limit_mb=64 -rss_limit_mb=2048 -print_final_stats=1)

failed=0
printf '%-18s %10s %9s %9s  %s\n' target runs seconds exec/s result
for t in "${targets[@]}"; do
    mkdir -p "grown/$t"
    t0=$(date +%s.%N)
    cargo +nightly fuzz run -a "$t" "grown/$t" "corpus/$t" -- "${flags[@]}" ${FUZZ_FLAGS:-} \
        >"logs/$t.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    stat() { grep -oE "stat::$1: +[0-9]+" "logs/$t.log" | tail -1 | awk "{print \$2}"; }
    done_runs=$(stat number_of_executed_units)
    rate=$(stat average_exec_per_sec)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    if [ "$rc" -eq 0 ]; then
        result=ok
    else
        result="FAILED (exit $rc, see fuzz/logs/$t.log and fuzz/artifacts/$t/)"
        failed=1
    fi
    printf '%-18s %10s %9s %9s  %s\n' "$t" "${done_runs:-?}" "$secs" "${rate:-?}" "$result"
done
exit "$failed"
