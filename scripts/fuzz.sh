#!/usr/bin/env bash
# Builds the scenario-loader fuzz target with clang into ./build-fuzz
# (option HPLSIM_FUZZ: libFuzzer + ASan + UBSan) and fuzzes it for at most RUNS
# inputs (default 100000) and MAX_TIME seconds (default 600).
#   scripts/fuzz.sh [RUNS]      env: MAX_TIME, MAX_LEN (default 8192), JOBS, CXX (default clang++-14)
# New inputs go to build-fuzz/fuzz-corpus (the committed seed corpus
# tests/fuzz/corpus is only read); crashes go to build-fuzz/fuzz-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-100000}
MAX_TIME=${MAX_TIME:-600}
MAX_LEN=${MAX_LEN:-8192}
JOBS=${JOBS:-$(nproc)}
CXX_BIN=${CXX:-clang++-14}

cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER="$CXX_BIN" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DHPLSIM_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"$JOBS" --target scenario_fuzz

# The regression test first: every committed input once.
ctest --test-dir build-fuzz -L fuzz --output-on-failure

mkdir -p build-fuzz/fuzz-corpus build-fuzz/fuzz-artifacts
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
log=build-fuzz/fuzz.log
start=$(date +%s)
set +e
build-fuzz/tests/fuzz/scenario_fuzz -runs="$RUNS" -max_total_time="$MAX_TIME" -max_len="$MAX_LEN" \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -dict=tests/fuzz/scenario.dict \
  -artifact_prefix=build-fuzz/fuzz-artifacts/ \
  build-fuzz/fuzz-corpus tests/fuzz/corpus >"$log" 2>&1
status=$?
set -e
# libFuzzer's progress lines are in the log; show the rest (findings, stats).
grep -vE '^#[0-9]|^[[:space:]]+NEW_FUNC|# Uses: ' "$log" | tail -n 60
wall=$(( $(date +%s) - start ))
executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
echo "fuzz: ${executed:-?} inputs executed in ${wall} s wall (limit ${RUNS} runs / ${MAX_TIME} s), exit ${status}"
ls build-fuzz/fuzz-artifacts/ | sed 's/^/fuzz: artifact: /'
exit "$status"
