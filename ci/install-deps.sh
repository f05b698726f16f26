#!/usr/bin/env bash
# Installs everything mcb needs to build and test, from Debian 12's packages:
# a compiler and CMake, Open MPI and MPICH, CLI11, spdlog, hwloc, GoogleTest,
# clang-format, pandas/matplotlib for the schema test and plots/,
# hipcc/libamdhip64-dev to compile the HIP backend (no AMD GPU needed),
# Slurm's daemons and client for the private localhost cluster of the slurm
# tests (ci/with-slurm.sh; no service is enabled or started), and SimGrid's
# SMPI for the simulation build, FFTW 3 for mcb_fft, and the preload
# library's external clients: HPC Challenge (hpcc, linked against Open MPI),
# ScaLAPACK's BLACS tester (scalapack-mpi-test, one build per MPI) and
# gfortran for its Fortran tests, CP2K (cp2k, linked against Open MPI: the
# preload's application test preload_cp2k and scripts/apps/cp2k.sh), and
# Chromium to load scripts/compare/compare.py's --html page headless (test
# compare_html).
# Needs root (or sudo). Safe to run again.
set -euo pipefail
packages=(
  build-essential cmake pkg-config python3 python3-pandas python3-matplotlib
  openmpi-bin libopenmpi-dev mpich libmpich-dev
  libcli11-dev libspdlog-dev libfmt-dev libhwloc-dev hwloc
  libgtest-dev clang-format ccache
  hipcc libamdhip64-dev
  slurmctld slurmd slurm-client
  libsimgrid-dev
  libfftw3-dev hpcc scalapack-mpi-test gfortran cp2k
  chromium
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
