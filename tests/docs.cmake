# The documentation stays complete (tests/check_docs.py, label docs): every
# option that a binary's --help prints is in docs/options.md (docs_options);
# the columns of the CSV rows (mcb_alltoall and mcb_breakdown, run as MPI
# singletons), of --save-iterations and of mcb_tra_model are in their tables
# (docs_columns); README.md has at most 300 lines, every relative link of
# README.md and docs/ resolves and every docs page is linked from the README
# (docs_links). A binary missing at test time fails the test, it is never
# skipped; mcb_fft exists only where FFTW 3 was found.
set(MCB_DOCS_BINARIES)
foreach(bin mcb_alltoall mcb_allgather mcb_allgatherv mcb_allreduce mcb_reduce mcb_bcast mcb_reduce_scatter_block
            mcb_reduce_scatter mcb_gather mcb_gatherv mcb_scatter mcb_scatterv mcb_copy_bw mcb_breakdown mcb_pingpong
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

# The worked example of docs/development.md, "Adding an algorithm", done as
# the document says in a scratch copy of the tree (its C++ block as the new
# file, its one registry line), mcb_alltoall built there and the existing
# sweep's --algorithm all -c run at 5 ranks and at 6 on cyclic virtual
# nodes: the new algorithm listed, run and passed (issue 31). One MPI is
# enough (the Open MPI build's suite).
if(MCB_MPI_FLAVOR STREQUAL "openmpi")
  set(doc_example_args -DMCB_MPI=openmpi -DMCB_ENABLE_CUDA=OFF -DMCB_ENABLE_HIP=OFF -DMCB_BUILD_TESTS=OFF)
  if(MCB_MPI_PREFIX)  # the Open MPI of this build, not Debian's
    list(APPEND doc_example_args -DMCB_MPI_PREFIX=${MCB_MPI_PREFIX})
  endif()
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    list(APPEND doc_example_args -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
         -DCMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER})
  endif()
  string(REPLACE ";" " " doc_example_args "${doc_example_args}")
  add_test(NAME docs_example_algorithm
           COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_doc_example.py ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/doc_example --cmake-args "${doc_example_args}" -- ${MCB_RUN_MPI})
  set_tests_properties(docs_example_algorithm PROPERTIES LABELS "docs;mpi" TIMEOUT 1200
                       FAIL_REGULAR_EXPRESSION "FAIL|Traceback")
endif()

# The floors of src/ (issue 42, tests/check_tree.py): no #include points from
# a lower floor (core, harness, collectives, binaries on top) to a higher one.
add_test(NAME tree_floors COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_tree.py floors ${PROJECT_SOURCE_DIR})
set_tests_properties(tree_floors PROPERTIES LABELS docs TIMEOUT 60 PASS_REGULAR_EXPRESSION "tree check \\(floors\\): 0 failures")
# The tree table of docs/development.md names every folder of src/ and
# scripts/ that is there, and only those.
add_test(NAME tree_table COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_tree.py table ${PROJECT_SOURCE_DIR})
set_tests_properties(tree_table PROPERTIES LABELS docs TIMEOUT 60 PASS_REGULAR_EXPRESSION "tree check \\(table\\): 0 failures")
# Every file of the tree that README.md and docs/ name is there (a moved
# script or source is renamed in the docs too).
add_test(NAME tree_paths COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_tree.py paths ${PROJECT_SOURCE_DIR})
set_tests_properties(tree_paths PROPERTIES LABELS docs TIMEOUT 60 PASS_REGULAR_EXPRESSION "tree check \\(paths\\): 0 failures")
# No function of src/ over 100 lines.
add_test(NAME tree_length COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_tree.py length ${PROJECT_SOURCE_DIR})
set_tests_properties(tree_length PROPERTIES LABELS docs TIMEOUT 60 PASS_REGULAR_EXPRESSION "tree check \\(length\\): 0 failures")
