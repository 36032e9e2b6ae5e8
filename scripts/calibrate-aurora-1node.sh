#!/usr/bin/env bash
# Fits the GPU DGEMM ceiling (gpu.gemm.fp64 peak_flops_per_s, max_efficiency 1)
# of models/calibrations/aurora-node.textproto to the single-node Aurora HPL
# figure, 139 TF/s [D] (1.012 EF/s / (9,234 nodes x 0.788), Aurora paper), by
# bisection on the simulated scenarios/aurora-hpl-1node.textproto.
# Prints each trial; writes nothing (copy the value into the calibration record).
# Usage: scripts/calibrate-aurora-1node.sh [hplsim] [lo_flops] [hi_flops]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/sim/hplsim}
lo=${2:-2.4e13}
hi=${3:-4.0e13}
target=139
tmp=$(mktemp -d)
for i in 1 2 3 4 5 6 7; do
  mid=$(python3 -c "print(($lo+$hi)/2)")
  python3 - "$mid" > "$tmp/cal.textproto" <<'PY'
import re, sys
s = open("models/calibrations/aurora-node.textproto").read()
rec = re.search(r'kernels \{\s*name: "gpu.gemm.fp64".*?\n\}', s, re.S).group(0)
new = re.sub(r'peak_flops_per_s: [0-9.e+-]+', 'peak_flops_per_s: ' + sys.argv[1], rec)
new = re.sub(r'max_efficiency: [0-9.e+-]+', 'max_efficiency: 1.0', new)
print(s.replace(rec, new))
PY
  "$bin" run scenarios/aurora-hpl-1node.textproto --set "machine.kernels_file=$tmp/cal.textproto" --out "$tmp/run" > /dev/null
  r=$(python3 -c "import json;print(json.load(open('$tmp/run/summary.json'))['rmax_tflops'])")
  echo "gpu.gemm.fp64 ceiling $mid flop/s -> 1-node Rmax $r TF/s"
  if python3 -c "import sys; sys.exit(0 if $r < $target else 1)"; then lo=$mid; else hi=$mid; fi
done
rm -rf "$tmp"
