#!/usr/bin/env bash
# Fits the one fitted parameter of the Aurora model (docs/at-scale.md,
# "The fitted parameter"): machine.variability.FIELD, by default
# node_gpu_step_cv (a per-node, per-step factor on GPU kernel times;
# kernel_jitter_cv, the per-call jitter, is the alternative), bisected until
# scenarios/aurora-hpl-sc24 gives the published SC24 HPL Rmax (1.012 EF/s, Aurora paper arXiv
# 2604.09517) within TOL. Only that figure is used. Prints the value to write
# into models/calibrations/aurora-at-scale.textproto (FIELD) and
# the runs it made. Each run is the SC24 scenario in fast mode (~1-2 min on one
# core); 6-8 runs. The other cases are checked by scripts/at-scale-check.sh.
# The other fields of the at-scale file are set to 0 in every probe, so the
# fit is of FIELD alone.
# FIELD may be any machine.variability field, e.g. a noise source's rate
# (docs/noise.md); EXTRA holds further --set arguments every probe gets (the
# source's scope and length), e.g.
#   EXTRA="--set machine.variability.noise.sources[0].scope=CORE
#          --set machine.variability.noise.sources[0].poisson.length_s=1e-3" \
#     scripts/fit-at-scale.sh build/sim/hplsim /tmp/fit 0.3 1.0 0.003 noise.sources[0].poisson.rate_per_s
#   scripts/fit-at-scale.sh [HPLSIM] [OUT] [LO] [HI] [TOL] [FIELD]
set -euo pipefail
set -f # EXTRA is split into words, its brackets are not globs
cd "$(dirname "$0")/.."
hplsim=$(realpath "${1:-build/sim/hplsim}")
out=${2:-/tmp/hplsim-fit-at-scale}
lo=${3:-0.0}
hi=${4:-0.3}
tol=${5:-0.003}
field=${6:-node_gpu_step_cv}
target=1.012e18
# The calibrated model: the scenario names the at-scale file (whose fields each probe overrides).
atscale=machine.variability_file=../models/calibrations/aurora-at-scale.textproto  # as the scenario has it
mkdir -p "$out"

rmax_at() { # value -> Rmax (flop/s) of aurora-hpl-sc24 with FIELD at that value
  local dir=$out/${field//[^A-Za-z0-9_.]/_}-$1
  if [ ! -f "$dir/summary.json" ]; then
    "$hplsim" run scenarios/aurora-hpl-sc24.textproto --set "$atscale" \
      --set machine.variability.kernel_jitter_cv=0 --set machine.variability.node_gpu_step_cv=0 \
      --set "machine.variability.$field=$1" ${EXTRA:-} \
      --out "$dir" >"$dir.log" 2>&1 || { echo "FAILED at cv=$1 (see $dir.log)" >&2; exit 1; }
  fi
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['rmax_flops_per_s'])" "$dir/summary.json"
}

# Rmax falls as the value grows (a step waits for its slowest node or rank): bisect.
for _ in $(seq 1 12); do
  mid=$(python3 -c "print(f'{($lo + $hi) / 2:.4f}')")
  r=$(rmax_at "$mid")
  err=$(python3 -c "print($r / $target - 1)")
  printf '%s %s -> Rmax %.4g EF/s (%+.2f%%)\n' "$field" "$mid" "$(python3 -c "print($r / 1e18)")" \
    "$(python3 -c "print(100 * $err)")"
  if python3 -c "import sys; sys.exit(0 if abs($err) <= $tol else 1)"; then
    echo "fitted: $field: $mid  # SC24 HPL $(python3 -c "print(f'{$r / 1e18:.4f}')") EF/s against 1.012"
    exit 0
  fi
  if python3 -c "import sys; sys.exit(0 if $err > 0 else 1)"; then lo=$mid; else hi=$mid; fi
done
echo "no fit within $tol after 12 bisections (last bracket $lo .. $hi)" >&2
exit 1
