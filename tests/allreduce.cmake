# mcb_allreduce: every algorithm validated against MPI_Allreduce (MPI_SUM)
# for every P in 1..13, vectors of 1, 7, 16, 1000 and 100000 floats (OSU's
# default type), in place and not; int and double at a few P; bad input.
set(AR $<TARGET_FILE:mcb_allreduce>)
set(AR_CHECK -c -m 4,28,64,4000,400000 -i 2 -x 1 --algorithm all)
set(AR_ROWS 25)  # 5 algorithms x 5 sizes
foreach(p RANGE 1 13)
  mcb_mpi_test(allreduce_p${p} ${p} --expect-ranks --expect-rows ${AR_ROWS}
               --expect-stdout "# type: float .4 B., size: bytes of the vector, memory: host, in place: no"
               -- ${AR} ${AR_CHECK})
  mcb_mpi_test(allreduce_p${p}_in_place ${p} --expect-ranks --expect-rows ${AR_ROWS} --expect-stdout "in place: yes"
               -- ${AR} ${AR_CHECK} --in-place)
endforeach()
foreach(p 2 5 8 12)
  mcb_mpi_test(allreduce_p${p}_int ${p} --expect-ranks --expect-rows ${AR_ROWS} --expect-stdout "# type: int"
               -- ${AR} -c -m 4,28,64,4000,400000 -i 2 -x 1 -T int)
  mcb_mpi_test(allreduce_p${p}_double_in_place ${p} --expect-ranks --expect-rows ${AR_ROWS}
               --expect-stdout "# type: double"
               -- ${AR} -c -m 8,56,128,8000,800000 -i 2 -x 1 -T double --in-place)
endforeach()
# Phases: rabenseifner's four, timed embedded and isolated, on a cyclic
# communicator of virtual nodes.
mcb_mpi_test(allreduce_p6_phases 6 --expect-rows 6
             --expect-stdout "fold.us. +reduce_scatter.us. +allgather.us. +unfold.us."
             -- ${AR} -c -m 4,4000,400000 -i 2 -x 0 --algorithm rabenseifner --phase-mode both --ranks-per-node 3
             --rank-order cyclic)

mcb_bad_input(allreduce_char 3 "--type char: mcb_allreduce takes float, int, double" -- ${AR} -T char)
mcb_bad_input(allreduce_size_not_multiple 3 "6 bytes is not a multiple of the float size" -- ${AR} -m 4,6)
mcb_bad_input(allreduce_unknown 3 "unknown algorithm 'rabenseifer'" -- ${AR} --algorithm rabenseifer)
mcb_mpi_test(allreduce_list 1 --expect-stdout "^  rabenseifner" --expect-stdout "^  ring" -- ${AR} --list)
