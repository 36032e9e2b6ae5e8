#!/usr/bin/env bash
# The OSU collective latency tests on MareNostrum 4 (scenarios/marenostrum4-osu.textproto,
# MPICH 3.2's selection table) at 4, 16 and 32 nodes of 48 ranks: allreduce, allgather,
# alltoall and bcast, two at a time, on the quiet machine (--no-noise: the scenario's system
# noise is docs/collectives.md's "System noise" section). Writes each OSU table to OUT/mn4-<collective>-<nodes>n.txt
# and prints the Markdown summary of docs/collectives.md and the README.
# At 16 and 32 nodes the alltoall's scattered and pairwise sizes run with node-level flows (the
# default above 8 nodes; docs/collectives.md, "Node-level flows"): a flow per message would take
# SimGrid hours per size there.
# Usage: scripts/osu-collectives.sh [OUT (default docs/bench/osu-collectives)] [hplsim binary]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/bench/osu-collectives}
bin=${2:-build/sim/hplsim}
mkdir -p "$out"
run() { # collective nodes [extra flags...]
  local c=$1 n=$2
  shift 2
  "$bin" osu "$c" scenarios/marenostrum4-osu.textproto --nodes "$n" --ppn 48 --no-noise "$@"
}
export -f run
export bin
jobs=()
for n in 32 16 4; do
  for c in allgather allreduce bcast; do
    jobs+=("$c $n")
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c 'run "$0" "$1" > "'"$out"'/mn4-$0-$1n.txt"'
for n in 4 16 32; do
  run alltoall "$n" > "$out/mn4-alltoall-${n}n.txt"
done
python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
def table(c, n):
    rows = {}
    for line in open(f"{out}/mn4-{c}-{n}n.txt"):
        if line.strip() and not line.startswith("#"):
            size, us = line.split()[:2]
            rows[int(size)] = float(us)
    return rows
sizes = [8, 1024, 8192, 65536, 262144, 1048576]
print("| collective | nodes x ranks | " + " | ".join(f"{s:,} B" for s in sizes) + " |")
print("|---|---|" + "---:|" * len(sizes))
for c in ["allreduce", "bcast", "allgather", "alltoall"]:
    for n in [4, 16, 32]:
        t = table(c, n)
        cells = [f"{t[s]:,.1f}" if s in t else "-" for s in sizes]
        print(f"| {c} | {n} x 48 | " + " | ".join(cells) + " |")
PY
