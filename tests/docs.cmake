# The documentation stays complete (tests/check_docs.py, label docs): every
# option that a binary's --help prints is in docs/options.md (docs_options);
# the columns of the CSV rows (mcb_alltoall and mcb_breakdown, run as MPI
# singletons), of --save-iterations and of mcb_tra_model are in their tables
# (docs_columns); README.md has at most 300 lines, every relative link of
# README.md and docs/ resolves and every docs page is linked from the README
# (docs_links). A binary missing at test time fails the test, it is never
# skipped; mcb_fft exists only where FFTW 3 was found.
set(MCB_DOCS_BINARIES)
foreach(bin mcb_alltoall mcb_allgather mcb_allreduce mcb_reduce mcb_bcast mcb_copy_bw mcb_breakdown mcb_pingpong
            mcb_tra_model)
  list(APPEND MCB_DOCS_BINARIES $<TARGET_FILE:${bin}>)
endforeach()
if(TARGET mcb_fft)
  list(APPEND MCB_DOCS_BINARIES $<TARGET_FILE:mcb_fft>)
endif()
foreach(check options columns)
  add_test(NAME docs_${check}
           COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_docs.py ${check} ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/docs/${check} ${MCB_DOCS_BINARIES})
endforeach()
add_test(NAME docs_links COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_docs.py links ${PROJECT_SOURCE_DIR})
set_tests_properties(docs_options docs_columns docs_links PROPERTIES LABELS docs TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "docs check \\([a-z]+\\): 0 failures"
                     FAIL_REGULAR_EXPRESSION "FAIL|Traceback"
                     ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
