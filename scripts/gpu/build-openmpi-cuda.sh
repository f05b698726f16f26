#!/usr/bin/env bash
# Builds a CUDA-aware Open MPI from Debian 12's own source package of Open
# MPI 4.1.4 (the system's version, with Debian's patches) into a prefix of
# its own, beside the system's Open MPI and never over it: the paper's
# baseline is Open MPI's GPU-aware allreduce with host copies. Not part of
# CI (about 15 minutes on 2 cores); mcb builds against it with
#   cmake -S . -B build-cuda-ompi -DMCB_MPI=openmpi-cuda -DMCB_ENABLE_CUDA=ON
# (or -DMCB_MPI_PREFIX=PREFIX), and scripts/gpu/bundle.sh carries it.
#   scripts/gpu/build-openmpi-cuda.sh [PREFIX]   (default /opt/mcb/openmpi-cuda)
# Environment: CUDA_HOME (default /usr/local/cuda), WORK (the source tree's
# folder, default /tmp/mcb-openmpi-cuda), JOBS (default nproc).
# Needs root (or sudo) for the deb-src line and the source's tools. Safe to
# run again: a prefix whose ompi_info reports CUDA support is kept.
set -euo pipefail
prefix=${1:-/opt/mcb/openmpi-cuda}
cuda=${CUDA_HOME:-/usr/local/cuda}
work=${WORK:-/tmp/mcb-openmpi-cuda}
jobs=${JOBS:-$(nproc)}
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"

if [[ -x "$prefix/bin/ompi_info" ]] &&
  "$prefix/bin/ompi_info" --parsable --all 2>/dev/null | grep -q 'mpi_built_with_cuda_support:value:true'; then
  echo "build-openmpi-cuda: $prefix already has a CUDA-aware Open MPI"
  exit 0
fi
[[ -f "$cuda/include/cuda.h" ]] || { echo "build-openmpi-cuda: no $cuda/include/cuda.h (set CUDA_HOME)" >&2; exit 2; }

# Debian's source of the system's Open MPI: a deb-src line for bookworm main
# (added once, in a file of its own), and the tools that unpack a source.
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  $sudo tee /etc/apt/sources.list.d/mcb-deb-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  $sudo apt-get update -q
fi
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends dpkg-dev build-essential \
  libhwloc-dev libevent-dev flex autoconf automake libtool perl
version=$(dpkg-query -W -f='${source:Version}' openmpi-bin 2>/dev/null || true)
mkdir -p "$work"
cd "$work"
src=$(find . -maxdepth 1 -type d -name 'openmpi-4*' | head -n 1)
if [[ -z "$src" ]]; then
  apt-get source --only-source "openmpi${version:+=$version}"
  src=$(find . -maxdepth 1 -type d -name 'openmpi-4*' | head -n 1)
fi
cd "$src"
# Debian's patches touch configure.ac and Makefile.am: regenerate as
# Debian's own build does (debian/rules runs autogen.pl) before configuring.
[[ -f .mcb-autogen-done ]] || { ./autogen.pl --force > "$work/autogen.log" 2>&1 && touch .mcb-autogen-done; } ||
  { tail -n 30 "$work/autogen.log"; exit 1; }
echo "build-openmpi-cuda: $(basename "$PWD") (Debian $version) with CUDA from $cuda into $prefix"
# C and C++ only (mcb needs no Fortran); Debian's hwloc and libevent, Open
# MPI's own PMIx (so the bundle needs no system PMIx); no UCX, so that the
# node's transport is Open MPI's smcuda BTL (CUDA IPC between processes of a
# GPU) and collectives on device buffers go through coll/cuda's host staging.
./configure --prefix="$prefix" --with-cuda="$cuda" --enable-mpi-ext=cuda --disable-mpi-fortran \
  --without-ucx --without-verbs --without-ofi --with-hwloc=external --with-libevent=external \
  --with-pmix=internal --disable-man-pages > "$work/configure.log" 2>&1 ||
  { tail -n 30 "$work/configure.log"; exit 1; }
make -j "$jobs" > "$work/make.log" 2>&1 || { tail -n 40 "$work/make.log"; exit 1; }
$sudo make install > "$work/install.log" 2>&1 || { tail -n 20 "$work/install.log"; exit 1; }
"$prefix/bin/ompi_info" --parsable --all | grep 'mpi_built_with_cuda_support:value'
echo "build-openmpi-cuda: done: $prefix"
