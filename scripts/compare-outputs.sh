#!/usr/bin/env bash
# Byte-compares the deterministic outputs (summary.json, steps.csv, phases.svg)
# of two hplsim binaries on the set a restructuring must not change:
# small-dragonfly in reference, fast and analytic mode, the 1-node Aurora run
# and a folded 4k-rank Aurora slice (~1 min per binary on 2 cores). Each
# binary runs the scenarios of its own source tree (an older binary may not
# know fields the newer scenarios set), e.g. for the commit before a change:
#   git worktree add /tmp/old <commit> && (cd /tmp/old && bash scripts/build.sh)
#   scripts/compare-outputs.sh /tmp/old/build/sim/hplsim /tmp/old build/sim/hplsim
# Exit 0 when every file is identical.
#   scripts/compare-outputs.sh OLD_HPLSIM OLD_SOURCE_TREE NEW_HPLSIM [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1") old_src=$(realpath "$2") new=$(realpath "$3") work=$(realpath -m "${4:-$(mktemp -d)}")
here=$PWD
run_set() {
  local bin=$1 out=$2 src=$3
  cd "$src"
  "$bin" run scenarios/small-dragonfly.textproto --mode reference --out "$out/sd-ref" >/dev/null
  "$bin" run scenarios/small-dragonfly.textproto --mode fast --out "$out/sd-fast" >/dev/null
  "$bin" run scenarios/small-dragonfly.textproto --mode analytic --out "$out/sd-an" >/dev/null
  "$bin" run scenarios/aurora-hpl-1node.textproto --out "$out/1node" >/dev/null
  "$bin" run scenarios/aurora-hpl-sc24.textproto --nodes 684 --P 57 --Q 72 --N 7829376 \
    --set options.fast.fold=ON --out "$out/4k" >/dev/null
  cd "$here"
}
run_set "$old" "$work/old" "$old_src"
run_set "$new" "$work/new" "$here"
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
