#!/usr/bin/env bash
# Builds an MPI that mcb is validated on into a prefix of its own, beside the
# system's MPIs and never over them, from Debian's source packages:
#   openmpi-5.0.7   Open MPI 5.0.7 (trixie's openmpi 5.0.7-1): the release
#                   tarball of the source package, with its own PMIx, PRRTE,
#                   hwloc and libevent (3rd-party/), so it needs no library
#                   newer than Debian 12's
#   mpich-4.2.1     MPICH 4.2.1 (trixie's mpich 4.3.0+really4.2.1-1): the
#                   release tarball, configured as Debian builds its
#                   MPICH (ch4:ucx over Debian's UCX, Debian's hwloc)
#   mpich-4.2.1-ofi the same release with MPICH's default device, ch4:ofi
#                   over Debian's libfabric, and its own datatype engine
#                   (yaksa): the one with CH4's POSIX shared-memory module,
#                   so with the release_gather collectives that
#                   scripts/peers/mpi_shm.py compares mcb with (ch4:ucx
#                   builds none: "ucx can only choose direct netmod")
#   openmpi-4.1.4   Debian 12's own Open MPI 4.1.4 (bookworm's openmpi
#                   4.1.4-3, with Debian's patches, as the system's)
#   openmpi-cuda    openmpi-4.1.4 --with-cuda (what the GPU bundle carries,
#                   scripts/gpu/bundle.sh; the old build-openmpi-cuda.sh)
#   scripts/mpi/build-mpi.sh NAME [PREFIX] [--with-cuda[=DIR]]
# PREFIX defaults to /opt/mcb/NAME (NAME-cuda with --with-cuda; either Open
# MPI takes it). mcb builds against it with
#   cmake -S . -B build-NAME -DMCB_MPI_PREFIX=/opt/mcb/NAME   (or -DMCB_MPI=NAME)
# and ci/test-mpi.sh /opt/mcb/NAME runs the CTest suite on it.
# Environment: JOBS (default nproc), WORK (where sources unpack, default
# /tmp/mcb-mpi-src), CUDA_HOME (default /usr/local/cuda), MCB_MPI_TARBALL
# (an upstream release tarball of the same version to build instead of
# Debian's, where a mirror lacks the source package).
# Not part of CI (tens of minutes on 2 cores; docs/build.md has the times).
# Safe to run again: a prefix whose MPI already reports the version (and CUDA
# where asked) is kept. Missing tool or source: one line, exit 2.
set -euo pipefail
me=build-mpi
die2() { echo "$me: $*" >&2; exit 2; }
[[ $# -ge 1 ]] || die2 "usage: build-mpi.sh openmpi-5.0.7|mpich-4.2.1|mpich-4.2.1-ofi|openmpi-4.1.4|openmpi-cuda [PREFIX] [--with-cuda[=DIR]]"
name=$1
shift
prefix="" cuda="" device="" fortran=yes
for a in "$@"; do
  case $a in
  --with-cuda) cuda=${CUDA_HOME:-/usr/local/cuda} ;;
  --with-cuda=*) cuda=${a#--with-cuda=} ;;
  -*) die2 "unknown option $a" ;;
  *) prefix=$a ;;
  esac
done
case $name in
openmpi-5.0.7) pkg=openmpi debver=5.0.7-1 suite=trixie version=5.0.7 patched=no ;;
mpich-4.2.1) pkg=mpich debver=4.3.0+really4.2.1-1 suite=trixie version=4.2.1 patched=no ;;
mpich-4.2.1-ofi) pkg=mpich debver=4.3.0+really4.2.1-1 suite=trixie version=4.2.1 patched=no device=ofi ;;
openmpi-4.1.4) pkg=openmpi debver=4.1.4-3 suite=bookworm version=4.1.4 patched=yes ;;
openmpi-cuda)
  # No Fortran: the GPU bundle carries the whole prefix (64 MiB at most).
  pkg=openmpi debver=4.1.4-3 suite=bookworm version=4.1.4 patched=yes fortran=no
  cuda=${cuda:-${CUDA_HOME:-/usr/local/cuda}}
  ;;
*) die2 "unknown MPI '$name' (known: openmpi-5.0.7, mpich-4.2.1, mpich-4.2.1-ofi, openmpi-4.1.4, openmpi-cuda)" ;;
esac
[[ -z $cuda || $pkg == openmpi ]] || die2 "--with-cuda is for Open MPI only (MPICH's CUDA support needs its own build of yaksa)"
if [[ -z $prefix ]]; then
  prefix=/opt/mcb/$name
  [[ -n $cuda && $name != openmpi-cuda ]] && prefix=/opt/mcb/$name-cuda
fi
jobs=${JOBS:-$(nproc)}
work=${WORK:-/tmp/mcb-mpi-src}
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
start=$(date +%s)

# Already built? The library's own version string, and CUDA where asked.
# (No `grep -q` or `head` after a pipe in this script: they stop reading at
# the first match, the writer dies of SIGPIPE, and pipefail turns a match
# into a failure: `apt-cache showsrc openmpi | grep -qx` gave 141.)
built() {
  if [[ $pkg == openmpi ]]; then
    [[ -x $prefix/bin/ompi_info ]] || return 1
    "$prefix/bin/ompi_info" --version 2>/dev/null | sed -n 1p | grep "^Open MPI v$version\$" >/dev/null || return 1
    # Fortran: the three bindings (a prefix of an earlier build without them is built again).
    [[ $fortran == no ]] || "$prefix/bin/ompi_info" --parsable 2>/dev/null |
      grep '^bindings:use_mpi_f08:yes$' >/dev/null || return 1
    [[ -z $cuda ]] || "$prefix/bin/ompi_info" --parsable --all 2>/dev/null |
      grep 'mpi_built_with_cuda_support:value:true' >/dev/null
  else
    [[ -x $prefix/bin/mpichversion ]] && "$prefix/bin/mpichversion" 2>/dev/null | grep "MPICH Version:[[:space:]]*$version\$" >/dev/null &&
      "$prefix/bin/mpichversion" 2>/dev/null | grep "MPICH Device:[[:space:]]*ch4:${device:-ucx}" >/dev/null &&
      [[ -x $prefix/bin/mpifort && -n $(ls "$prefix"/lib/libmpifort.so* 2>/dev/null) ]]
  fi
}
if built; then
  echo "$me: $prefix already has $name${cuda:+ with CUDA}"
  exit 0
fi
[[ -z $cuda || -f $cuda/include/cuda.h ]] || die2 "no $cuda/include/cuda.h (set CUDA_HOME or --with-cuda=DIR)"
for tool in gcc g++ gfortran make perl tar xz; do
  command -v "$tool" >/dev/null || die2 "no $tool on the PATH (apt-get install build-essential gfortran xz-utils)"
done

# The source: Debian's source package (a deb-src line for bookworm and
# trixie main, added once in a file of its own), or MCB_MPI_TARBALL.
mkdir -p "$work"
cd "$work"
src=$work/$name-src
if [[ ! -f $src/.mcb-unpacked ]]; then
  rm -rf "$src"
  if [[ -n ${MCB_MPI_TARBALL:-} ]]; then
    [[ -f $MCB_MPI_TARBALL ]] || die2 "MCB_MPI_TARBALL=$MCB_MPI_TARBALL does not exist"
    origin="upstream tarball $(basename "$MCB_MPI_TARBALL")"
    mkdir -p "$src" && tar -xf "$MCB_MPI_TARBALL" -C "$src" --strip-components=1
  else
    command -v apt-get >/dev/null || die2 "no apt-get: give the release tarball in MCB_MPI_TARBALL"
    srcfile=/etc/apt/sources.list.d/mcb-deb-src.sources
    if ! apt-cache showsrc "$pkg" 2>/dev/null | grep -x "Version: $debver" >/dev/null; then
      $sudo tee "$srcfile" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
      $sudo apt-get update -q >/dev/null || die2 "apt-get update failed (no network to deb.debian.org?)"
      apt-cache showsrc "$pkg" 2>/dev/null | grep -x "Version: $debver" >/dev/null ||
        die2 "Debian has no source package $pkg $debver in $suite (apt-cache showsrc $pkg)"
    fi
    command -v dpkg-source >/dev/null ||
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends dpkg-dev >/dev/null
    apt-get source --download-only --only-source "$pkg=$debver" >"$work/$name-download.log" 2>&1 ||
      die2 "Debian's mirror did not give $pkg $debver ($(grep -m1 -E '^E:' "$work/$name-download.log")): give the release tarball in MCB_MPI_TARBALL"
    origin="Debian source package $pkg $debver ($suite)"
    if [[ $patched == yes ]]; then  # Debian's patches applied, as the system's build
      dpkg-source -x "${pkg}_$debver.dsc" "$src" >/dev/null
    else  # the upstream release as it is in the source package (its .orig tarball)
      orig=$(ls "${pkg}_${debver%-*}".orig.tar.*)
      mkdir -p "$src" && tar -xf "$orig" -C "$src" --strip-components=1
      origin="$origin, its release tarball without Debian's patches"
    fi
  fi
  echo "$origin" >"$src/.mcb-origin"
  touch "$src/.mcb-unpacked"
fi
origin=$(cat "$src/.mcb-origin")
cd "$src"

# Configure: C, C++ and Fortran, all three bindings (mpif.h, use mpi, use
# mpi_f08) as users' MPIs have them: the preload's Fortran entry points are
# tested on every MPI (issue 73). Open MPI without UCX or OFI:
# on a node without InfiniBand Debian's 4.1.4 declines its UCX pml and runs
# ob1 over vader (mpirun --mca pml_base_verbose 10 says so), and 5.0.7
# without them runs ob1 over sm (vader's new name): the same path.
if [[ $pkg == openmpi ]]; then
  if [[ $patched == yes && ! -f .mcb-autogen-done ]]; then
    # Debian's patches touch configure.ac and Makefile.am: regenerate as
    # Debian's own build does (debian/rules runs autogen.pl).
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
      flex autoconf automake libtool libhwloc-dev libevent-dev >/dev/null
    ./autogen.pl --force >"$work/$name-autogen.log" 2>&1 || { tail -n 30 "$work/$name-autogen.log"; exit 1; }
    touch .mcb-autogen-done
  fi
  conf=(--prefix="$prefix" --without-ucx --without-ofi --without-verbs --with-pmix=internal --disable-man-pages)
  if [[ $fortran == yes ]]; then conf+=(--enable-mpi-fortran=all); else conf+=(--disable-mpi-fortran); fi
  if [[ $version == 5.* ]]; then
    # 5.0's own PMIx, PRRTE, hwloc and libevent (Debian 12's PMIx 4.2.2 is
    # too old for PRRTE 3); no OpenSHMEM.
    conf+=(--with-prrte=internal --with-hwloc=internal --with-libevent=internal --disable-oshmem)
  else
    conf+=(--with-hwloc=external --with-libevent=external)
  fi
  # CUDA: the smcuda BTL (CUDA IPC between the processes of a GPU) and
  # coll/cuda's host staging, no UCX.
  [[ -z $cuda ]] || conf+=(--with-cuda="$cuda" --enable-mpi-ext=cuda)
else
  # As Debian builds its MPICH (mpichversion of Debian 12's 4.0.2 lists
  # its configure line): ch4:ucx over Debian's UCX, Debian's hwloc, the
  # dataloop datatype engine (Debian's --without-yaksa), hydra, no GPU
  # support; so that an upgrade from Debian's 4.0.2 changes the version and
  # nothing else. Fortran as Debian's (--enable-fortran=all, with the flags
  # gfortran 10 and later need for MPICH's interfaces). (Left to itself, 4.2.1's configure finds
  # Debian's libamdhip64, which mcb's HIP backend installs, and then every
  # MPI_Init on a machine without an AMD GPU fails in MPII_init_gpu
  # "gpu_init failed" unless MPIR_CVAR_ENABLE_GPU=0: docs/mpi-versions.md.)
  # mpich-4.2.1-ofi: ch4:ofi over Debian's libfabric, with MPICH's own
  # datatype engine (yaksa): the ofi netmod calls MPIR_Typerep_test, which
  # only yaksa defines (with dataloop libmpi.so keeps an undefined symbol).
  devpkg=libucx-dev devconf=(--with-device=ch4:ucx --with-ucx=/usr --with-datatype-engine=dataloop)
  [[ ${device:-ucx} == ofi ]] && devpkg=libfabric-dev devconf=(--with-device=ch4:ofi --with-libfabric=/usr)
  for dev in $devpkg libhwloc-dev; do
    dpkg-query -W -f='${Status}' $dev 2>/dev/null | grep 'install ok installed' >/dev/null ||
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $dev >/dev/null ||
      die2 "$dev is missing and could not be installed"
  done
  conf=(--prefix="$prefix" "${devconf[@]}" --with-hwloc=/usr --with-pm=hydra
    --without-cuda --without-hip --without-ze --enable-fortran=all --disable-doc --enable-fast=O2
    "FFLAGS=-O2 -fallow-invalid-boz -fallow-argument-mismatch" "FCFLAGS=-O2 -fallow-invalid-boz -fallow-argument-mismatch")
fi
echo "$me: $name from $origin into $prefix${cuda:+ with CUDA from $cuda}, $jobs jobs"
# Configured once per option list (a build cut short resumes at make).
if [[ ! -f config.status || "$(cat .mcb-configured 2>/dev/null)" != "${conf[*]}" ]]; then
  rm -f .mcb-configured
  ./configure "${conf[@]}" >"$work/$name-configure.log" 2>&1 || { tail -n 30 "$work/$name-configure.log"; exit 1; }
  if [[ ${device:-} == ofi ]]; then
    # Debian's libfabric.pc lists its static library's dependencies in
    # Libs.private (-lpsm_infinipath -lpsm2 -lrdmacm -libverbs -lefa) and
    # MPICH's configure puts them on every link line; without their -dev
    # packages libmpi.so does not link. The shared libfabric.so carries its
    # own dependencies: drop them.
    grep -rl --include=Makefile --include='*.pc' -e '-lpsm_infinipath' -e '-lpsm2' . |
      xargs -r sed -i -E 's/ -l(psm_infinipath|psm2|rdmacm|ibverbs|efa)\b//g'
  fi
  echo "${conf[*]}" >.mcb-configured
fi
make -j "$jobs" >"$work/$name-make.log" 2>&1 || { tail -n 40 "$work/$name-make.log"; exit 1; }
$sudo make install >"$work/$name-install.log" 2>&1 || { tail -n 20 "$work/$name-install.log"; exit 1; }
built || { echo "$me: $prefix was installed but does not report $name${cuda:+ with CUDA}" >&2; exit 1; }
$sudo mkdir -p "$prefix/share" && echo "$origin" | $sudo tee "$prefix/share/mcb-mpi-origin.txt" >/dev/null
secs=$(($(date +%s) - start))
echo "$me: done: $name in $prefix ($((secs / 60)) min $((secs % 60)) s, $jobs jobs)"
