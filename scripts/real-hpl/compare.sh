#!/usr/bin/env bash
# Sets hplsim's predictions beside real HPL runs on this machine.
# Reads the CSV run_real_hpl.sh wrote, keeps the best (highest Gflops) run of
# each configuration (HPL practice: the best of the repeats), runs
#   hplsim run SCENARIO --mode reference --nodes 1 --ppn P*Q --N N --NB NB --P P --Q Q
# for it, and prints a table: config, real Gflops, predicted Gflops, error %
# (error = (predicted - real) / real), also written as CSV (--out).
#
# Usage:
#   scripts/real-hpl/compare.sh [--real CSV] [--scenario FILE] [--hplsim BIN]
#       [--out CSV] [--work DIR] [--set FIELD=VALUE]...
# Defaults: --real out/real-hpl/real_hpl.csv,
#   --scenario scenarios/workstation-cpu.textproto, --hplsim build/sim/hplsim
#   (or build-ws/sim/hplsim when build/ has none), --out out/real-hpl/compare.csv.
# --set is passed to every hplsim run (e.g. --set machine.kernels_file=...).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
real_csv="${repo_root}/out/real-hpl/real_hpl.csv"
scenario="${repo_root}/scenarios/workstation-cpu.textproto"
hplsim=""
out_csv="${repo_root}/out/real-hpl/compare.csv"
work_dir="${repo_root}/out/real-hpl/sim"
sets=()

die() { echo "compare.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --real) real_csv="$2"; shift 2 ;;
    --scenario) scenario="$2"; shift 2 ;;
    --hplsim) hplsim="$2"; shift 2 ;;
    --out) out_csv="$2"; shift 2 ;;
    --work) work_dir="$2"; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
if [ -z "${hplsim}" ]; then
  for b in build build-ws; do
    if [ -x "${repo_root}/${b}/sim/hplsim" ]; then hplsim="${repo_root}/${b}/sim/hplsim"; break; fi
  done
fi
[ -n "${hplsim}" ] && [ -x "${hplsim}" ] || die "no hplsim binary (build it, or pass --hplsim BIN)"
[ -f "${real_csv}" ] || die "no real-HPL CSV '${real_csv}' (run scripts/real-hpl/run_real_hpl.sh first)"
[ -f "${scenario}" ] || die "no scenario '${scenario}'"
head -1 "${real_csv}" | grep -q '^backend,n,nb,p,q,ranks,repeat,time_s,gflops,' ||
  die "'${real_csv}' does not start with run_real_hpl.sh's header"
mkdir -p "${work_dir}" "$(dirname "${out_csv}")"

# Best run per (backend, n, nb, p, q): highest Gflops among runs whose
# residual check passed. Output lines: backend n nb p q ranks gflops time_s runs
best="$(awk -F, 'NR > 1 && $9 != "" && $10 == "true" {
    key = $1 FS $2 FS $3 FS $4 FS $5 FS $6
    runs[key]++
    if (!(key in g) || $9 + 0 > g[key] + 0) { g[key] = $9; t[key] = $8 }
    if (!(key in order)) { order[key] = ++count; keys[count] = key }
  }
  END { for (i = 1; i <= count; i++) { k = keys[i]; gsub(FS, " ", k); print k, g[keys[i]], t[keys[i]], runs[keys[i]] } }' \
  "${real_csv}")"
[ -n "${best}" ] || die "'${real_csv}' has no passed runs"

json_number() { # file key
  sed -n "s/^ *\"$2\": *\([-+0-9.eE]*\),\{0,1\}$/\1/p" "$1" | head -1
}

echo "config,ranks,real_runs,real_gflops,real_time_s,predicted_gflops,predicted_time_s,error_percent" > "${out_csv}"
printf '%-26s %5s %10s %10s %10s %10s %8s\n' "config" "runs" "real_GF" "real_s" "pred_GF" "pred_s" "err_%"
while read -r backend n nb p q ranks gflops time_s runs; do
  name="N${n}-NB${nb}-${p}x${q}"
  dir="${work_dir}/${name}"
  "${hplsim}" run "${scenario}" --mode reference --nodes 1 --ppn "${ranks}" \
    --N "${n}" --NB "${nb}" --P "${p}" --Q "${q}" "${sets[@]}" --out "${dir}" >"${dir}.log" 2>&1 ||
    die "hplsim failed for ${name}, see ${dir}.log"
  rate="$(json_number "${dir}/summary.json" rmax_flops_per_s)"
  sim_s="$(json_number "${dir}/summary.json" time_s)"
  [ -n "${rate}" ] && [ -n "${sim_s}" ] || die "no rmax_flops_per_s/time_s in ${dir}/summary.json"
  line="$(awk -v r="${rate}" -v g="${gflops}" -v st="${sim_s}" -v rt="${time_s}" -v c="${name}" \
    -v k="${ranks}" -v u="${runs}" 'BEGIN {
      pg = r / 1e9; err = 100 * (pg - g) / g
      printf "%s,%d,%d,%.4g,%.4g,%.4g,%.4g,%.1f\n", c, k, u, g, rt, pg, st, err }')"
  echo "${line}" >> "${out_csv}"
  IFS=, read -r c k u g rt pg st err <<<"${line}"
  printf '%-26s %5s %10s %10s %10s %10s %8s\n' "${backend}:${c}" "${u}" "${g}" "${rt}" "${pg}" "${st}" "${err}"
done <<<"${best}"
echo "wrote ${out_csv}" >&2
