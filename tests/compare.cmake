# scripts/compare/compare.py, the regression gate between two sets of runs, on crafted
# CSVs with a known answer (tests/compare/make_csvs.py writes them; run_case.py
# checks the exit status, the flagged rows and the messages). No MPI. Each
# case writes into a directory of its own: the tests may run in parallel.
# compare_missing: rows NEW lacks (a hang ended its run) listed in full and
# failing the gate unless --missing warn. compare_html: the --html page
# loaded in headless Chromium (compare/html_page.py: one decoded plot per
# collective, the regression marked, the row NEW lacks listed, the
# environment difference; a broken copy of the page must fail the same
# checks); skipped (exit 77) only where there is no Chromium
# (ci/install-deps.sh installs it).
foreach(case ok regression noisy bad_input plot missing html)
  add_test(NAME compare_${case}
           COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/compare/run_case.py ${case}
                   ${PROJECT_SOURCE_DIR}/scripts/compare/compare.py ${CMAKE_CURRENT_BINARY_DIR}/compare/${case})
  set_tests_properties(compare_${case} PROPERTIES LABELS scripts TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "compare: ok" FAIL_REGULAR_EXPRESSION "FAIL|Traceback")
endforeach()
set_tests_properties(compare_html PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)

# scripts/measure/osu_parity.py (mcb against OSU) with a stand-in OSU: every size in
# the table, the verdict, bad input refused (tests/osu_parity/check.sh).
add_executable(mcb_osu_standin osu_parity/osu_standin.c)
target_link_libraries(mcb_osu_standin PRIVATE MPI::MPI_C)
add_test(NAME osu_parity_standin
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/osu_parity/check.sh ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR} ${MCB_MPI_FLAVOR} ${CMAKE_CURRENT_BINARY_DIR}/osu_parity
                 $<TARGET_FILE:mcb_osu_standin>)
set_tests_properties(osu_parity_standin PROPERTIES LABELS "scripts;mpi" TIMEOUT 180
                     PASS_REGULAR_EXPRESSION "osu_parity check: 0 failures")

# scripts/mpi/upgrade_gate.py (docs/mpi-versions.md) on this build twice:
# interleaved launches bound to cores, the CSVs per side, compare.py's
# reports, bad input (tests/mpi_versions/gate_check.sh).
add_test(NAME upgrade_gate_same_build
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi_versions/gate_check.sh ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/upgrade_gate)
set_tests_properties(upgrade_gate_same_build PROPERTIES LABELS "scripts;mpi" TIMEOUT 240
                     PASS_REGULAR_EXPRESSION "gate_check: ok" FAIL_REGULAR_EXPRESSION "FAIL|Traceback")

# scripts/mpi/build-mpi.sh's bad input: one line and exit 2, nothing built
# (tests/mpi_versions/build_mpi_bad_input.sh).
add_test(NAME build_mpi_bad_input COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi_versions/build_mpi_bad_input.sh
                                          ${PROJECT_SOURCE_DIR})
set_tests_properties(build_mpi_bad_input PROPERTIES LABELS "scripts;bad_input" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "build_mpi_bad_input: ok" FAIL_REGULAR_EXPRESSION "FAIL")

# scripts/measure/interface_parity.py (blocking against persistent): one launch of
# one cell on this build, and its bad input (tests/scripts/interface_parity_check.sh).
add_test(NAME interface_parity_check
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/interface_parity_check.sh ${MCB_SYSTEM_PYTHON}
                 ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${MCB_MPI_FLAVOR}
                 ${CMAKE_CURRENT_BINARY_DIR}/interface_parity)
set_tests_properties(interface_parity_check PROPERTIES LABELS "scripts;mpi;bad_input" TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "interface_parity_check: ok" FAIL_REGULAR_EXPRESSION "FAIL|Traceback")

# scripts/peers/decomposition.py (the shared-memory reduce_scatter_block +
# allgather against the allreduce): one run of two sizes, bad input
# (tests/scripts/decomposition_check.sh).
add_test(NAME decomposition_check
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/decomposition_check.sh ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR} ${MCB_MPI_FLAVOR} ${CMAKE_CURRENT_BINARY_DIR}/decomposition)
set_tests_properties(decomposition_check PROPERTIES LABELS "scripts;mpi;bad_input" TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "decomposition_check: ok" FAIL_REGULAR_EXPRESSION "FAIL|Traceback")

# scripts/peers/ext_mpi.sh without ext_mpi: its bad input, one line and exit
# 2, and its driver compiling against this MPI (tests/scripts/ext_mpi_check.sh).
add_test(NAME ext_mpi_check COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/ext_mpi_check.sh ${PROJECT_SOURCE_DIR}
                                    ${MPI_C_COMPILER})
set_tests_properties(ext_mpi_check PROPERTIES LABELS "scripts;bad_input" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "ext_mpi_check: ok" FAIL_REGULAR_EXPRESSION "FAIL")

# scripts/peers/mpi_shm.py's bad input, one line and exit 2, no run
# (tests/scripts/mpi_shm_check.sh).
add_test(NAME mpi_shm_check COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/mpi_shm_check.sh ${MCB_SYSTEM_PYTHON}
                                    ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${MCB_MPI_FLAVOR})
set_tests_properties(mpi_shm_check PROPERTIES LABELS "scripts;bad_input" TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "mpi_shm_check: ok" FAIL_REGULAR_EXPRESSION "FAIL|Traceback")
