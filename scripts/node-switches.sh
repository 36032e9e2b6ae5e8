#!/usr/bin/env bash
# The effect of the Aurora node and NIC choices (Aurora paper, arXiv
# 2604.09517, Table II; docs/sources.md) on a 16-node Aurora slice (96 ranks, 8 x 12, NB 384, N sized as
# the SC24 run's memory per GPU), fast mode. Prints a Markdown table.
# Usage: scripts/node-switches.sh [hplsim binary]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/sim/hplsim}
base=(run scenarios/aurora-hpl-sc24.textproto --mode fast --nodes 16 --P 8 --Q 12 --N 1197312)
declare -a names=("baseline (Aurora's choices)" "copy overlap off" "NICs misplaced across sockets" "GPU-aware MPI on" "NIC mapping hashed")
declare -a sets=("" "--set machine.node.copy_overlap=false" "--set machine.placement.affinity=MISPLACED" \
  "--set machine.placement.gpu_aware_mpi=true" "--set machine.placement.nic_mapping=HASHED")
echo "| switch | Rmax (TF/s) | change vs baseline |"
echo "|---|---|---|"
ref=""
for i in "${!names[@]}"; do
  out=$(mktemp -d)
  # shellcheck disable=SC2086
  "$bin" "${base[@]}" ${sets[$i]} --out "$out" > /dev/null
  r=$(python3 -c "import json;print(json.load(open('$out/summary.json'))['rmax_tflops'])")
  [ -z "$ref" ] && ref=$r
  printf '| %s | %.1f | %+.2f%% |\n' "${names[$i]}" "$r" "$(python3 -c "print(100*($r/$ref-1))")"
  rm -rf "$out"
done
