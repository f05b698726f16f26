# Installs mcb from the build tree into WORK_DIR/prefix, builds
# examples/consumer against it with find_package(mcb), and runs it on 3 ranks.
file(REMOVE_RECURSE ${WORK_DIR})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${MCB_BUILD_DIR} --prefix ${WORK_DIR}/prefix)
step(${CMAKE_COMMAND} -S ${MCB_SOURCE_DIR}/examples/consumer -B ${WORK_DIR}/build
     -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DMPI_EXECUTABLE_SUFFIX=${MPI_EXECUTABLE_SUFFIX}
     # The MPI mcb was built with (one in a prefix of its own, too).
     -DMPI_C_COMPILER=${MPI_C_COMPILER} -DMPI_CXX_COMPILER=${MPI_CXX_COMPILER})
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${RUN_MPI} -n 3 --expect-stdout "consumer: bruck ok on 3 ranks" -- ${WORK_DIR}/build/mcb_consumer)
