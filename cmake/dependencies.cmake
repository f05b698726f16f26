# Third-party dependencies.
#
# CLI11 and spdlog (used by the benchmark harness, not by libmcb): the
# installed packages when find_package() finds them, otherwise downloaded at
# configure time from pinned upstream commits (FetchContent; a commit id pins
# the content as a hash does). -DMCB_FETCH_DEPS=OFF forbids the download:
# a missing package is then an error naming it. To build offline from a local
# copy of the sources: -DFETCHCONTENT_SOURCE_DIR_CLI11=DIR
# -DFETCHCONTENT_SOURCE_DIR_SPDLOG=DIR (and -DCMAKE_DISABLE_FIND_PACKAGE_<Pkg>=ON
# to prefer them over an installed package).
#
# hwloc: required unless -DMCB_WITH_HWLOC=OFF; without it --region numa,
# package and l3 fail with one line (none and size:K work) and the run
# metadata has no hardware record.
option(MCB_FETCH_DEPS "Download CLI11 and spdlog at configure time when they are not installed" ON)
option(MCB_WITH_HWLOC "Use hwloc for --region numa|package|l3 and the run metadata's hardware record" ON)

set(MCB_CLI11_MIN 2.1)  # Debian 12 has 2.1.2
set(MCB_SPDLOG_MIN 1.10)  # Debian 12 has 1.10.0
set(MCB_CLI11_COMMIT 6c7b07a878ad834957b98d0f9ce1dbe0cb204fc9)  # CLI11 v2.4.2
set(MCB_SPDLOG_COMMIT 7c02e204c92545f869e2f04edaab1f19fe8b19fd)  # spdlog v1.13.0

function(mcb_missing package hint)
  message(FATAL_ERROR "mcb: ${package} not found and MCB_FETCH_DEPS=OFF forbids downloading it: install ${hint}")
endfunction()

if(MCB_FETCH_DEPS AND CMAKE_VERSION VERSION_LESS 3.24)
  message(STATUS "mcb: CMake ${CMAKE_VERSION} < 3.24 cannot fall back to downloading CLI11 and spdlog; "
                 "they must be installed")
  set(MCB_FETCH_DEPS OFF)
endif()

if(MCB_FETCH_DEPS)
  include(FetchContent)
  # Only when downloaded: position-independent, so that any target may link it.
  set(SPDLOG_BUILD_PIC ON CACHE BOOL "mcb: build a fetched spdlog with -fPIC")
  FetchContent_Declare(CLI11 GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git GIT_TAG ${MCB_CLI11_COMMIT}
                       FIND_PACKAGE_ARGS ${MCB_CLI11_MIN})
  FetchContent_Declare(spdlog GIT_REPOSITORY https://github.com/gabime/spdlog.git GIT_TAG ${MCB_SPDLOG_COMMIT}
                       FIND_PACKAGE_ARGS ${MCB_SPDLOG_MIN})
  FetchContent_MakeAvailable(CLI11 spdlog)
else()
  find_package(CLI11 ${MCB_CLI11_MIN} QUIET)
  if(NOT CLI11_FOUND)
    mcb_missing(CLI11 "it (Debian/Ubuntu: libcli11-dev, Fedora/RHEL: cli11-devel, Spack: cli11) or give -DCLI11_DIR")
  endif()
  find_package(spdlog ${MCB_SPDLOG_MIN} QUIET)
  if(NOT spdlog_FOUND)
    mcb_missing(spdlog "it (Debian/Ubuntu: libspdlog-dev, Fedora/RHEL: spdlog-devel, Spack: spdlog) or give -Dspdlog_DIR")
  endif()
endif()
foreach(target CLI11::CLI11 spdlog::spdlog)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "mcb: ${target} is not defined after finding or fetching it")
  endif()
endforeach()

if(MCB_WITH_HWLOC)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(HWLOC IMPORTED_TARGET hwloc)
  if(NOT HWLOC_FOUND)
    message(FATAL_ERROR "mcb: hwloc not found (pkg-config hwloc): install it (Debian/Ubuntu: libhwloc-dev, "
                        "Fedora/RHEL: hwloc-devel, Spack: hwloc) or configure with -DMCB_WITH_HWLOC=OFF")
  endif()
endif()
