#!/usr/bin/env bash
# Full-scale flagship benchmark, two binaries side by side (the
# machine's speed cancels in the ratio). Runs each binary's flagship scenario
# (its own source tree's copy, so each runs the plan it ships with) REPEATS
# times, alternating, and prints per run and as medians: wall time, the memory
# of all hplsim processes together (the sum of their proportional set sizes,
# sampled every 0.2 s: forked window processes share the main process's pages,
# which PSS counts once), the run's own memory bound (stats.json), Rmax and its
# jackknife. Appends to bench-results/flagship.csv.
#   git worktree add /tmp/old <commit> && (cd /tmp/old && bash scripts/build.sh)
#   scripts/bench-flagship.sh /tmp/old/build/sim/hplsim /tmp/old build/sim/hplsim . [REPEATS] [SCENARIO]
# OLD_ARGS and NEW_ARGS add run arguments to either side, so one binary can be
# set against itself, e.g. quiet against system noise (docs/benchmarks.md):
#   OLD_ARGS=--sourced-only NEW_ARGS="--sourced-only --set machine.variability.noise.sources[0]..." \
#     scripts/bench-flagship.sh build/sim/hplsim . build/sim/hplsim . 3
set -euo pipefail
set -f # the extra arguments are split into words, their brackets are not globs
cd "$(dirname "$0")/.."
here=$PWD
old=$(realpath "$1") old_src=$(realpath "$2") new=$(realpath "$3") new_src=$(realpath "$4")
repeats=${5:-3}
scenario=${6:-scenarios/aurora-hpl-sc24.textproto}
work=$(mktemp -d)
mkdir -p bench-results
csv=$here/bench-results/flagship.csv
[ -f "$csv" ] || echo "date,binary,scenario,run,wall_s,pss_peak_mib,bound_mib,rmax_flops,jackknife" >"$csv"

# Peak of the summed PSS of the processes whose command line names $1.
watch_pss() {
  local tag=$1 peak=0
  while :; do
    local sum=0
    for p in $(pgrep -f -- "$tag" || true); do
      local kb
      kb=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
      sum=$((sum + ${kb:-0}))
    done
    [ "$sum" -gt "$peak" ] && peak=$sum && echo "$peak" >"$work/pss"
    sleep 0.2
  done
}

run_one() {
  local label=$1 bin=$2 src=$3 i=$4
  local out=$work/$label-$i
  echo 0 >"$work/pss"
  watch_pss "$out" &
  local watcher=$!
  local t0 t1
  t0=$(date +%s.%N)
  local extra
  if [ "$label" = old ]; then extra=${OLD_ARGS:-}; else extra=${NEW_ARGS:-}; fi
  # shellcheck disable=SC2086 # word splitting of the extra arguments is wanted
  (cd "$src" && "$bin" run "$scenario" $extra --out "$out" >"$out.log" 2>&1)
  t1=$(date +%s.%N)
  kill "$watcher" 2>/dev/null || true
  wait "$watcher" 2>/dev/null || true
  python3 - "$label" "$i" "$out" "$(echo "$t1 - $t0" | bc)" "$(cat "$work/pss")" "$csv" "$scenario" <<'EOF'
import json, sys, datetime
label, i, out, wall, pss_kb, csv, scenario = sys.argv[1:]
summary = json.load(open(f"{out}/summary.json"))
stats = json.load(open(f"{out}/stats.json"))
rmax = summary["rmax_flops_per_s"]
jk = summary.get("rmax_sampling_error_fraction")
bound = stats.get("peak_rss_bound_bytes", stats.get("peak_rss_bytes", 0)) / 2**20
row = [datetime.date.today().isoformat(), label, scenario, i, f"{float(wall):.1f}",
       f"{int(pss_kb) / 1024:.0f}", f"{bound:.0f}", f"{rmax:.6g}", "" if jk is None else f"{jk:.4f}"]
open(csv, "a").write(",".join(row) + "\n")
print(f"{label} run {i}: wall {float(wall):.1f} s, PSS peak {int(pss_kb) / 1024:.0f} MiB, "
      f"bound {bound:.0f} MiB, Rmax {rmax / 1e18:.4f} EF/s, jackknife "
      f"{'-' if jk is None else f'{100 * jk:.1f}%'}")
EOF
}

for i in $(seq 1 "$repeats"); do
  run_one old "$old" "$old_src" "$i"
  run_one new "$new" "$new_src" "$i"
done
python3 - "$csv" "$repeats" "$scenario" <<'EOF'
import csv, statistics, sys
path, repeats, scenario = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = [r for r in csv.DictReader(open(path)) if r["scenario"] == scenario][-2 * repeats:]
for label in ("old", "new"):
    mine = [r for r in rows if r["binary"] == label]
    med = lambda k: statistics.median(float(r[k]) for r in mine)
    print(f"{label} median of {len(mine)}: wall {med('wall_s'):.1f} s, PSS peak {med('pss_peak_mib'):.0f} MiB, "
          f"bound {med('bound_mib'):.0f} MiB, Rmax {med('rmax_flops') / 1e18:.4f} EF/s")
EOF
rm -rf "$work"
