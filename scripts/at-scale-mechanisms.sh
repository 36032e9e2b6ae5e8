#!/usr/bin/env bash
# The at-scale mechanisms study (docs/at-scale.md): each sourced
# mechanism alone, then all together, on the three Aurora scenarios of the bar.
# Every mechanism is a scenario option, switched here with --set:
#   spread  GPU-to-GPU rate spread, Sinha et al. SC22   machine.variability.gpu_rate_cv
#   jitter  temporal kernel noise, Cornebize et al.     machine.variability.kernel_jitter_cv
#   gpu     the production GPU setting, ALCF 2026-01-12 machine.kernels_file
# "none" switches all three off (the shipped scenarios have spread on). No set
# uses the fitted parameter of models/calibrations/aurora-at-scale.textproto:
# these are sourced-only runs.
# Prints a markdown table (Rmax per scenario and mechanism set) and writes each
# run's outputs under OUT (default /tmp/hplsim-at-scale). ~15-25 min on 2 cores.
#   scripts/at-scale-mechanisms.sh [HPLSIM] [OUT] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
hplsim=$(realpath "${1:-build/sim/hplsim}")
out=${2:-/tmp/hplsim-at-scale}
jobs=${3:-2}
mkdir -p "$out"

# Mechanism values and their sources: the scenarios' and calibration files' comments.
spread_on=machine.variability.gpu_rate_cv=0.015  # Sinha et al. SC22, as in the Aurora scenarios
spread_off=machine.variability.gpu_rate_cv=0
jitter_on=machine.variability.kernel_jitter_cv=0.03 # Cornebize et al.: temporal DGEMM CV ~3%
jitter_off=machine.variability.kernel_jitter_cv=0
gpu_on=machine.kernels_file=../models/calibrations/aurora-node-gpu1500.textproto
gpu_off=machine.kernels_file=../models/calibrations/aurora-node.textproto

sets=(none spread jitter gpu all)
# SCENARIOS="aurora-mxp-sc24" runs (and tabulates) a subset.
read -r -a scenarios <<<"${SCENARIOS:-aurora-hpl-1node aurora-hpl-sc24 aurora-mxp-sc24}"

flags_for() { # mechanism set -> --set flags
  local s=$1 sp=$spread_off ji=$jitter_off gp=$gpu_off
  case $s in
    spread) sp=$spread_on ;;
    jitter) ji=$jitter_on ;;
    gpu) gp=$gpu_on ;;
    all) sp=$spread_on ji=$jitter_on gp=$gpu_on ;;
    none) ;;
    *) echo "unknown mechanism set $s" >&2; return 2 ;;
  esac
  # --sourced-only: the shipped scenarios name the at-scale file (the fitted parameter); these runs must not
  echo "--sourced-only --set $sp --set $ji --set $gp"
}

run_one() { # scenario set
  local dir=$out/$1-$2
  [ -f "$dir/summary.json" ] && return 0
  # shellcheck disable=SC2046
  "$hplsim" run "scenarios/$1.textproto" $(flags_for "$2") --out "$dir" >"$dir.log" 2>&1 ||
    { echo "FAILED: $1 $2 (see $dir.log)" >&2; return 1; }
}

pids=()
for sc in "${scenarios[@]}"; do
  for s in "${sets[@]}"; do
    run_one "$sc" "$s" &
    pids+=($!)
    if [ "${#pids[@]}" -ge "$jobs" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  done
done
for p in "${pids[@]}"; do wait "$p"; done

python3 - "$out" "${scenarios[*]}" "${sets[*]}" <<'EOF'
import json, sys
out, scenarios, sets = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
published = {"aurora-hpl-1node": 139e12, "aurora-hpl-sc24": 1.012e18, "aurora-mxp-sc24": 11.64e18}
print("| mechanisms | " + " | ".join(scenarios) + " |")
print("|---|" + "---:|" * len(scenarios))
for s in sets:
    cells = []
    for sc in scenarios:
        d = json.load(open(f"{out}/{sc}-{s}/summary.json"))
        r = d["rmax_flops_per_s"]
        unit, scale = ("TF/s", 1e12) if r < 1e16 else ("EF/s", 1e18)
        cells.append(f"{r / scale:.4g} {unit} ({100 * (r / published[sc] - 1):+.1f}%)")
    print(f"| {s} | " + " | ".join(cells) + " |")
print("\npublished: " + ", ".join(f"{k} {v:.4g}" for k, v in published.items()))
EOF
