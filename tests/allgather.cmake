# mcb_allgather: every algorithm validated against MPI_Allgather for every P
# in 1..20 (neighbor_exchange on even P, recursive_doubling on powers of
# two; their refusal checked elsewhere), blocks of 1, 3, 64 and 5000 bytes,
# block and cyclic order (cyclic on virtual nodes of the smallest divisor
# K > 1 of P, so that the order really differs), in place and not.
set(AG $<TARGET_FILE:mcb_allgather>)
set(AG_CHECK -c -m 1,3,64,5000 -i 2 -x 1 --algorithm all)
# Every algorithm of --list (or its skip line), each table 4 sizes, all passing.
set(AG_ROWS --expect-every-algorithm --expect-rows-per-block 4)
set(AG_ENV)

# MPICH before 4.1: MPI_Allgather_init on a power-of-two P delivers the
# other ranks' blocks on the first MPI_Start only (pmodels/mpich#6423, fixed
# in 4.1). The suite runs system_persistent with MPICH's own workaround (its
# Bruck schedule); this test shows that -c catches the bug without it.
if(MCB_MPI_FLAVOR STREQUAL "mpich" AND MPI_CXX_LIBRARY_VERSION_STRING MATCHES "Version:[ \t]*(3\\.|4\\.0\\.)")
  set(AG_ENV --env MPIR_CVAR_IALLGATHER_INTRA_ALGORITHM=sched_brucks)
  mcb_mpi_test(allgather_mpich_persistent_bug 4 --expect-exit 1
               --expect-stderr "validation failed: algorithm system_persistent, size 8 B"
               -- ${AG} --algorithm system_persistent -c -m 8 -i 2 -x 0)
endif()
foreach(p RANGE 1 20)
  set(skips)
  math(EXPR odd "${p} % 2")
  math(EXPR pow2 "${p} & (${p} - 1)")
  if(odd)
    list(APPEND skips --expect-stdout "# skipping neighbor_exchange, not applicable: needs an even number of ranks")
  endif()
  if(pow2)
    list(APPEND skips
         --expect-stdout "# skipping recursive_doubling, not applicable: needs a power-of-two number of ranks")
  endif()
  set(k ${p})
  foreach(d 7 5 3 2)  # the smallest divisor > 1 wins
    math(EXPR rest "${p} % ${d}")
    if(rest EQUAL 0 AND d LESS p)
      set(k ${d})
    endif()
  endforeach()
  set(cyclic --ranks-per-node ${k} --rank-order cyclic)
  mcb_mpi_test(allgather_p${p} ${p} ${AG_ENV} --expect-ranks ${AG_ROWS} ${skips}
               --expect-stdout "rank order: block.*\n# type: char .1 B., size: bytes per block, memory: host, in place: no"
               -- ${AG} ${AG_CHECK})
  mcb_mpi_test(allgather_p${p}_in_place ${p} ${AG_ENV} --expect-ranks ${AG_ROWS} ${skips}
               --expect-stdout "in place: yes" -- ${AG} ${AG_CHECK} --in-place)
  mcb_mpi_test(allgather_p${p}_cyclic ${p} ${AG_ENV} --expect-ranks ${AG_ROWS} ${skips}
               --expect-stdout "ranks per node: ${k} .virtual nodes., rank order: cyclic" -- ${AG} ${AG_CHECK} ${cyclic})
  mcb_mpi_test(allgather_p${p}_cyclic_in_place ${p} ${AG_ENV} --expect-ranks ${AG_ROWS} ${skips}
               --expect-stdout "rank order: cyclic.*\n.*in place: yes" -- ${AG} ${AG_CHECK} ${cyclic} --in-place)
endforeach()
# Other element types, the isolated phase mode and a --nodes sweep (P = 12,
# 8 and 4 in one run: recursive_doubling runs on 8 and 4 and is skipped on
# 12).
mcb_mpi_test(allgather_p6_double_isolated 6 ${AG_ENV} --expect-ranks --expect-every-algorithm --expect-rows-per-block 3
             --expect-stdout "phase mode: isolated"
             -- ${AG} -c -m 8,24,4096 -i 2 -x 0 -T double --phase-mode isolated --algorithm all --in-place)
mcb_mpi_test(allgather_p12_nodes 12 ${AG_ENV} --expect-every-algorithm --expect-rows-per-block 2
             --expect-stdout "# skipping recursive_doubling, not applicable: needs a power-of-two number of ranks .12 ranks"
             -- ${AG} -c -m 4,1000 -i 2 -x 0 -T int --ranks-per-node 4 --nodes 1,2,3 --algorithm all)

# Named explicitly where it does not apply, an algorithm is an error.
mcb_bad_input(allgather_ne_odd 7 "neighbor_exchange needs an even number of ranks .7 ranks"
              -- ${AG} --algorithm ring,neighbor_exchange -m 8)
mcb_bad_input(allgather_rd_six 6 "recursive_doubling needs a power-of-two number of ranks .6 ranks"
              -- ${AG} --algorithm recursive_doubling -m 8)
mcb_bad_input(allgather_rd_nodes 8 "recursive_doubling needs a power-of-two number of ranks .6 ranks"
              -- ${AG} --algorithm recursive_doubling -m 8 --ranks-per-node 2 --nodes 2,3)
mcb_bad_input(allgather_too_large 3 "a buffer of 3221225472 bytes on 3 ranks is too large for one MPI count"
              -- ${AG} -m 1073741824)
mcb_bad_input(alltoall_in_place 3 "--in-place" -- ${A2A} --in-place)
mcb_bad_input(allgather_unknown 3 "unknown algorithm 'sparbitt'" -- ${AG} --algorithm sparbitt)

# Sparbit's schedule, counted: the messages (one per block) each rank sends
# to rank + d in the step of distance d, for every P up to the run's size on
# the first P ranks, against sparbit_schedule(); P = 6 must give 1, 1, 3.
add_executable(test_sparbit_count mpi/test_sparbit_count.cpp support/count_messages.cpp)
target_link_libraries(test_sparbit_count PRIVATE mcb)
target_include_directories(test_sparbit_count PRIVATE support)
mcb_mpi_test(sparbit_count_p13 13 --expect-stdout "P=6: blocks per step 1,1,3"
             --expect-stdout "P=13: blocks per step 1,2,3,6" --expect-stdout "all counts match the schedule"
             -- $<TARGET_FILE:test_sparbit_count>)

# scripts/compare/compare_best.py: crafted rows with a known answer (in a directory
# of their own: compare_best_runs writes its cells.csv in parallel), then the
# rows of real block and cyclic runs.
add_test(NAME compare_best_crafted COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/test_compare_best.py
         ${PROJECT_SOURCE_DIR}/scripts/compare/compare_best.py ${CMAKE_CURRENT_BINARY_DIR}/compare_best_crafted)
set_tests_properties(compare_best_crafted PROPERTIES LABELS scripts TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "compare_best: ok" FAIL_REGULAR_EXPRESSION "FAIL")
set(CB_DIR ${CMAKE_CURRENT_BINARY_DIR}/compare_best)
file(MAKE_DIRECTORY ${CB_DIR})
mcb_mpi_test(compare_best_block 6 ${AG_ENV} --expect-rows 21
             -- ${AG} -c -m 1,64,4096 -i 5 -x 1 --algorithm all --csv ${CB_DIR}/block.csv)
mcb_mpi_test(compare_best_cyclic 6 ${AG_ENV} --expect-rows 21
             -- ${AG} -c -m 1,64,4096 -i 5 -x 1 --algorithm all --ranks-per-node 3 --rank-order cyclic
             --csv ${CB_DIR}/cyclic.csv)
set_tests_properties(compare_best_block compare_best_cyclic PROPERTIES FIXTURES_SETUP compare_best)
add_test(NAME compare_best_runs COMMAND ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/compare/compare_best.py
         ${CB_DIR}/block.csv ${CB_DIR}/cyclic.csv --cells ${CB_DIR}/cells.csv)
set_tests_properties(compare_best_runs PROPERTIES FIXTURES_REQUIRED compare_best LABELS scripts TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "rank order block: processes 6.*rank order cyclic: processes 6")

# The issue's acceptance run, as a user types it: 7 ranks, every algorithm,
# OSU's default sizes, but 20 iterations instead of OSU's defaults, which
# take a fraction of the time and validate the same (CI time).
set(ACCEPT_ITERATIONS -i 20 -x 2)
mcb_mpi_test(allgather_done_p7 7 ${AG_ENV} --expect-ranks --expect-every-algorithm --expect-rows-per-block 21
             --expect-stdout "# skipping neighbor_exchange, not applicable: needs an even number of ranks .7 ranks"
             --expect-stdout "# skipping recursive_doubling, not applicable: needs a power-of-two number of ranks"
             --expect-stdout "^1048576 .* pass" -- ${AG} --algorithm all -c -f ${ACCEPT_ITERATIONS})
mcb_mpi_test(allgather_list 1 --expect-stdout "^  sparbit" --expect-stdout "^  neighbor_exchange .*even P only"
             -- ${AG} --list)
mcb_mpi_test(allgather_help 1 "--expect-stdout=-l,--in-place" -- ${AG} --help)
