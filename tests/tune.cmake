# scripts/tuning/tune.py (issue 22): the choice and both files from crafted
# measurements with known answers (no MPI), bad input, and the files loaded
# by the real MPI at 2 and 4 ranks with the chosen algorithms observed to run
# (Open MPI: libmcb_ompi_coll_trace.so; MPICH: a file that gives alltoall to
# an algorithm that ignores the send buffer makes validation fail at exactly
# those sizes), and a small real sweep verified by re-running it.
set(MCB_TUNE_CASE ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tune/run_case.py)
foreach(case crafted_openmpi crafted_mpich bad_input verify sweep)
  add_test(NAME tune_${case}
           COMMAND ${MCB_TUNE_CASE} ${case} ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${MCB_MPI_FLAVOR}
                   ${CMAKE_CURRENT_BINARY_DIR}/tune/${case} $<TARGET_FILE:mcb_mpich_yield>)
  set_tests_properties(tune_${case} PROPERTIES LABELS scripts TIMEOUT 300 PASS_REGULAR_EXPRESSION "tune: ok"
                       FAIL_REGULAR_EXPRESSION "FAIL|Traceback")
endforeach()
set_tests_properties(tune_bad_input PROPERTIES LABELS "scripts;bad_input")
set_tests_properties(tune_verify tune_sweep PROPERTIES LABELS "scripts;mpi")
