#!/usr/bin/env bash
# Fast-mode validation suite (docs/fast-mode.md, "Validation against reference
# mode"): runs every scenario in reference mode (every message simulated) and in
# fast mode (step windows + integration), one simulation at a time, and writes a
# markdown table of the differences to stdout and to bench-results/validation.md:
#   - per scenario: ranks, P x Q, NB, look-ahead depth, panel steps, Rmax of
#     both modes and the error of fast mode, the steps fast mode simulated
#     (kept samples / all), the simulator's wall time of each mode;
#   - per scenario and phase: the phase totals of both modes and the error.
# The bar: |Rmax error| <= 1% and every phase total within 3%; the
# last column says whether a scenario meets it. Exit status 0 even when a
# scenario misses the bar (this is a measurement, not a test).
#
# Usage: scripts/validate-fast.sh [--bin HPLSIM] [--runs DIR] [--reuse] [SCENARIO.textproto ...]
#   --bin    hplsim binary (default build/sim/hplsim)
#   --runs   where the runs go (default hplsim-out/validate-fast/<scenario>/{reference,fast})
#   --reuse  do not rerun a mode whose summary.json is already there (rebuild the table only)
# Default scenarios: the df-*-d0 family at 504 and 1,008 ranks (depth 0),
# bench-1020 (depth 1, NB 384) and df-1056-nb512 (depth 1, NB 512), all on the
# 12-group dragonfly of bench-1020. Each reference run takes ~2-7 min on one core.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=build/sim/hplsim
runs=hplsim-out/validate-fast
reuse=0
scenarios=()
while [ $# -gt 0 ]; do
  case "$1" in
  --bin) bin=$2; shift 2 ;;
  --runs) runs=$2; shift 2 ;;
  --reuse) reuse=1; shift ;;
  -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
  -*) echo "validate-fast.sh: unknown option $1" >&2; exit 2 ;;
  *) scenarios+=("$1"); shift ;;
  esac
done
if [ ${#scenarios[@]} -eq 0 ]; then
  scenarios=(scenarios/validation/df-504-d0.textproto scenarios/validation/df-1008-d0.textproto
    scenarios/bench-1020.textproto scenarios/validation/df-1056-nb512.textproto)
fi
[ -x "$bin" ] || { echo "validate-fast.sh: no hplsim binary at $bin (build it or pass --bin)" >&2; exit 2; }

dirs=()
for sc in "${scenarios[@]}"; do
  name=$(basename "$sc" .textproto)
  for mode in reference fast; do
    out="$runs/$name/$mode"
    if [ "$reuse" = 1 ] && [ -f "$out/summary.json" ]; then
      echo "[validate-fast] $name $mode: reusing $out" >&2
      continue
    fi
    mkdir -p "$out"
    echo "[validate-fast] $name $mode ..." >&2
    # Windows and integration against reference mode: folding is measured on its own
    # (docs/fast-mode.md, point 2), so the fast runs keep every rank.
    fold=(); [ "$mode" = fast ] && fold=(--set options.fast.fold=OFF)
    "$bin" run "$sc" --mode "$mode" "${fold[@]}" --out "$out" > "$out/stdout.txt"
    echo "[validate-fast] $name $mode: $(grep -m1 '^Rmax' "$out/stdout.txt"), wall $(python3 -c \
      "import json;print('%.1f s' % json.load(open('$out/stats.json'))['wall_s'])")" >&2
  done
  dirs+=("$runs/$name")
done

mkdir -p bench-results
python3 - "${dirs[@]}" << 'EOF' | tee bench-results/validation.md
import csv, json, os, sys, datetime

RMAX_BAR, PHASE_BAR = 1.0, 3.0  # percent: the validation bar

def load(d):
    s = json.load(open(os.path.join(d, "summary.json")))
    st = json.load(open(os.path.join(d, "stats.json")))
    rows = list(csv.DictReader(open(os.path.join(d, "steps.csv"))))
    return s, st, rows

def err(ref, fast):
    return None if ref == 0 else 100.0 * (fast / ref - 1.0)

def fmt_err(e):
    return "n/a" if e is None else "%+.2f%%" % e

print("# Fast mode vs reference mode (scripts/validate-fast.sh, %s)\n" % datetime.date.today().isoformat())
print("Bar: Rmax within %.0f%%, every phase total within %.0f%%. Wall: the simulator's own wall time "
      "(stats.json). Simulated: steps fast mode kept from its windows / all steps (warm-up and "
      "cool-down steps of the windows are not counted).\n" % (RMAX_BAR, PHASE_BAR))
print("| scenario | ranks | P x Q | NB | depth | steps | Rmax ref TF/s | Rmax fast TF/s | error | "
      "simulated | wall ref s | wall fast s | activities fast/ref | bar |")
print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
phase_rows = []
for d in sys.argv[1:]:
    name = os.path.basename(d.rstrip("/"))
    r, rst, _ = load(os.path.join(d, "reference"))
    f, fst, frows = load(os.path.join(d, "fast"))
    e_rmax = err(r["rmax_tflops"], f["rmax_tflops"])
    phases = list(r["phase_totals_s"].keys())
    e_ph = {p: err(r["phase_totals_s"][p], f["phase_totals_s"][p]) for p in phases}
    ok = abs(e_rmax) <= RMAX_BAR and all(e is None or abs(e) <= PHASE_BAR for e in e_ph.values())
    kept = sum(1 for x in frows if x["how"] == "simulated")
    print("| %s | %d | %d x %d | %d | %d | %d | %.2f | %.2f | %s | %d/%d | %.0f | %.0f | %.2f | %s |" % (
        name, r["ranks"], r["p"], r["q"], r["nb"], r["depth"], r["steps"], r["rmax_tflops"],
        f["rmax_tflops"], fmt_err(e_rmax), kept, len(frows), rst["wall_s"], fst["wall_s"],
        fst["activities"] / rst["activities"], "ok" if ok else "MISSED"))
    phase_rows.append((name, phases, r["phase_totals_s"], f["phase_totals_s"], e_ph))

print("\nPhase totals (s, sum over steps of the slowest rank's time): reference / fast (error)\n")
phases = phase_rows[0][1] if phase_rows else []
print("| scenario | " + " | ".join(phases) + " |")
print("|---|" + "---:|" * len(phases))
for name, _, pr, pf, e in phase_rows:
    print("| %s | " % name + " | ".join("%.4g / %.4g (%s)" % (pr[p], pf[p], fmt_err(e[p])) for p in phases) + " |")
EOF
