#!/usr/bin/env bash
# Builds mcb for a GPU machine and gathers it, with the MPI it runs on and
# every shared library they load (glibc's and the GPU driver's aside), into
# folders that run on an x86-64 machine that has only a GPU driver and a
# newer glibc (the lent machines: Ubuntu 24.04 with CUDA 13's driver, no
# MPI). Two bundles, one per MPI:
#   OUT/debian     mcb with Debian's Open MPI 4.1.4 (cannot read device
#                  memory: host copies, and the --gpu-aware yes refusal)
#   OUT/ompi-cuda  mcb with the CUDA-aware Open MPI of
#                  scripts/mpi/build-mpi.sh openmpi-cuda (left out, with a line,
#                  where that prefix is missing)
# each with an env.sh to source, and both packed in OUT/pack/bundles.tar.xz
# (about 12 MB against 68 MB unpacked: carry OUT/pack to the GPU machine).
# ci/gpu-check.sh runs both, unpacking the pack where the folders are absent.
#   scripts/gpu/bundle.sh [OUT]   (default .gpu, ignored by git)
# Environment: MCB_CUDA_ARCH (default 90: H100/H200), MCB_MPI_CUDA_PREFIX
# (default /opt/mcb/openmpi-cuda).
# Prove a bundle here with the system's MPI and CUDA hidden (as root):
#   unshare --mount bash -c 'for d in /usr/lib/x86_64-linux-gnu/openmpi \
#     /usr/lib/x86_64-linux-gnu/pmix2 /usr/share/openmpi /usr/local/cuda /opt/mcb; do
#     mount -t tmpfs none $d; done; env -i PATH=/usr/bin:/bin bash -c \
#     "source OUT/debian/env.sh; mpirun -n 2 mcb_allreduce -c -m 1024"'
# (tests/gpu/bundle_hidden.sh does exactly that for both bundles).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.gpu}
arch=${MCB_CUDA_ARCH:-90}
cuda_prefix=${MCB_MPI_CUDA_PREFIX:-/opt/mcb/openmpi-cuda}
jobs=$(nproc)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# The binaries a GPU check runs, and the unit tests (the device kernels' test).
targets=(mcb_allreduce mcb_alltoall mcb_allgather mcb_pingpong mcb_copy_bw mcb_unit_tests)

build() {  # build DIR CMAKE_ARGS...
  local dir=$1
  shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DMCB_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    -DMCB_ENABLE_HIP=OFF "${launcher[@]}" "$@" >/dev/null
  cmake --build "$dir" -j "$jobs" --target "${targets[@]}"
}

# gather BUILD DEST: mcb's binaries into DEST/bin, and the closure of the
# shared libraries that DEST/bin and the MPI's plugins (already in DEST) load
# into DEST/lib.
gather() {
  local b=$1 dest=$2
  mkdir -p "$dest/bin" "$dest/lib"
  for t in "${targets[@]}"; do
    find "$b" -name "$t" -type f -perm -u+x -exec cp {} "$dest/bin/" \;
  done
  local skip='^(libc|libm|libdl|libpthread|librt|libcuda|libnvidia-ml|ld-linux-x86-64|libresolv|libutil)\.so'
  local files
  mapfile -t files < <(find "$dest" -type f \( -perm -u+x -o -name '*.so*' \) ! -name '*.la')
  declare -A seen=()
  while ((${#files[@]})); do
    local f=${files[0]}
    files=("${files[@]:1}")
    while read -r name path; do
      [[ -z "$path" || "$path" == "not" || "$name" =~ $skip || -n "${seen[$name]:-}" ]] && continue
      seen[$name]=1
      [[ -e "$dest/lib/$name" ]] && continue
      cp -L "$path" "$dest/lib/$name"
      files+=("$dest/lib/$name")
    done < <(ldd "$f" 2>/dev/null | awk '/=>/ {print $1, $3}')
  done
}

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Debian's Open MPI, in Debian's layout so that OPAL_PREFIX relocates it.
echo "== bundle: mcb with Debian's Open MPI"
build build-gpu-debian -DMCB_MPI=openmpi
d=$out/debian
ompilib=lib/x86_64-linux-gnu/openmpi/lib
mkdir -p "$d/bin" "$d/$ompilib" "$d/share" "$d/pmix"
cp /usr/bin/orterun "$d/bin/mpirun"
cp -r /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 "$d/$ompilib/"
cp -r /usr/share/openmpi "$d/share/"
cp -r /usr/lib/x86_64-linux-gnu/pmix2/lib/pmix "$d/pmix/"
gather build-gpu-debian "$d"
cat > "$d/env.sh" <<'ENV'
# source this file: the bundle's mpirun (Debian's Open MPI 4.1.4) and libraries first
B=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=$B/bin:$PATH LD_LIBRARY_PATH=$B/lib:${LD_LIBRARY_PATH:-} OPAL_PREFIX=$B
export OMPI_MCA_mca_base_component_path=$B/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
export PMIX_MCA_mca_base_component_path=$B/pmix/pmix PMIX_MCA_pcompress_base_silence_warning=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_osc=sm,pt2pt
ENV

# The CUDA-aware Open MPI: its whole prefix (relocated by OPAL_PREFIX).
if [[ -x "$cuda_prefix/bin/mpicxx" ]]; then
  echo "== bundle: mcb with the CUDA-aware Open MPI of $cuda_prefix"
  build build-gpu-ompi-cuda -DMCB_MPI=openmpi-cuda -DMCB_MPI_PREFIX="$cuda_prefix"
  c=$out/ompi-cuda
  mkdir -p "$c"
  cp -a "$cuda_prefix/bin" "$cuda_prefix/lib" "$cuda_prefix/share" "$c/"
  rm -rf "$c/share/man" "$c/share/doc" "$c/lib/pkgconfig" "$c/lib"/*.la "$c/lib/openmpi"/*.la
  gather build-gpu-ompi-cuda "$c"
  cat > "$c/env.sh" <<'ENV'
# source this file: the bundle's mpirun (a CUDA-aware Open MPI 4.1.4) and libraries first
B=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=$B/bin:$PATH LD_LIBRARY_PATH=$B/lib:${LD_LIBRARY_PATH:-} OPAL_PREFIX=$B
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Shared memory with CUDA IPC between the processes of a node (smcuda), no network.
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,smcuda,vader OMPI_MCA_osc=sm,pt2pt
ENV
else
  echo "bundle: no CUDA-aware Open MPI in $cuda_prefix (scripts/mpi/build-mpi.sh openmpi-cuda): only the Debian bundle" >&2
fi
mkdir -p "$out/pack"
tar -C "$out" -cJf "$out/pack/bundles.tar.xz" $(cd "$out" && ls -d debian ompi-cuda 2>/dev/null)
du -sh "$out"/* | sed 's/^/bundle: /'
