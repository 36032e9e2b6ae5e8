#!/usr/bin/env bash
# Sets hplsim's predictions beside real HPL runs on this machine.
# Reads the CSV(s) run_real_hpl.sh wrote (--real, repeatable: the runs of
# several sweeps are pooled), keeps the best (highest Gflops) run of each
# configuration (HPL practice: the best of the repeats), runs
#   hplsim run SCENARIO --mode reference --nodes 1 --ppn P*Q --N N --NB NB --P P --Q Q
# for it, and prints a table: config, real Gflops, predicted Gflops, error %
# (error = (predicted - real) / real), also written as CSV (--out), with the
# number of runs pooled and the machine's idle CPU share before the best run
# (idle%: near 100 = the box was quiet, near 0 = shared with other work).
# When the real CSV has HPL's CPU time (cpu_gflops, netlib backend), the table
# also sets the prediction beside the best CPU-time rate: HPL's flops over the
# largest CPU time a rank spent in HPL_pdgesv, which leaves out the time the
# scheduler gave other processes of a shared machine (run_real_hpl.sh).
#
# Usage:
#   scripts/real-hpl/compare.sh [--real CSV]... [--scenario FILE] [--hplsim BIN]
#       [--out CSV] [--work DIR] [--set FIELD=VALUE]...
# Defaults: --real out/real-hpl/real_hpl.csv,
#   --scenario scenarios/workstation-cpu.textproto, --hplsim build/sim/hplsim
#   (or build-ws/sim/hplsim when build/ has none), --out out/real-hpl/compare.csv.
# --set is passed to every hplsim run (e.g. --set machine.kernels_file=...).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
real_csvs=()
scenario="${repo_root}/scenarios/workstation-cpu.textproto"
hplsim=""
out_csv="${repo_root}/out/real-hpl/compare.csv"
work_dir="${repo_root}/out/real-hpl/sim"
sets=()

die() { echo "compare.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --real) real_csvs+=("$2"); shift 2 ;;
    --scenario) scenario="$2"; shift 2 ;;
    --hplsim) hplsim="$2"; shift 2 ;;
    --out) out_csv="$2"; shift 2 ;;
    --work) work_dir="$2"; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
if [ -z "${hplsim}" ]; then
  for b in build build-ws; do
    if [ -x "${repo_root}/${b}/sim/hplsim" ]; then hplsim="${repo_root}/${b}/sim/hplsim"; break; fi
  done
fi
if [ -z "${hplsim}" ] || [ ! -x "${hplsim}" ]; then die "no hplsim binary (build it, or pass --hplsim BIN)"; fi
[ ${#real_csvs[@]} -gt 0 ] || real_csvs=("${repo_root}/out/real-hpl/real_hpl.csv")
for f in "${real_csvs[@]}"; do
  [ -f "${f}" ] || die "no real-HPL CSV '${f}' (run scripts/real-hpl/run_real_hpl.sh first)"
  head -1 "${f}" | grep -q '^backend,n,nb,p,q,ranks,repeat,time_s,gflops,' ||
    die "'${f}' does not start with run_real_hpl.sh's header"
done
[ -f "${scenario}" ] || die "no scenario '${scenario}'"
mkdir -p "${work_dir}" "$(dirname "${out_csv}")"

# Best run per (backend, n, nb, p, q): highest Gflops among runs whose
# residual check passed, and (separately) highest CPU-time Gflops ("-" if none).
# Output lines: backend n nb p q ranks gflops time_s runs cpu_gflops idle_percent
best="$(awk -F, 'FNR > 1 && $9 != "" && $10 == "true" {
    key = $1 FS $2 FS $3 FS $4 FS $5 FS $6
    runs[key]++
    if (!(key in g) || $9 + 0 > g[key] + 0) { g[key] = $9; t[key] = $8; idle[key] = ($12 == "" ? "-" : $12) }
    if ($14 != "" && (!(key in c) || $14 + 0 > c[key] + 0)) c[key] = $14
    if (!(key in order)) { order[key] = ++count; keys[count] = key }
  }
  END { for (i = 1; i <= count; i++) { k = keys[i]; gsub(FS, " ", k)
    print k, g[keys[i]], t[keys[i]], runs[keys[i]], (keys[i] in c) ? c[keys[i]] : "-", idle[keys[i]] } }' \
  "${real_csvs[@]}")"
[ -n "${best}" ] || die "${real_csvs[*]}: no passed runs"

json_number() { # file key
  sed -n "s/^ *\"$2\": *\([-+0-9.eE]*\),\{0,1\}$/\1/p" "$1" | head -1
}

echo "config,ranks,real_runs,idle_percent,real_gflops,real_time_s,predicted_gflops,predicted_time_s,error_percent,real_cpu_gflops,cpu_error_percent" > "${out_csv}"
printf '%-26s %4s %5s %8s %8s %8s %8s %7s %8s %7s\n' "config" "runs" "idle%" "real_GF" "real_s" "pred_GF" "pred_s" "err_%" "cpu_GF" "cpu_err%"
while read -r backend n nb p q ranks gflops time_s runs cpu_gflops idle; do
  name="N${n}-NB${nb}-${p}x${q}"
  dir="${work_dir}/${name}"
  "${hplsim}" run "${scenario}" --mode reference --nodes 1 --ppn "${ranks}" \
    --N "${n}" --NB "${nb}" --P "${p}" --Q "${q}" "${sets[@]}" --out "${dir}" >"${dir}.log" 2>&1 ||
    die "hplsim failed for ${name}, see ${dir}.log"
  rate="$(json_number "${dir}/summary.json" rmax_flops_per_s)"
  sim_s="$(json_number "${dir}/summary.json" time_s)"
  if [ -z "${rate}" ] || [ -z "${sim_s}" ]; then die "no rmax_flops_per_s/time_s in ${dir}/summary.json"; fi
  line="$(awk -v r="${rate}" -v g="${gflops}" -v st="${sim_s}" -v rt="${time_s}" -v c="${name}" \
    -v k="${ranks}" -v u="${runs}" -v cg="${cpu_gflops}" -v id="${idle}" 'BEGIN {
      pg = r / 1e9; err = 100 * (pg - g) / g
      cs = "-"; ce = "-"
      if (cg != "-") { cs = sprintf("%.4g", cg); ce = sprintf("%.1f", 100 * (pg - cg) / cg) }
      printf "%s,%d,%d,%s,%.4g,%.4g,%.4g,%.4g,%.1f,%s,%s\n", c, k, u, id, g, rt, pg, st, err, cs, ce }')"
  echo "${line}" >> "${out_csv}"
  IFS=, read -r c _ u id g rt pg st err cs ce <<<"${line}"
  printf '%-26s %4s %5s %8s %8s %8s %8s %7s %8s %7s\n' "${backend}:${c}" "${u}" "${id}" "${g}" "${rt}" "${pg}" "${st}" "${err}" "${cs}" "${ce}"
done <<<"${best}"
echo "wrote ${out_csv}" >&2
