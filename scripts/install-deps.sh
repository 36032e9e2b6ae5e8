#!/usr/bin/env bash
# Installs hplsim's build and test dependencies from Debian 12's packages.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  ca-certificates g++ make cmake pkg-config \
  libsimgrid-dev libboost-graph-dev libeigen3-dev \
  libprotobuf-dev protobuf-compiler libgtest-dev \
  libcli11-dev libfmt-dev nlohmann-json3-dev libopenblas-dev python3 \
  libopenmpi-dev openmpi-bin \
  chromium libpng-dev ccache libjemalloc-dev >/dev/null
