#!/usr/bin/env bash
# A flap's cost from a folded fault window against the unfolded one
# (docs/faults.md, "Flaps in fast mode", point 6). Each flap is placed 0.1 s
# into the same step of each mode's own fault-free curve: the fold moves the
# step times, so the same clock time would land on another step, at another
# point of it. Two Aurora slices (64 nodes, and the 1,020-rank slice of
# docs/fast-mode.md), fast mode, 2 windows of 2 measured steps for the
# fault-free curve. Prints a markdown table. ~5 min on 2 cores.
#   scripts/flap-fold-check.sh [HPLSIM] [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
hplsim=$(realpath "${1:-build/sim/hplsim}")
out=${2:-/tmp/hplsim-flap-fold-check}
mkdir -p "$out"

plan="--set options.fast.initial_windows=2 --set options.fast.max_windows=2 --set options.fast.measured_steps=2"
declare -A slice=(
  [64]="scenarios/aurora-hpl-sc24.textproto --nodes 64 --P 16 --Q 24 --N 2394624 $plan"
  [1020]="scenarios/aurora-hpl-sc24.textproto --sourced-only --nodes 170 --P 30 --Q 34 --N 3903360 $plan"
)
# slice:step:link class:index:flap seconds (a NIC_PORT index is node * 8 + NIC;
# NICs 0 and 4 carry the swaps; the 64 nodes are dragonfly group 0, whose
# SWITCH_LOCAL links come first)
cases=(
  64:36:NIC_PORT:80:1 64:36:NIC_PORT:64:1 64:36:NIC_PORT:68:1 64:300:NIC_PORT:84:1 64:1000:NIC_PORT:164:1
  64:2500:NIC_PORT:36:1 64:4000:NIC_PORT:324:1 64:1500:NIC_PORT:268:5
  1020:47:NIC_PORT:80:1 1020:1310:NIC_PORT:960:1 1020:4354:NIC_PORT:4:1
  64:36:SWITCH_LOCAL:0:1 64:36:SWITCH_LOCAL:5:1 64:36:SWITCH_LOCAL:17:1 64:36:SWITCH_LOCAL:100:1
  64:36:SWITCH_LOCAL:300:1
)

fault_free() { # slice fold -> its directory
  local dir=$out/base-$1-$2
  # shellcheck disable=SC2086
  [ -f "$dir/steps.csv" ] || "$hplsim" run ${slice[$1]} --set options.fast.fold="$2" --out "$dir" >/dev/null
  echo "$dir"
}

flapped() { # slice fold step class index seconds -> its directory
  local base dir start
  base=$(fault_free "$1" "$2")
  dir=$out/flap-$1-$2-$3-$4-$5-$6
  start=$(awk -F, -v k="$3" 'NR == k + 2 { printf "%.9f", $3 + 0.1 }' "$base/steps.csv")
  if [ ! -f "$dir/summary.json" ]; then
    # shellcheck disable=SC2086
    "$hplsim" run ${slice[$1]} --set options.fast.fold="$2" \
      --set "faults.link_flaps[0].link.link_class=$4" --set "faults.link_flaps[0].link.index=$5" \
      --set "faults.link_flaps[0].start_s=$start" --set "faults.link_flaps[0].duration_s=$6" \
      --out "$dir" >/dev/null
  fi
  echo "$dir"
}

echo "| slice | step | link | flap | messages failed (folded / unfolded) | delay folded | delay unfolded | difference |"
echo "|---|---:|---|---:|---|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS=: read -r s k class idx secs <<<"$c"
  on=$(flapped "$s" ON "$k" "$class" "$idx" "$secs")
  off=$(flapped "$s" OFF "$k" "$class" "$idx" "$secs")
  python3 - "$on/summary.json" "$off/summary.json" "$s" "$k" "$class" "$idx" "$secs" <<'EOF'
import json, sys
on, off = (json.load(open(p))["faults"] for p in sys.argv[1:3])
s, k, cls, idx, secs = sys.argv[3:]
name = "64 nodes" if s == "64" else "1,020 ranks"
d_on, d_off = on["delay_s"], off["delay_s"]
diff = f"{100 * (d_on - d_off) / d_off:+.1f}%" if d_off > 0 else ("0" if d_on == 0 else "-")
print(f"| {name} | {int(k):,} | {cls} {int(idx):,} | {secs} s | {on['messages_failed']} / {off['messages_failed']} "
      f"| {d_on:.4f} s | {d_off:.4f} s | {diff} |")
EOF
done
