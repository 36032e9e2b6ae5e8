#!/usr/bin/env bash
# Installs what the hardening builds need beyond scripts/install-deps.sh:
# clang 14 with its runtime libraries (libFuzzer, ASan, UBSan) for
# scripts/fuzz.sh; g++'s own sanitizer runtimes (libasan, libubsan) come with
# the compiler scripts/install-deps.sh installs.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends clang-14 libclang-rt-14-dev >/dev/null
