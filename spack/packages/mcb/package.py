# Spack recipe for mcb, the many-core collective benchmarks.
#
#   spack repo add <mcb checkout>/spack
#   spack install mcb@develop               # or, from a local checkout:
#   spack develop --path <mcb checkout> mcb@=develop && spack install
#
# spack/README.md has the variants and the offline recipe this file was
# verified with.

import spack.version
from spack.package import *


class Mcb(CMakePackage, CudaPackage, ROCmPackage):
    """OSU-style microbenchmarks of MPI collectives (alltoall, allgather,
    allreduce, reduce, bcast) with many-core and node-aware algorithms,
    optional CUDA/HIP memory backends and an FFT application benchmark."""

    # Placeholders: mcb has no public home yet. Point git at your clone, or
    # build from a checkout with `spack develop` (spack/README.md).
    homepage = "https://example.org/mcb"
    git = "https://example.org/mcb.git"

    maintainers("mcb-developers")

    version("develop", branch="main")

    variant("tests", default=False, description="Build the CTest suite (MCB_BUILD_TESTS)")
    variant(
        "fft",
        default=True,
        description="Build mcb_fft, the FFT application benchmark (needs FFTW 3)",
    )

    # Spack >= 0.23 models the compilers as build dependencies (the c and cxx
    # virtuals); older releases have no such packages.
    if spack.version.Version(spack.spack_version) >= spack.version.Version("0.23"):
        depends_on("c", type="build")
        depends_on("cxx", type="build")

    # cmake_minimum_required(3.20); 3.24 is only needed for downloading CLI11
    # and spdlog (MCB_FETCH_DEPS), which a Spack build never does.
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")  # hwloc and fftw3 are found with pkg-config

    # MPI 3.1 is checked by find_package(MPI 3.1 ...): a versioned virtual
    # (mpi@3.1:) does not concretize against openmpi's "provides(mpi@:3.1)".
    depends_on("mpi")
    depends_on("cli11@2.1:")
    depends_on("spdlog@1.10:")
    depends_on("hwloc@2:")
    depends_on("fftw@3", when="+fft")

    depends_on("googletest", when="+tests")
    depends_on("python@3:", type=("build", "test"), when="+tests")

    # ROCmPackage (up to Spack 0.22) does not pull in hip itself; mcb's HIP
    # backend is host code using find_package(hip CONFIG) and hip::host.
    depends_on("hip", when="+rocm")

    conflicts(
        "cuda_arch=none",
        when="+cuda",
        msg="mcb+cuda needs a CUDA architecture, e.g. cuda_arch=80 or cuda_arch=90",
    )

    def cmake_args(self):
        spec = self.spec
        args = [
            # Everything comes from Spack: never download at configure time.
            self.define("MCB_FETCH_DEPS", False),
            self.define("MCB_WITH_HWLOC", True),
            self.define("MCB_SIMULATE", False),
            self.define("MCB_ENABLE_CUDA", "ON" if spec.satisfies("+cuda") else "OFF"),
            self.define("MCB_ENABLE_HIP", "ON" if spec.satisfies("+rocm") else "OFF"),
            self.define_from_variant("MCB_BUILD_TESTS", "tests"),
            self.define_from_variant("MCB_ENABLE_FFT", "fft"),
            # FindMPI interrogates the MPI's own wrappers: the Spack MPI's, not
            # whatever is first in PATH. MCB_MPI (a Debian-only switch) stays unset.
            self.define("MPI_C_COMPILER", spec["mpi"].mpicc),
            self.define("MPI_CXX_COMPILER", spec["mpi"].mpicxx),
        ]
        if spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CUDA_COMPILER", spec["cuda"].prefix.bin.nvcc))
            cuda_arch = spec.variants["cuda_arch"].value
            if "none" not in cuda_arch:
                args.append(self.define("CMAKE_CUDA_ARCHITECTURES", ";".join(cuda_arch)))
        return args
