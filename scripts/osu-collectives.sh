#!/usr/bin/env bash
# The OSU collective latency tests on MareNostrum 4 (scenarios/marenostrum4-osu.textproto,
# MPICH 3.2's selection table) at 4, 16 and 32 nodes of 48 ranks: allreduce, allgather,
# alltoall and bcast, two at a time. Writes each OSU table to OUT/mn4-<collective>-<nodes>n.txt
# and prints the Markdown summary of docs/collectives.md and the README.
# Usage: scripts/osu-collectives.sh [OUT (default docs/bench/osu-collectives)] [hplsim binary]
# Takes about 25 min on 2 cores (the 32-node allgather and alltoall: 1,536 ranks, p - 1 steps
# of every rank for the ring and pairwise algorithms).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/bench/osu-collectives}
bin=${2:-build/sim/hplsim}
mkdir -p "$out"
jobs=()
for n in 32 16 4; do
  for c in allgather alltoall allreduce bcast; do
    jobs+=("$c $n")
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c \
  '"$0" osu "$1" scenarios/marenostrum4-osu.textproto --nodes "$2" --ppn 48 > "'"$out"'/mn4-$1-$2n.txt"' "$bin"
python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
def table(c, n):
    rows = {}
    for line in open(f"{out}/mn4-{c}-{n}n.txt"):
        if line.strip() and not line.startswith("#"):
            size, us = line.split()
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
