#!/usr/bin/env bash
# Simulator scaling benchmark: wall time and peak memory of fast mode
# (and reference mode where it fits in the time) on the Aurora machine at
# about 1k, 4k, 16k and 55k ranks (6 ranks per node, NB 384, N scaled with the
# node count so that the memory per GPU matches the SC24 run). Appends rows to
# bench-results/scaling.csv. Usage: scripts/bench-scaling.sh [hplsim] [--with-reference]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/sim/hplsim}
with_ref=${2:-}
mkdir -p bench-results
[ -f bench-results/scaling.csv ] || echo "date,mode,nodes,ranks,p,q,n,steps,wall_s,peak_rss_kib,rmax_tflops" > bench-results/scaling.csv
# nodes P Q [--set ...]: P*Q = 6*nodes, P:Q about 1:2 as in the SC24 run (162 x 342).
# The last one is a machine larger than Aurora: 20,000 nodes on the same
# dragonfly family with 320 groups of Aurora's 64 nodes.
for cfg in "170 30 34" "684 57 72" "2736 114 144" "9234 162 342" \
  "20000 240 500 --set machine.topology.dragonfly.groups=320 --set machine.topology.nodes=20480"; do
  read -r nodes p q extra <<< "$cfg"
  # N^2 * 8 B / (6 nodes' GPUs) = 119.5 GB per GPU as in SC24, rounded to NB.
  n=$(python3 -c "import math;print(int(math.sqrt(6*$nodes*119.5e9/8))//384*384)")
  modes="fast"
  [ "$with_ref" = "--with-reference" ] && [ "$nodes" -le 170 ] && modes="fast reference"
  for mode in $modes; do
    out=$(mktemp -d)
    /usr/bin/time -f '%e %M' -o "$out/time" "$bin" run scenarios/aurora-hpl-sc24.textproto --mode "$mode" \
      --nodes "$nodes" --P "$p" --Q "$q" --N "$n" $extra --out "$out/run" > /dev/null
    read -r wall rss_kb < "$out/time"
    # Fast mode's window processes: the main process plus the processes
    # running at once, each at the largest one's peak (stats.json; an upper
    # bound, as they share the main process's pages until they write them).
    bound_kb=$(python3 -c "import json;print(int(json.load(open('$out/run/stats.json')).get('peak_rss_bound_bytes',0))//1024)")
    [ "$bound_kb" -gt "$rss_kb" ] && rss_kb=$bound_kb
    steps=$(python3 -c "import json;print(json.load(open('$out/run/summary.json'))['steps'])")
    rmax=$(python3 -c "import json;print(json.load(open('$out/run/summary.json'))['rmax_tflops'])")
    echo "$mode nodes=$nodes ranks=$((6*nodes)) N=$n steps=$steps wall=${wall}s rss=$((rss_kb/1024))MiB rmax=${rmax}TF/s"
    echo "$(date -u +%F),$mode,$nodes,$((6*nodes)),$p,$q,$n,$steps,$wall,$rss_kb,$rmax" >> bench-results/scaling.csv
    rm -rf "$out"
  done
done
