#!/usr/bin/env bash
# Byte-compares the deterministic outputs (summary.json, steps.csv, phases.svg)
# of two hplsim binaries on the set a restructuring must not change:
# small-dragonfly in reference, fast and analytic mode, the 1-node Aurora run
# and a folded 4k-rank Aurora slice (~1 min per binary on 2 cores).
#   scripts/compare-outputs.sh OLD_HPLSIM NEW_HPLSIM [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2 work=${3:-$(mktemp -d)}
run_set() {
  local bin=$1 out=$2
  "$bin" run scenarios/small-dragonfly.textproto --mode reference --out "$out/sd-ref" >/dev/null
  "$bin" run scenarios/small-dragonfly.textproto --mode fast --out "$out/sd-fast" >/dev/null
  "$bin" run scenarios/small-dragonfly.textproto --mode analytic --out "$out/sd-an" >/dev/null
  "$bin" run scenarios/aurora-hpl-1node.textproto --out "$out/1node" >/dev/null
  "$bin" run scenarios/aurora-hpl-sc24.textproto --nodes 684 --P 57 --Q 72 --N 7829376 \
    --set options.fast.fold=ON --out "$out/4k" >/dev/null
}
run_set "$old" "$work/old"
run_set "$new" "$work/new"
status=0
for d in sd-ref sd-fast sd-an 1node 4k; do
  for f in summary.json steps.csv phases.svg; do
    if cmp -s "$work/old/$d/$f" "$work/new/$d/$f"; then
      echo "same      $d/$f"
    else
      echo "DIFFERENT $d/$f"
      status=1
    fi
  done
done
exit "$status"
