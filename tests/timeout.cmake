# --timeout SECONDS (issue 47: a hang is a result, not a wait). A step (one
# size of one configuration in one phase mode) that does not finish within
# SECONDS ends the run: rank 0 prints one line naming the algorithm, its
# parameters, the size and the iteration it was stuck in, and every rank
# exits with 3. mcb_hang_alltoall's `hang` blocks one rank in MPI_Recv from
# --hang-from bytes on, after --hang-after good calls at that size; it is in
# no production registry. Each run below would hang without the watchdog and
# then fail on run_mpi.py's --timeout 40, well inside CTest's 60. run_mpi.py
# echoes stdout, then stderr after "--- stderr ---"; a ";" in an argument
# would split it (a CMake list).
add_executable(mcb_hang_alltoall mpi/hang_alltoall.cpp)
target_link_libraries(mcb_hang_alltoall PRIVATE mcb_harness)
target_include_directories(mcb_hang_alltoall PRIVATE ${PROJECT_SOURCE_DIR}/src/alltoall)
set(HANG $<TARGET_FILE:mcb_hang_alltoall>)
set(TIMEOUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/timeout)
file(MAKE_DIRECTORY ${TIMEOUT_DIR})

# mcb_timeout_test(NAME RANKS LINE [checks...] -- PROGRAM ARGS...): the run
# ends by --timeout, its one timeout line matching LINE, no process left.
function(mcb_timeout_test name ranks line)
  add_test(NAME ${name} COMMAND ${MCB_RUN_MPI} -n ${ranks} --timeout 40 "--expect-timeout=${line}" --expect-none-left
                                ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 60 LABELS "mpi;timeout")
endfunction()

# 2 ranks: pairwise runs every size, then `hang` stops rank 1 in the first
# warm-up call at 16 B. The rows of pairwise and of hang's 1..8 B stay in
# the CSV; 16 B has none.
mcb_timeout_test(timeout_warmup_p2 2
                 "^mcb_hang_alltoall: timeout: alltoall algorithm 'hang' \\(hang-after=0, hang-from=16, stuck-rank=1\\) at 16 B did not finish warm-up iteration 1 of 1 within 3 s$"
                 --expect-csv-sizes ${TIMEOUT_DIR}/warmup.csv pairwise 1,2,4,8,16,32,64
                 --expect-csv-sizes ${TIMEOUT_DIR}/warmup.csv hang 1,2,4,8
                 -- ${HANG} --algorithm pairwise,hang --hang-from 16 --timeout 3 -m 1:64 -i 3 -x 1 -c
                 --csv ${TIMEOUT_DIR}/warmup.csv)

# 3 ranks: rank 2 stops in the second timed iteration at 4 B (one warm-up
# and one timed call went through); the table has the rows of 1 and 2 B.
mcb_timeout_test(timeout_timed_p3 3
                 "^mcb_hang_alltoall: timeout: alltoall algorithm 'hang' \\(hang-after=2, hang-from=4, stuck-rank=2\\) at 4 B did not finish timed iteration 2 of 3 \\(after 1 warm-up iteration\\) within 3 s$"
                 --expect-stdout "^1 .* pass$" --expect-stdout "^2 .* pass$" --expect-stdout "\\A(?![\\s\\S]*^4 )"
                 --expect-csv-sizes ${TIMEOUT_DIR}/timed.csv hang 1,2
                 -- ${HANG} --algorithm hang --hang-from 4 --hang-after 2 --stuck-rank 2 --timeout 3 -m 1:16 -i 3 -x 1
                 -c --csv ${TIMEOUT_DIR}/timed.csv)

# 3 ranks: rank 0 itself is the stuck one, in isolated phase mode, with no
# warm-up; fractional seconds.
mcb_timeout_test(timeout_rank0_p3 3
                 "^mcb_hang_alltoall: timeout: alltoall algorithm 'hang' \\(hang-after=0, hang-from=8, stuck-rank=0\\) in isolated phase mode at 8 B did not finish timed iteration 1 of 2 \\(no warm-up\\) within 2\\.5 s$"
                 --expect-csv-sizes ${TIMEOUT_DIR}/rank0.csv hang 1,2,4
                 -- ${HANG} --algorithm hang --hang-from 8 --stuck-rank 0 --timeout 2.5 -m 1:64 -i 2 -x 0
                 --phase-mode isolated --csv ${TIMEOUT_DIR}/rank0.csv)

# Two real nodes on fake hosts (tests/multihost.cmake): the rank on the
# second node is stuck, its peers wait over the network path.
mcb_timeout_test(timeout_multihost_p3 3
                 "^mcb_hang_alltoall: timeout: alltoall algorithm 'hang' .* at 4 B did not finish timed iteration 2 of 3 "
                 --hosts n1:2,n2:1 --expect-stdout "ranks: 3, nodes: 2, ranks per node: uneven"
                 -- ${HANG} --algorithm hang --hang-from 4 --hang-after 2 --stuck-rank 2 --timeout 3 -m 1:16 -i 3 -x 1)
set_tests_properties(timeout_multihost_p3 PROPERTIES LABELS "mpi;timeout;multihost")

# Every binary on the harness takes --timeout; a limit that every step
# keeps changes nothing (rows pass, every rank exits 0).
set(TIMEOUT_OK -c -m 4,64 -i 2 -x 1 --timeout 60)
mcb_mpi_test(timeout_kept_alltoall 2 --expect-rows 2 -- ${A2A} --algorithm pairwise ${TIMEOUT_OK})
mcb_mpi_test(timeout_kept_allgather 2 --expect-rows 2 -- $<TARGET_FILE:mcb_allgather> --algorithm ring ${TIMEOUT_OK})
mcb_mpi_test(timeout_kept_allreduce 2 --expect-rows 2 -- $<TARGET_FILE:mcb_allreduce> --algorithm ring ${TIMEOUT_OK})
mcb_mpi_test(timeout_kept_reduce 2 --expect-rows 2 -- $<TARGET_FILE:mcb_reduce> --algorithm system ${TIMEOUT_OK})
mcb_mpi_test(timeout_kept_bcast 2 --expect-rows 2 -- $<TARGET_FILE:mcb_bcast> --algorithm system ${TIMEOUT_OK})
mcb_mpi_test(timeout_kept_pingpong 2 --expect-rows 2 -- $<TARGET_FILE:mcb_pingpong> --ranks-per-node 1 ${TIMEOUT_OK})
mcb_mpi_test(timeout_kept_breakdown 2 --expect-rows 4 -- $<TARGET_FILE:mcb_breakdown> --algorithm pairwise ${TIMEOUT_OK})
if(TARGET mcb_fft)
  mcb_mpi_test(timeout_kept_fft 2 --expect-rows 2 -- $<TARGET_FILE:mcb_fft> --algorithm pairwise -c -m 16,64 -i 2 -x 1
               --timeout 60)
endif()

mcb_bad_input(timeout_negative 3 "--timeout -1: must be >= 0 seconds" -- ${A2A} --timeout -1)
mcb_bad_input(timeout_nan 2 "--timeout nan: must be >= 0 seconds" -- $<TARGET_FILE:mcb_allreduce> --timeout nan)
mcb_bad_input(timeout_text 3 "Could not convert: --timeout = soon" -- ${HANG} --timeout soon)

# run_mpi.py's --expect-none-left must see a process that a run leaves
# behind (and the cleanup must still kill it).
add_test(NAME timeout_none_left_check COMMAND ${RUN_MPI} --no-mpi --expect-none-left -- sh -c "sleep 30 >/dev/null 2>&1 &")
set_tests_properties(timeout_none_left_check PROPERTIES TIMEOUT 60 LABELS timeout
                     PASS_REGULAR_EXPRESSION "FAIL: processes left 10 s after the launcher exited:\n  [0-9]+ sleep 30")
