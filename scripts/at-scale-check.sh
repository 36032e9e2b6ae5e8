#!/usr/bin/env bash
# The at-scale bar on one set of calibration files (docs/at-scale.md): the four
# Aurora cases as shipped ("calibrated": the scenarios name the at-scale file,
# the fitted parameter) and with --sourced-only ("sourced only": no fitted
# parameter),
# plus HPL-MxP's profile (its 1%-of-steps rates over the first quarter of the
# steps, step 0 aside, against their maximum) and the flagship's crossover
# against its rate drop (summary.json). Prints a markdown table.
# ~25 min on 2 cores (the four HPL-MxP runs take ~5 min each).
#   scripts/at-scale-check.sh [HPLSIM] [OUT] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
hplsim=$(realpath "${1:-build/sim/hplsim}")
out=${2:-/tmp/hplsim-at-scale-check}
jobs=${3:-2}
mkdir -p "$out"

noamx="--set machine.node.amx=false --set machine.kernels_file=../models/calibrations/aurora-node-noamx.textproto"
sourced="--sourced-only"
cases=(
  "hpl1:aurora-hpl-1node:"
  "hpl:aurora-hpl-sc24:"
  "mxp:aurora-mxp-sc24:"
  "mxp-noamx:aurora-mxp-sc24:$noamx"
)

run_one() { # label scenario flags
  local dir=$out/$1
  [ -f "$dir/summary.json" ] && return 0
  # shellcheck disable=SC2086
  "$hplsim" run "scenarios/$2.textproto" $3 --out "$dir" >"$dir.log" 2>&1 ||
    { echo "FAILED: $1 (see $dir.log)" >&2; return 1; }
}

pids=()
for model in calibrated sourced; do
  extra=""
  [ "$model" = sourced ] && extra=$sourced
  for c in "${cases[@]}"; do
    IFS=: read -r label scenario flags <<<"$c"
    run_one "$model-$label" "$scenario" "$flags $extra" &
    pids+=($!)
    if [ "${#pids[@]}" -ge "$jobs" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  done
done
for p in "${pids[@]}"; do wait "$p"; done

python3 - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
def summary(d): return json.load(open(f"{out}/{d}/summary.json"))
def rmax(d): return summary(d)["rmax_flops_per_s"]
def plateau(d):
    # 1%-of-steps bins (flops / time of the bin) over the first quarter, step 0 aside.
    rows = [r for r in csv.DictReader(open(f"{out}/{d}/steps.csv")) if float(r["flops"]) > 0]
    rows = [r for r in rows if int(r["step"]) < summary(d)["steps"]]
    n = len(rows); width = max(1, n // 100); rates = []
    for b in range(1, n // 4, width):
        chunk = rows[b:min(b + width, n // 4)]
        rates.append(sum(float(r["flops"]) for r in chunk) / sum(float(r["step_s"]) for r in chunk))
    return min(rates) / max(rates)
pub = {"hpl1": (139e12, 0.05), "hpl": (1.012e18, 0.03), "mxp": (11.64e18, 0.05)}
def cell(model, label):
    r = rmax(f"{model}-{label}"); p, tol = pub[label]
    unit, scale = ("TF/s", 1e12) if r < 1e16 else ("EF/s", 1e18)
    ok = "pass" if abs(r / p - 1) <= tol else "FAIL"
    return f"{r / scale:.4g} {unit} ({100 * (r / p - 1):+.1f}%, {ok})"
print("| case | bar | calibrated (as shipped: the fitted parameter) | sourced only (--sourced-only) |")
print("|---|---|---:|---:|")
print("| aurora-hpl-1node | 139 TF/s +-5% | " + cell("calibrated", "hpl1") + " | " + cell("sourced", "hpl1") + " |")
print("| aurora-hpl-sc24 | 1.012 EF/s +-3% (the fit's target) | " + cell("calibrated", "hpl") + " | " + cell("sourced", "hpl") + " |")
print("| aurora-mxp-sc24 | 11.64 EF/s +-5% | " + cell("calibrated", "mxp") + " | " + cell("sourced", "mxp") + " |")
ratio = lambda m: rmax(f"{m}-mxp") / rmax(f"{m}-mxp-noamx")
ok = lambda x: "pass" if 1.05 <= x <= 1.15 else "FAIL"
print(f"| MxP AMX on / off | 1.05 - 1.15 | {ratio('calibrated'):.3f} ({ok(ratio('calibrated'))}) | {ratio('sourced'):.3f} ({ok(ratio('sourced'))}) |")
pl = lambda m: plateau(f"{m}-mxp")
okp = lambda x: "pass" if x >= 0.9 else "FAIL"
print(f"| MxP first quarter: min / max of 1%-of-steps rates | >= 0.90 | {pl('calibrated'):.3f} ({okp(pl('calibrated'))}) | {pl('sourced'):.3f} ({okp(pl('sourced'))}) |")
def xo(m):
    d = summary(f"{m}-hpl"); c, r = d.get("crossover_fraction"), d.get("rate_drop_fraction")
    if c is None or r is None:  # report.cpp writes null when the run has no such point
        return f"{c if c is None else f'{c:.3f}'} / {r if r is None else f'{r:.3f}'} (FAIL: no crossover or no rate drop)"
    return f"{c:.3f} / {r:.3f} ({'pass' if abs(c - r) <= 0.05 else 'FAIL'})"
print(f"| flagship crossover / rate drop, fraction of N | within 0.05 | {xo('calibrated')} | {xo('sourced')} |")
PY
