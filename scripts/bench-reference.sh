#!/usr/bin/env bash
# Reference-mode benchmark: a 1,020-rank HPL (170 nodes x 6
# ranks, P x Q = 30 x 34, NB 384, N 96,000 = 250 panel steps), every pivot
# exchange, broadcast hop and swap message simulated. Prints wall time, CPU
# time, peak RSS and simulated activities per second, and appends a CSV row to
# bench-results/reference.csv. Usage: scripts/bench-reference.sh [hplsim binary]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/sim/hplsim}
mkdir -p bench-results
out=$(mktemp -d)
/usr/bin/time -f '%e %U %M' -o "$out/time" "$bin" run scenarios/bench-1020.textproto --mode reference \
  --out "$out/run" > "$out/stdout"
read -r wall user rss_kb < "$out/time"
acts=$(python3 -c "import json;print(json.load(open('$out/run/stats.json'))['activities'])")
steps=$(python3 -c "import json;print(json.load(open('$out/run/summary.json'))['steps'])")
rmax=$(python3 -c "import json;print(json.load(open('$out/run/summary.json'))['rmax_tflops'])")
printf 'ranks 1020, steps %s: wall %.1f s, cpu %.1f s, peak RSS %.0f MiB, %s activities, %.3g activities/s (cpu), Rmax %.2f TF/s\n' \
  "$steps" "$wall" "$user" "$(awk "BEGIN{print $rss_kb/1024}")" "$acts" "$(awk "BEGIN{print $acts/$user}")" "$rmax"
[ -f bench-results/reference.csv ] || echo "date,ranks,steps,wall_s,cpu_s,peak_rss_kib,activities,rmax_tflops" > bench-results/reference.csv
echo "$(date -u +%F),1020,$steps,$wall,$user,$rss_kb,$acts,$rmax" >> bench-results/reference.csv
rm -rf "$out"
