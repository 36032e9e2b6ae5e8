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
work="$(mktemp -d)"
for d in a b; do
  mkdir -p "${work}/${d}"
  # HPL.dat: run_real_hpl.sh's layout and algorithm lines, 1 x 1 grid.
  cat > "${work}/${d}/HPL.dat" <<DAT
HPLinpack benchmark input file (scripts/real-hpl/concurrent_1x1.sh)
hplsim
HPL.out      output file name (if any)
6            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
${n}         Ns
1            # of NBs
${nb}        NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
1            Ps
1            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
2            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
DAT
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
