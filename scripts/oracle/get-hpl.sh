#!/usr/bin/env bash
# get-hpl.sh DEST_DIR
#
# Puts netlib HPL 2.0 (the copy shipped as hpl/ inside Debian bookworm's
# `hpcc` 1.5.0 source package) into DEST_DIR/hpl-2.0 and prints that path.
# Used by the SMPI oracle (docs/smpi-oracle.md); build it with build-hpl.sh.
#
# - The system apt configuration is not touched: apt-get runs with a private
#   sources list (deb-src only), private lists and cache directories.
# - Only hpcc_1.5.0.orig.tar.gz is needed. hpcc's debian.tar.xz may 404 on
#   some mirrors; then the orig tarball is fetched from the URI printed by
#   `apt-get --print-uris source hpcc` with curl, wget or python3.
# - The tarball's size and sha256 are checked before extraction.
# - Idempotent: if DEST_DIR/hpl-2.0 exists, nothing is done.
# - If HPL_SRC is set (e.g. a netlib HPL 2.3 checkout), it is checked and
#   printed instead, and nothing is downloaded. build-hpl.sh handles both.
#
# Environment: HPL_SRC (optional), HPL_DEBIAN_MIRROR (default
# http://deb.debian.org/debian), HPCC_ORIG (optional path to an already
# downloaded hpcc_1.5.0.orig.tar.gz).
set -euo pipefail

usage() { echo "usage: $0 DEST_DIR" >&2; exit 2; }
[ $# -eq 1 ] || usage

ORIG=hpcc_1.5.0.orig.tar.gz
ORIG_SIZE=655993
ORIG_SHA256=0a6fef7ab9f3347e549fed65ebb98234feea9ee18aea0c8f59baefbe3cf7ffb8
MIRROR=${HPL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

if [ -n "${HPL_SRC:-}" ]; then
  if [ -f "$HPL_SRC/include/hpl.h" ] && [ -f "$HPL_SRC/testing/ptest/HPL_pddriver.c" ]; then
    echo "$HPL_SRC"
    exit 0
  fi
  echo "get-hpl.sh: HPL_SRC=$HPL_SRC is not an HPL tree (no include/hpl.h)" >&2
  exit 1
fi

dest=$1
out=$dest/hpl-2.0
if [ -d "$out" ]; then
  echo "$out"
  exit 0
fi
mkdir -p "$dest"

work=$(mktemp -d "${TMPDIR:-/tmp}/get-hpl.XXXXXX")
trap 'rm -rf "$work"' EXIT

check_orig() {  # $1 = file; returns 0 if size and sha256 match
  [ -f "$1" ] || return 1
  [ "$(wc -c <"$1")" -eq "$ORIG_SIZE" ] || return 1
  [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$ORIG_SHA256" ]
}

fetch_url() {  # $1 = url, $2 = output file
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$1" "$2"
  fi
}

tarball=$work/dl/$ORIG
mkdir -p "$work/dl"
if [ -n "${HPCC_ORIG:-}" ]; then
  cp "$HPCC_ORIG" "$tarball"
else
  [ -f "$KEYRING" ] || { echo "get-hpl.sh: missing $KEYRING (package debian-archive-keyring)" >&2; exit 1; }
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
  echo "deb-src [signed-by=$KEYRING] $MIRROR bookworm main" >"$work/sources.list"
  apt=(apt-get -q
       -o "Dir::Etc::sourcelist=$work/sources.list"
       -o Dir::Etc::sourceparts=/nonexistent
       -o "Dir::State::Lists=$work/lists"
       -o "Dir::Cache=$work/cache"
       -o APT::Sandbox::User=root)
  "${apt[@]}" update >&2
  # apt-get source fails as a whole if the debian.tar.xz part is missing,
  # but keeps the parts it did download.
  (cd "$work/dl" && "${apt[@]}" source --download-only hpcc >&2) ||
    echo "get-hpl.sh: apt-get source failed; checking what was downloaded" >&2
  if ! check_orig "$tarball"; then
    url=$("${apt[@]}" --print-uris source hpcc | tr -d "'" |
          awk -v f="$ORIG" '$2 == f { print $1 }')
    [ -n "$url" ] || { echo "get-hpl.sh: no URI for $ORIG" >&2; exit 1; }
    echo "get-hpl.sh: downloading $url" >&2
    rm -f "$tarball"
    fetch_url "$url" "$tarball"
  fi
fi
check_orig "$tarball" || { echo "get-hpl.sh: $ORIG: size or sha256 mismatch" >&2; exit 1; }

mkdir -p "$work/x"
tar -xzf "$tarball" -C "$work/x" hpcc-1.5.0/hpl
# Extract next to the destination, then rename, so a partial tree never
# looks complete.
stage=$(mktemp -d "$dest/.hpl-2.0.XXXXXX")
mv "$work/x/hpcc-1.5.0/hpl" "$stage/hpl"
mv "$stage/hpl" "$out"
rmdir "$stage"
echo "$out"
