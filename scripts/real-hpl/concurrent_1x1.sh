#!/usr/bin/env bash
# Do two cores of this machine each run HPL at the rate one core does alone?
# Runs single-rank HPL (1 x 1, no MPI traffic) once alone on core 0, then
# twice at the same time (one process pinned to each core), --repeats times,
# and prints each run's Gflops from HPL's wall time and from its CPU time
# (the line run_real_hpl.sh adds to HPL's output). If the concurrent runs'
# CPU-time rate is below the lone one's, the two cores slow each other through
# what they share (L3, memory bandwidth): hplsim's per-core kernel calibration,
# measured on one core alone, does not contain that. The wall-time rate also
# drops when other processes of a shared machine take the cores.
# Needs the xhpl run_real_hpl.sh built (netlib backend).
# Usage: scripts/real-hpl/concurrent_1x1.sh [--xhpl PATH] [--n N] [--nb NB] [--repeats K]
#   defaults: out/real-hpl/work/hpl-2.3/bin/hplsim/xhpl, N 4000, NB 128, K 3.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
xhpl="${repo_root}/out/real-hpl/work/hpl-2.3/bin/hplsim/xhpl"
n=4000
nb=128
repeats=3
while [ $# -gt 0 ]; do
  case "$1" in
    --xhpl) xhpl="$2"; shift 2 ;;
    --n) n="$2"; shift 2 ;;
    --nb) nb="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "concurrent_1x1.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "${xhpl}" ] || { echo "concurrent_1x1.sh: no xhpl at ${xhpl} (run run_real_hpl.sh --backend netlib first)" >&2; exit 2; }
# shellcheck source=scripts/real-hpl/hpl_dat.sh
source "${repo_root}/scripts/real-hpl/hpl_dat.sh"
work="$(mktemp -d)"
for d in a b; do
  mkdir -p "${work}/${d}"
  write_hpl_dat "${work}/${d}/HPL.dat" "${n}" "${nb}" 1 1 # run_real_hpl.sh's algorithm lines, 1 x 1 grid
done
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
run_one() { # dir core
  (cd "$1" && mpirun --allow-run-as-root --oversubscribe --bind-to none -np 1 \
    -x OPENBLAS_NUM_THREADS -x OMP_NUM_THREADS taskset -c "$2" "${xhpl}" 2>&1 |
    awk -v n="${n}" '/^W[RC][0-9][0-9]/ { g = $7 }
      /^HPLSIM max rank CPU time/ { c = (2.0 / 3.0 * n + 1.5) * n * n / $(NF - 1) / 1e9 }
      END { printf "%s,%.4e\n", g, c }')
}
# Idle share of all CPUs over 2 s, in whole percent (as run_real_hpl.sh).
idle_percent() {
  local a b total=0 i
  read -r -a a < /proc/stat; sleep 2; read -r -a b < /proc/stat
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  [ "${total}" -gt 0 ] && echo $((100 * (b[4] - a[4] + b[5] - a[5]) / total)) || echo 0
}
echo "mode,repeat,core,gflops,cpu_gflops,idle_percent_before"
for r in $(seq 1 "${repeats}"); do
  idle="$(idle_percent)"
  echo "alone,${r},0,$(run_one "${work}/a" 0),${idle}"
  idle="$(idle_percent)"
  run_one "${work}/a" 0 > "${work}/a.out" &
  pa=$!
  run_one "${work}/b" 1 > "${work}/b.out" &
  pb=$!
  wait "${pa}" "${pb}"
  echo "concurrent,${r},0,$(cat "${work}/a.out"),${idle}"
  echo "concurrent,${r},1,$(cat "${work}/b.out"),${idle}"
done
echo "loadavg after: $(cat /proc/loadavg)" >&2
rm -rf "${work}"
