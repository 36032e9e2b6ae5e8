#!/usr/bin/env bash
# Runs real HPL on this machine for the configurations hplsim's workstation
# scenario (scenarios/workstation-cpu.textproto) predicts, and writes the
# results as CSV. A manual, documented step (docs/real-hpl-comparison.md); it
# is not part of the build, CI or scripts/install-deps.sh.
#
# Backends:
#   netlib  HPL 2.3 (netlib / icl-utk-edu/hpl) built here against Debian's
#           OpenBLAS (libopenblas-dev) and Open MPI (libopenmpi-dev).
#           --hpl-src names its source: an unpacked tree, a hpl-2.3.tar.gz, or a
#           git directory (bare or not; `git archive HEAD` is used).
#   hpcc    Debian's hpcc package (HPC Challenge 1.5.0, which contains HPL);
#           used when no HPL source is given. It also runs HPCC's other tests,
#           so each run takes several times longer than the HPL part.
# Both run with one BLAS thread per rank (OPENBLAS_NUM_THREADS=1) and
# `mpirun --allow-run-as-root --oversubscribe -np P*Q`.
#
# The HPL.dat algorithm lines match hplsim's defaults (sim/scenario/scenario_defaults.hpp,
# the sample HPL.dat of HPL 2.3): PFACT Right, NBMIN 4, NDIV 2, RFACT Right,
# BCAST 1ringM, DEPTH 1, SWAP mix (threshold 64), L1/U transposed,
# equilibration on, alignment 8, row-major process mapping.
#
# Output (--out, default out/real-hpl/real_hpl.csv):
#   backend,n,nb,p,q,ranks,repeat,time_s,gflops,residual_passed,loadavg_1min,idle_percent,
#   cpu_time_s,cpu_gflops
# one row per run; compare.sh takes the best (highest Gflops) of the repeats
# per configuration, as HPL practice does. idle_percent: the machine's idle CPU
# share over the 2 s before the run (/proc/stat), a record of how shared the
# box was. cpu_time_s (netlib only; empty with hpcc): the largest CPU time a
# rank spent in HPL_pdgesv (a line this script adds to HPL's output, see the
# build step), cpu_gflops: HPL's flop count over it. --wait-idle PCT waits (up to --wait-max seconds per run, default
# 300) until it is at least PCT before starting a run.
#
# Usage:
#   scripts/real-hpl/run_real_hpl.sh [--backend netlib|hpcc] [--hpl-src PATH]
#       [--work DIR] [--out CSV] [--repeats N]
#       [--configs "N:NB:P:Q N:NB:P:Q ..."] [--no-install]
#       [--wait-idle PCT] [--wait-max S] [--detailed-timing]
# --detailed-timing (netlib): build HPL with -DHPL_DETAILED_TIMING in its own
# tree (hpl-2.3-dt), so each run's output (run-*/out-<repeat>.txt) also has
# HPL's per-phase times (rfact, pfact, mxswp, update, laswp, up tr sv); the
# timing calls add a little overhead, so keep those runs out of the table.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
backend=""
hpl_src=""
work_dir="${repo_root}/out/real-hpl/work"
out_csv="${repo_root}/out/real-hpl/real_hpl.csv"
repeats=3
install=1
wait_idle=0
wait_max_s=300
detailed=0
# N in {2000, 4000, 8000} x NB in {128, 256} x grids {1x2, 2x1, 1x1}.
configs=""
for n in 2000 4000 8000; do
  for nb in 128 256; do
    for grid in 1:2 2:1 1:1; do configs+="${n}:${nb}:${grid} "; done
  done
done

die() { echo "run_real_hpl.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend="$2"; shift 2 ;;
    --hpl-src) hpl_src="$2"; shift 2 ;;
    --work) work_dir="$2"; shift 2 ;;
    --out) out_csv="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    --configs) configs="$2"; shift 2 ;;
    --no-install) install=0; shift ;;
    --wait-idle) wait_idle="$2"; shift 2 ;;
    --wait-max) wait_max_s="$2"; shift 2 ;;
    --detailed-timing) detailed=1; shift ;;
    -h|--help) sed -n '2,42p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
if [ -z "${backend}" ]; then
  if [ -n "${hpl_src}" ]; then backend=netlib; else backend=hpcc; fi
fi
case "${backend}" in netlib|hpcc) ;; *) die "--backend must be netlib or hpcc, got '${backend}'" ;; esac
[ "${backend}" = netlib ] && [ -z "${hpl_src}" ] && die "--backend netlib needs --hpl-src PATH"
[[ "${repeats}" =~ ^[1-9][0-9]*$ ]] || die "--repeats must be a positive integer, got '${repeats}'"
if ! [[ "${wait_idle}" =~ ^[0-9]+$ ]] || [ "${wait_idle}" -gt 100 ]; then die "--wait-idle must be 0..100, got '${wait_idle}'"; fi
[[ "${wait_max_s}" =~ ^[0-9]+$ ]] || die "--wait-max must be a whole number of seconds, got '${wait_max_s}'"

# ------------------------------------------------------------------ install
need_pkgs=(openmpi-bin libopenmpi-dev libopenblas-dev)
[ "${backend}" = hpcc ] && need_pkgs+=(hpcc)
missing=()
for p in "${need_pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "${install}" = 1 ] || die "missing Debian packages: ${missing[*]} (drop --no-install to install them)"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "installing ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive ${sudo_cmd} apt-get install -y -qq "${missing[@]}" >/dev/null
fi

mkdir -p "${work_dir}" "$(dirname "${out_csv}")"

# ------------------------------------------------------------------ build (netlib)
xhpl=""
if [ "${backend}" = netlib ]; then
  top="${work_dir}/hpl-2.3"
  hpl_opts="-DHPL_CALL_CBLAS"
  if [ "${detailed}" = 1 ]; then top="${work_dir}/hpl-2.3-dt"; hpl_opts+=" -DHPL_DETAILED_TIMING"; fi
  if [ ! -x "${top}/bin/hplsim/xhpl" ]; then
    rm -rf "${top}"
    mkdir -p "${top}"
    if [ -f "${hpl_src}" ]; then
      tar -xzf "${hpl_src}" -C "${top}" --strip-components=1
    elif [ -d "${hpl_src}" ] && git --git-dir="${hpl_src}" rev-parse HEAD >/dev/null 2>&1; then
      git --git-dir="${hpl_src}" archive HEAD | tar -x -C "${top}"
    elif [ -d "${hpl_src}/.git" ]; then
      git -C "${hpl_src}" archive HEAD | tar -x -C "${top}"
    elif [ -f "${hpl_src}/include/hpl.h" ]; then
      cp -a "${hpl_src}/." "${top}/"
    else
      die "--hpl-src '${hpl_src}' is not an HPL tree, tarball or git directory"
    fi
    [ -f "${top}/include/hpl.h" ] || die "no include/hpl.h in the HPL source '${hpl_src}'"
    # One added output line: the largest CPU time (getrusage, HPL's own
    # HPL_ptimer CPU clock) a rank spent in HPL_pdgesv, beside HPL's wall time.
    # On a shared machine, wall time counts the time the scheduler gives other
    # processes; CPU time does not (it still counts MPI busy-polling while a
    # rank waits for a descheduled peer, so with 2 ranks it is an upper bound
    # on the uncontended time). The factorization is untouched.
    pdtest="${top}/testing/ptest/HPL_pdtest.c"
    grep -q '1, 0, wtime );' "${pdtest}" || die "cannot find the wall-time combine in ${pdtest}"
    awk '{ print }
      /1, 0, wtime \);/ && !done {
        print "   { double hplsim_cpu[1];"
        print "     HPL_ptimer_combine( GRID->all_comm, HPL_AMAX_PTIME, HPL_CPU_PTIME, 1, 0, hplsim_cpu );"
        print "     if( ( myrow == 0 ) && ( mycol == 0 ) )"
        print "        HPL_fprintf( TEST->outfp, \"HPLSIM max rank CPU time in HPL_pdgesv: %.4f s\\n\", hplsim_cpu[0] ); }"
        done = 1 }' "${pdtest}" > "${pdtest}.new"
    mv "${pdtest}.new" "${pdtest}"
    # Make.<arch> from setup/Make.Linux_PII_CBLAS: mpicc for MPI, OpenBLAS's CBLAS.
    cat > "${top}/Make.hplsim" <<MAKE
SHELL        = /bin/sh
CD           = cd
CP           = cp
LN_S         = ln -s
MKDIR        = mkdir
RM           = /bin/rm -f
TOUCH        = touch
ARCH         = hplsim
TOPdir       = ${top}
INCdir       = \$(TOPdir)/include
BINdir       = \$(TOPdir)/bin/\$(ARCH)
LIBdir       = \$(TOPdir)/lib/\$(ARCH)
HPLlib       = \$(LIBdir)/libhpl.a
MPinc        =
MPlib        =
LAinc        = -I/usr/include/x86_64-linux-gnu/openblas-pthread
LAlib        = -lopenblas
F2CDEFS      =
HPL_INCLUDES = -I\$(INCdir) -I\$(INCdir)/\$(ARCH) \$(LAinc) \$(MPinc)
HPL_LIBS     = \$(HPLlib) \$(LAlib) \$(MPlib) -lm
HPL_OPTS     = ${hpl_opts}
HPL_DEFS     = \$(F2CDEFS) \$(HPL_OPTS) \$(HPL_INCLUDES)
CC           = mpicc
CCNOOPT      = \$(HPL_DEFS)
CCFLAGS      = \$(HPL_DEFS) -fomit-frame-pointer -O3 -funroll-loops
LINKER       = mpicc
LINKFLAGS    = \$(CCFLAGS)
ARCHIVER     = ar
ARFLAGS      = r
RANLIB       = echo
MAKE
    echo "building HPL in ${top} (make arch=hplsim)" >&2
    # The legacy Makefile is not parallel-safe (startup/refresh race): no -j.
    make -C "${top}" arch=hplsim >"${work_dir}/hpl-build.log" 2>&1 ||
      die "HPL build failed, see ${work_dir}/hpl-build.log"
    [ -x "${top}/bin/hplsim/xhpl" ] || die "HPL build produced no xhpl, see ${work_dir}/hpl-build.log"
  fi
  xhpl="${top}/bin/hplsim/xhpl"
fi

# ------------------------------------------------------------------ input file
# write_hpl_dat FILE N NB P Q: HPL.dat layout, also the first 32 lines of hpccinf.txt.
# shellcheck source=scripts/real-hpl/hpl_dat.sh
source "${repo_root}/scripts/real-hpl/hpl_dat.sh"

# HPCC's extra lines after the HPL part (hpccinf.txt of hpcc 1.5.0): the
# PTRANS sizes/blocks and grids; kept tiny so the other tests stay short.
write_hpcc_extra() { # file p q
  cat >> "$1" <<DAT
##### This line (no. 32) is ignored (it serves as a separator). ######
0                               Number of additional problem sizes for PTRANS
1200 10000 30000                values of N
0                               number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64        values of NB
DAT
}

# ------------------------------------------------------------------ runs
# Idle share of all CPUs over 2 s, in whole percent (/proc/stat: idle + iowait).
idle_percent() {
  local a b
  read -r -a a < /proc/stat; sleep 2; read -r -a b < /proc/stat
  local total=0 i
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  local idle=$((b[4] - a[4] + b[5] - a[5]))
  [ "${total}" -gt 0 ] && echo $((100 * idle / total)) || echo 0
}
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 GOTO_NUM_THREADS=1
run_tag=""
[ "${detailed}" = 1 ] && run_tag="-dt"
echo "backend,n,nb,p,q,ranks,repeat,time_s,gflops,residual_passed,loadavg_1min,idle_percent,cpu_time_s,cpu_gflops" > "${out_csv}"
for cfg in ${configs}; do
  IFS=: read -r n nb p q <<<"${cfg}"
  [[ "${n}:${nb}:${p}:${q}" =~ ^[0-9]+:[0-9]+:[0-9]+:[0-9]+$ ]] ||
    die "--configs entry '${cfg}' must read N:NB:P:Q"
  ranks=$((p * q))
  run_dir="${work_dir}/run-${backend}${run_tag}-${n}-${nb}-${p}x${q}"
  mkdir -p "${run_dir}"
  for r in $(seq 1 "${repeats}"); do
    waited=0
    idle="$(idle_percent)"
    while [ "${idle}" -lt "${wait_idle}" ] && [ "${waited}" -lt "${wait_max_s}" ]; do
      sleep 8; waited=$((waited + 10)); idle="$(idle_percent)"
    done
    load="$(cut -d' ' -f1 /proc/loadavg)"
    if [ "${backend}" = netlib ]; then
      write_hpl_dat "${run_dir}/HPL.dat" "${n}" "${nb}" "${p}" "${q}"
      (cd "${run_dir}" && mpirun --allow-run-as-root --oversubscribe -np "${ranks}" \
        -x OPENBLAS_NUM_THREADS -x OMP_NUM_THREADS "${xhpl}" >"${run_dir}/out-${r}.txt" 2>&1) || true
    else
      write_hpl_dat "${run_dir}/hpccinf.txt" "${n}" "${nb}" "${p}" "${q}"
      write_hpcc_extra "${run_dir}/hpccinf.txt" "${p}" "${q}"
      rm -f "${run_dir}/hpccoutf.txt"
      (cd "${run_dir}" && mpirun --allow-run-as-root --oversubscribe -np "${ranks}" \
        -x OPENBLAS_NUM_THREADS -x OMP_NUM_THREADS hpcc >"${run_dir}/stdout-${r}.txt" 2>&1) || true
      cp "${run_dir}/hpccoutf.txt" "${run_dir}/out-${r}.txt" 2>/dev/null || true
    fi
    # HPL's result line: "WR11R2R4  N  NB  P  Q  Time  Gflops".
    line="$(grep -E '^W[RC][0-9]{2}[RLC][0-9][RLC][0-9]+ ' "${run_dir}/out-${r}.txt" | head -1 || true)"
    if [ -z "${line}" ]; then
      echo "no HPL result in ${run_dir}/out-${r}.txt" >&2
      echo "${backend},${n},${nb},${p},${q},${ranks},${r},,,false,${load},${idle},," >> "${out_csv}"
      continue
    fi
    read -r _ ln lnb lp lq t g <<<"${line}"
    [ "${ln}:${lnb}:${lp}:${lq}" = "${n}:${nb}:${p}:${q}" ] ||
      die "HPL ran ${ln}:${lnb}:${lp}:${lq}, asked for ${n}:${nb}:${p}:${q} (${run_dir}/out-${r}.txt)"
    passed=false
    grep -qE '^\|\|Ax-b\|\|.*PASSED' "${run_dir}/out-${r}.txt" && passed=true
    cpu_s="$(sed -n 's/^HPLSIM max rank CPU time in HPL_pdgesv: *\([0-9.eE+-]*\) s$/\1/p' "${run_dir}/out-${r}.txt" | head -1)"
    cpu_g=""
    # HPL_pdtest.c's count: 2/3 N^3 + 3/2 N^2 flops.
    [ -n "${cpu_s}" ] && cpu_g="$(awk -v n="${n}" -v s="${cpu_s}" 'BEGIN { if (s > 0) printf "%.4e", (2.0 / 3.0 * n + 1.5) * n * n / s / 1e9 }')"
    echo "${backend},${n},${nb},${p},${q},${ranks},${r},${t},${g},${passed},${load},${idle},${cpu_s},${cpu_g}" >> "${out_csv}"
    echo "${backend} N=${n} NB=${nb} ${p}x${q} run ${r}: ${t} s ${g} Gflops; CPU ${cpu_s:-n/a} s ${cpu_g:-n/a} Gflops (load ${load}, idle ${idle}%, residual ${passed})" >&2
  done
done
echo "wrote ${out_csv}" >&2
