# scripts/tuning/tune.py (issue 22): the choice and both files from crafted
# measurements with known answers (no MPI), bad input, and the files loaded
# by the real MPI at 2 and 4 ranks with the chosen algorithms observed to run
# (Open MPI: libmcb_ompi_coll_trace.so; MPICH: a file that gives alltoall to
# an algorithm that ignores the send buffer makes validation fail at exactly
# those sizes), and a small real sweep verified by re-running it.
# Per MPI version (issue 47): crafted_openmpi5 writes the same choice in Open
# MPI 5's rules format, and tune_versions checks what the scripts read from
# each version (ompi_info --parsable of 4.1.4 and 5.0.7, mpivars of MPICH
# 4.0.2 and 4.2.1, captured in tests/tune/data/) without running any MPI.
# The cases that run the MPI use the build's own launcher (MPIEXEC_EXECUTABLE),
# so ci/test-mpi.sh PREFIX runs them on that MPI.
set(MCB_TUNE_CASE ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tune/run_case.py)
foreach(case crafted_openmpi crafted_openmpi5 crafted_mpich crafted_multiradix bad_input verify sweep)
  add_test(NAME tune_${case}
           COMMAND ${MCB_TUNE_CASE} ${case} ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${MCB_MPI_FLAVOR}
                   ${CMAKE_CURRENT_BINARY_DIR}/tune/${case} $<TARGET_FILE:mcb_mpich_yield>)
  set_tests_properties(tune_${case} PROPERTIES LABELS scripts TIMEOUT 300 PASS_REGULAR_EXPRESSION "tune: ok"
                       FAIL_REGULAR_EXPRESSION "FAIL|Traceback")
endforeach()
set_tests_properties(tune_bad_input PROPERTIES LABELS "scripts;bad_input")
set_tests_properties(tune_verify tune_sweep PROPERTIES LABELS "scripts;mpi")
add_test(NAME tune_versions COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tune/test_versions.py)
set_tests_properties(tune_versions PROPERTIES LABELS scripts TIMEOUT 60 PASS_REGULAR_EXPRESSION "tune: ok"
                     FAIL_REGULAR_EXPRESSION "FAIL|Traceback")
# scripts/compare/compare_selectors.py: its pairs' forcing values per version (in
# tune_versions' Selectors, run alone here), and one short real comparison on
# the build's MPI: every pair forced by the value its own ompi_info or mpivars
# gives, the CSV checked by the script (ranks, library).
add_test(NAME selectors_forcing_values
         COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tune/test_versions.py Selectors)
set_tests_properties(selectors_forcing_values PROPERTIES LABELS scripts TIMEOUT 60 PASS_REGULAR_EXPRESSION "tune: ok"
                     FAIL_REGULAR_EXPRESSION "FAIL|Traceback")
if(MCB_MPI_FLAVOR MATCHES "^(openmpi|mpich)$")
  add_test(NAME selectors_run
           COMMAND ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/compare/compare_selectors.py --mpi ${MCB_MPI_FLAVOR}
                   --launcher ${MPIEXEC_EXECUTABLE} --binary $<TARGET_FILE:mcb_alltoall> -n 2 -m 1:64 -i 20 -x 2
                   --repeats 1)
  set_tests_properties(selectors_run PROPERTIES LABELS "scripts;mpi" TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "geomean ratio \\(median\\) ours nonblocking"
                       FAIL_REGULAR_EXPRESSION "error:|Traceback")
  if(MCB_MPI_FLAVOR STREQUAL "mpich")  # hydra hands its environment to the ranks: MPICH's yield shim
    set_tests_properties(selectors_run PROPERTIES ENVIRONMENT "LD_PRELOAD=$<TARGET_FILE:mcb_mpich_yield>")
  endif()
endif()
