#!/usr/bin/env bash
# build-hpl.sh HPL_TREE BUILD_DIR [EXTRA_LINK_ARGS...]
#
# Builds netlib HPL's xhpl with SimGrid's smpicc, out of tree, for the SMPI
# oracle (docs/smpi-oracle.md). HPL_TREE is copied to BUILD_DIR/hpl first
# and never modified; an empty HPL_TREE means $HPL_SRC.
#
# Two flavours are detected automatically:
# - hpcc's HPL 2.0 (get-hpl.sh): testing/ptest/HPL_pddriver.c defines
#   HPL_main(); scripts/oracle/hpl_main.c supplies main() and an
#   HPCC_Defaults() stub. xhpl reads ./hpccinf.txt, writes ./hpccoutf.txt.
# - netlib HPL 2.x with its own main() (e.g. 2.3 from icl-utk-edu/hpl):
#   built as is; xhpl reads ./HPL.dat and writes where HPL.dat says.
#
# Compiled: the same files as HPL's makefiles put in libhpl.a and xhpl:
# src/*/*.c and testing/{matgen,timer,pmatgen,ptimer,ptest}/*.c, with
# -O2 -DHPL_CALL_CBLAS -DHPL_DETAILED_TIMING (HPL_dlamch.c without
# optimisation, as HPL's Make.auxil does). The panel goes out as HPL's MPI
# struct datatype, HPL's default (-DHPL_NO_MPI_DATATYPE would add a copy of L
# before every broadcast, HPL_copyL, which hplsim does not have).
# Result: BUILD_DIR/libhpl.a and BUILD_DIR/xhpl (an SMPI shared object).
#
# With HPLSIM_ORACLE_LIB=/path/libhplsim_oracle.so (built by hplsim's CMake,
# target hplsim_oracle), scripts/oracle/hpl_hooks.c is compiled in and every
# kernel it hooks is wrapped (-Wl,--wrap), so xhpl charges hplsim's kernel
# prices: the oracle's xhpl. Without it, a plain SMPI xhpl.
#
# EXTRA_LINK_ARGS go before -lopenblas, so a shim library given there
# (e.g. /path/libhplsim_oracle_blas.so -Wl,-rpath,/path) provides the
# cblas_* symbols in place of OpenBLAS. Set HPL_BLAS_LIBS to replace
# "-lopenblas" itself, HPL_CFLAGS to add compile flags, JOBS for parallelism.
set -euo pipefail

usage() { echo "usage: $0 HPL_TREE BUILD_DIR [EXTRA_LINK_ARGS...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
src=${1:-${HPL_SRC:-}}
build=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
oracle_lib=
if [ -n "${HPLSIM_ORACLE_LIB:-}" ]; then
  [ -f "$HPLSIM_ORACLE_LIB" ] || { echo "build-hpl.sh: HPLSIM_ORACLE_LIB=$HPLSIM_ORACLE_LIB: no such file" >&2; exit 1; }
  oracle_lib=$(cd "$(dirname "$HPLSIM_ORACLE_LIB")" && pwd)/$(basename "$HPLSIM_ORACLE_LIB")
fi

[ -f "$src/include/hpl.h" ] || { echo "build-hpl.sh: $src is not an HPL tree" >&2; exit 1; }
command -v smpicc >/dev/null || { echo "build-hpl.sh: smpicc not found (simgrid)" >&2; exit 1; }

driver=$src/testing/ptest/HPL_pddriver.c
if grep -q '^int HPL_main' "$driver"; then
  flavour=hpcc
elif grep -q '^int main' "$driver"; then
  flavour=netlib
else
  echo "build-hpl.sh: cannot tell how $driver defines its entry point" >&2; exit 1
fi
version=$(sed -n 's/.*HPL - \([0-9.a-z]*\) - .*/\1/p' "$src/include/hpl.h" | head -n 1)

mkdir -p "$build"
build=$(cd "$build" && pwd)
rm -rf "$build/hpl" "$build/obj" "$build/libhpl.a" "$build/xhpl"
mkdir -p "$build/hpl" "$build/obj"
cp -R "$src/include" "$src/src" "$src/testing" "$build/hpl/"
cp "$src/COPYRIGHT" "$build/hpl/" 2>/dev/null || true
chmod -R u+w "$build/hpl"
tree=$build/hpl

# -DHPL_NO_MPI_DATATYPE exists in 2.0 and 2.3 (src/panel/HPL_pdpanel_init.c,
# src/comm/HPL_blonM.c). HPL declares the cblas_* prototypes itself
# (include/hpl_blas.h), so no cblas.h is needed.
cflags=(-O2 -DHPL_CALL_CBLAS -DHPL_DETAILED_TIMING -I"$tree/include")
noopt=(-O0 -DHPL_CALL_CBLAS -DHPL_DETAILED_TIMING -I"$tree/include")
# shellcheck disable=SC2206
[ -n "${HPL_CFLAGS:-}" ] && { cflags+=($HPL_CFLAGS); noopt+=($HPL_CFLAGS); }

jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
cd "$build/obj"
# Library objects (libhpl.a in HPL's makefiles) and the driver objects.
lib_srcs=$(cd "$tree" && ls src/*/*.c testing/matgen/*.c testing/timer/*.c \
                            testing/pmatgen/*.c testing/ptimer/*.c)
drv_srcs=$(cd "$tree" && ls testing/ptest/*.c)
export tree
compile() {  # $1 = source relative to $tree; flags follow
  local f=$1; shift
  "$@" -c "$tree/$f" -o "$(basename "${f%.c}").o"
}
export -f compile
# shellcheck disable=SC2086
printf '%s\n' $lib_srcs $drv_srcs | grep -v '/HPL_dlamch\.c$' |
  xargs -P "$jobs" -I{} bash -c 'compile "$@"' _ {} smpicc "${cflags[@]}"
compile src/auxil/HPL_dlamch.c smpicc "${noopt[@]}"

lib_objs=$(for f in $lib_srcs; do echo "$(basename "${f%.c}").o"; done)
drv_objs=$(for f in $drv_srcs; do echo "$(basename "${f%.c}").o"; done)
# shellcheck disable=SC2086
ar rc "$build/libhpl.a" $lib_objs
ranlib "$build/libhpl.a"

main_obj=()
if [ "$flavour" = hpcc ]; then
  smpicc "${cflags[@]}" -c "$here/hpl_main.c" -o hpl_main.o
  main_obj=(hpl_main.o)
fi
hooks=()
if [ -n "$oracle_lib" ]; then
  lib=$oracle_lib
  smpicc "${cflags[@]}" -c "$here/hpl_hooks.c" -o hpl_hooks.o
  wrapped=$(sed -n 's/^void __wrap_\([A-Za-z0-9_]*\)(.*/\1/p; s/^ *BASE_CASE(\(.*\))$/\1/p;
                     s/^ *UPDATE(\(.*\))$/\1/p; s/^ *SWAP(\([A-Za-z0-9_]*\),.*/\1/p' "$here/hpl_hooks.c" | sort -u)
  hooks=(hpl_hooks.o)
  for f in $wrapped; do hooks+=("-Wl,--wrap=$f"); done
  hooks+=("$lib" "-Wl,-rpath,$(dirname "$lib")")
  echo "build-hpl.sh: oracle hooks on $(echo "$wrapped" | wc -w) functions, prices from $lib" >&2
fi
# shellcheck disable=SC2086,SC2206
blas=(${HPL_BLAS_LIBS:--lopenblas})
# shellcheck disable=SC2086
smpicc -O2 -o "$build/xhpl" "${main_obj[@]}" $drv_objs "${hooks[@]}" "$build/libhpl.a" \
  "$@" "${blas[@]}" -lm

echo "build-hpl.sh: built $build/xhpl (HPL ${version:-?}, $flavour flavour)" >&2
if [ "$flavour" = hpcc ]; then
  echo "build-hpl.sh: run it where hpccinf.txt is; output goes to ./hpccoutf.txt" >&2
else
  echo "build-hpl.sh: run it where HPL.dat is" >&2
fi
