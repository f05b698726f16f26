# Figures (issue 9): the batch scripts of scripts/ and the plots of plots/.
# The plots need no MPI and draw the same committed sample data in every
# build; CI runs them in one build only (-DMCB_PLOT_TESTS=OFF in the other).
option(MCB_PLOT_TESTS "Test the figure scripts and plots (Debian's python3 with matplotlib and pandas)" ON)
if(NOT MCB_PLOT_TESTS)
  return()
endif()
set(PLOTS_DIR ${CMAKE_CURRENT_BINARY_DIR}/plots)
# Every figure of scripts/batch/figures.md made from plots/sample, each with its
# expected number of series, as PNG and PDF.
add_test(NAME plots_sample COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/plots/check_plots.py
                                   ${PROJECT_SOURCE_DIR} ${PLOTS_DIR}/all)
set_tests_properties(plots_sample PROPERTIES LABELS plots TIMEOUT 300 PASS_REGULAR_EXPRESSION
                                             "plots: [0-9]+ figures checked, 0 errors")
# One script alone, as a user runs it.
add_test(NAME plots_one_script COMMAND ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/plots/tra_fig10.py
                                       ${PROJECT_SOURCE_DIR}/plots/sample -o ${PLOTS_DIR}/one)
set_tests_properties(plots_one_script PROPERTIES LABELS plots TIMEOUT 120 PASS_REGULAR_EXPRESSION
                                                 "figure tra_fig10: 3 series, 4 panels, 60 points: ")
# One row of plots/figure.py's table alone, by name.
add_test(NAME plots_one_figure COMMAND ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/plots/figure.py locality_fig07
                                       ${PROJECT_SOURCE_DIR}/plots/sample -o ${PLOTS_DIR}/one_figure)
set_tests_properties(plots_one_figure PROPERTIES LABELS plots TIMEOUT 120 PASS_REGULAR_EXPRESSION
                                                 "figure locality_fig07: 9 series, 1 panels, [0-9]+ points: ")
add_test(NAME plots_unknown_figure COMMAND ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/plots/figure.py locality_fig99
                                           ${PROJECT_SOURCE_DIR}/plots/sample)
set_tests_properties(plots_unknown_figure PROPERTIES LABELS "plots;bad_input" TIMEOUT 60 WILL_FAIL TRUE)
# No data: every figure says what it misses and which script writes it.
file(MAKE_DIRECTORY ${PLOTS_DIR}/empty)
add_test(NAME plots_no_data COMMAND ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/plots/all.py ${PLOTS_DIR}/empty)
set_tests_properties(
  plots_no_data PROPERTIES LABELS plots TIMEOUT 120 PASS_REGULAR_EXPRESSION
  "skipped locality_fig10 \\(locality_fig10\\): no alltoall_sizes-\\*.csv in .*empty \\(run scripts/batch/alltoall_sizes.sbatch\\).*all.py: 0 figures made, [0-9]+ scripts skipped, 0 failed")
add_test(NAME plots_no_dir COMMAND ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/plots/all.py ${PLOTS_DIR}/missing)
set_tests_properties(plots_no_dir PROPERTIES LABELS "plots;bad_input" TIMEOUT 60 WILL_FAIL TRUE)
# The batch scripts outside Slurm: dry runs of each, bad shapes, one real run.
add_test(NAME batch_scripts COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/batch_scripts.sh ${PROJECT_SOURCE_DIR}
                                    $<TARGET_FILE_DIR:mcb_alltoall>)
set(batch_env MCB_MPI=${MCB_MPI_FLAVOR})
if(MCB_MPI_FLAVOR STREQUAL "mpich")  # oversubscribed: MPICH's ranks yield (tests/CMakeLists.txt)
  list(APPEND batch_env LD_PRELOAD=$<TARGET_FILE:mcb_mpich_yield>)
endif()
set_tests_properties(batch_scripts PROPERTIES LABELS scripts TIMEOUT 180 ENVIRONMENT "${batch_env}"
                                              PASS_REGULAR_EXPRESSION "batch scripts: 0 failures")
# A python3 without Debian's libraries (here: Debian's own with -S): every
# plot and every script that needs them says so in one line, no traceback.
add_test(NAME scripts_missing_library COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/missing_library.py
                                              ${PROJECT_SOURCE_DIR} ${MCB_SYSTEM_PYTHON})
set_tests_properties(scripts_missing_library PROPERTIES LABELS "plots;bad_input" TIMEOUT 300 PASS_REGULAR_EXPRESSION
                                                        "missing library: [0-9]+ scripts checked, 0 failed")
