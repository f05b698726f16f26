# Builds mcb the ways users off Debian do (issue 23), without network:
#  1. CC/CXX = the MPI compiler wrappers (mpicc/mpicxx), CLI11 and spdlog
#     hidden from find_package and taken from local source trees through
#     FETCHCONTENT_SOURCE_DIR_* (the FetchContent fallback), hwloc off;
#     builds mcb_alltoall, runs it validated on 2 ranks, checks that
#     --region numa is refused in one line and that --version says so;
#  2. MCB_FETCH_DEPS=OFF with CLI11 hidden: configure must fail naming CLI11.
# The local "source trees" are made here from the installed headers (a
# CMakeLists.txt defining the targets the upstream projects define): they
# exercise mcb's fallback path, not the upstream build systems.
#   cmake -DMCB_SOURCE_DIR=... -DWORK_DIR=... -DMPICC=... -DMPICXX=... -DCLI11_INCLUDE=...
#         -DSPDLOG_INCLUDE=... -DRUN_MPI=... [-DLAUNCHER=ccache] -P build_variants.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# Stand-in source trees.
file(COPY ${CLI11_INCLUDE}/CLI DESTINATION ${WORK_DIR}/cli11/include)
file(WRITE ${WORK_DIR}/cli11/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.20)
project(CLI11 LANGUAGES CXX)
message(STATUS "build_variants: CLI11 from the local tree ${CMAKE_CURRENT_SOURCE_DIR}")
add_library(CLI11 INTERFACE)
add_library(CLI11::CLI11 ALIAS CLI11)
target_include_directories(CLI11 INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)
]=])
file(COPY ${SPDLOG_INCLUDE}/spdlog DESTINATION ${WORK_DIR}/spdlog/include)
file(WRITE ${WORK_DIR}/spdlog/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.20)
project(spdlog LANGUAGES CXX)
message(STATUS "build_variants: spdlog from the local tree ${CMAKE_CURRENT_SOURCE_DIR}")
find_package(fmt REQUIRED)  # Debian's spdlog headers use the external fmt
add_library(spdlog_header_only INTERFACE)
add_library(spdlog::spdlog_header_only ALIAS spdlog_header_only)
add_library(spdlog::spdlog ALIAS spdlog_header_only)
target_include_directories(spdlog_header_only INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)
target_compile_definitions(spdlog_header_only INTERFACE SPDLOG_HEADER_ONLY SPDLOG_FMT_EXTERNAL)
target_link_libraries(spdlog_header_only INTERFACE fmt::fmt-header-only)
]=])

set(launcher)
if(LAUNCHER)
  set(launcher -DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()

# 1. Wrappers + local sources + no hwloc. Unoptimized and without debug
# information: what is under test is the configuration (wrappers, fallback,
# no hwloc), not the code generator, and libmcb's cold Release compile took
# 521 s of CI's 1943 s on 2026-12-07 (-O0: 117 s).
set(b ${WORK_DIR}/build)
step(${CMAKE_COMMAND} -E env CC=${MPICC} CXX=${MPICXX}
     ${CMAKE_COMMAND} -S ${MCB_SOURCE_DIR} -B ${b} -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0
     -DCMAKE_C_FLAGS_DEBUG=-O0 -DMCB_BUILD_TESTS=OFF
     -DMCB_ENABLE_CUDA=OFF -DMCB_ENABLE_HIP=OFF -DMCB_WITH_HWLOC=OFF
     -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON
     -DFETCHCONTENT_SOURCE_DIR_CLI11=${WORK_DIR}/cli11 -DFETCHCONTENT_SOURCE_DIR_SPDLOG=${WORK_DIR}/spdlog
     -DFETCHCONTENT_FULLY_DISCONNECTED=ON ${launcher})
foreach(want "CLI11 from the local tree" "spdlog from the local tree" "hwloc OFF")
  if(NOT step_output MATCHES "${want}")
    message(FATAL_ERROR "configure output lacks '${want}':\n${step_output}")
  endif()
endforeach()
file(STRINGS ${b}/CMakeCache.txt cxx REGEX "^CMAKE_CXX_COMPILER:")
if(NOT cxx MATCHES "${MPICXX}")
  message(FATAL_ERROR "the build does not use the wrapper ${MPICXX}: ${cxx}")
endif()
step(${CMAKE_COMMAND} --build ${b} --target mcb_alltoall -j 2)
step(${RUN_MPI} -n 2 --expect-rows 21 -- ${b}/src/mcb_alltoall --algorithm system,pairwise,bruck -m 1:64 -i 10 -x 1 -c)
step(${RUN_MPI} -n 2 --expect-error "--region numa: this mcb was built without hwloc" -- ${b}/src/mcb_alltoall
     --region numa -m 8)
step(${RUN_MPI} -n 1 --expect-stdout "hwloc: no" -- ${b}/src/mcb_alltoall --version)
message(STATUS "build_variants: wrappers, local CLI11/spdlog, no hwloc: built and ran")

# 2. No download allowed and CLI11 hidden: one line naming CLI11.
execute_process(COMMAND ${CMAKE_COMMAND} -E env CC=${MPICC} CXX=${MPICXX}
                ${CMAKE_COMMAND} -S ${MCB_SOURCE_DIR} -B ${WORK_DIR}/nofetch -DMCB_BUILD_TESTS=OFF
                -DMCB_ENABLE_CUDA=OFF -DMCB_ENABLE_HIP=OFF -DMCB_FETCH_DEPS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0 OR NOT out MATCHES "mcb: CLI11 not found and MCB_FETCH_DEPS=OFF forbids downloading it")
  message(FATAL_ERROR "MCB_FETCH_DEPS=OFF without CLI11: exit ${rc}, expected a failure naming CLI11:\n${out}")
endif()
message(STATUS "build_variants: MCB_FETCH_DEPS=OFF without CLI11 refused")
message(STATUS "build_variants: ok")
