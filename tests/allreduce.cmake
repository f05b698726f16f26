# mcb_allreduce: every algorithm validated against the sums mcb computes
# itself for every P in 1..13, vectors of 1, 7, 16, 1000 and 100000 floats
# (OSU's default type), in place and not; int and double at a few P; every
# type x operation; a wrong vendor reduction caught; bad input.
set(AR $<TARGET_FILE:mcb_allreduce>)
set(AR_CHECK -c -m 4,28,64,4000,400000 -i 2 -x 1 --algorithm all)
# Every algorithm of --list, each table 5 sizes, all passing.
set(AR_ROWS --expect-every-algorithm --expect-rows-per-block 5)
foreach(p RANGE 1 13)
  mcb_mpi_test(allreduce_p${p} ${p} --expect-ranks ${AR_ROWS}
               --expect-stdout "# type: float .4 B., size: bytes of the vector, memory: host, in place: no"
               -- ${AR} ${AR_CHECK})
  mcb_mpi_test(allreduce_p${p}_in_place ${p} --expect-ranks ${AR_ROWS} --expect-stdout "in place: yes"
               -- ${AR} ${AR_CHECK} --in-place)
endforeach()
foreach(p 2 5 8 12)
  mcb_mpi_test(allreduce_p${p}_int ${p} --expect-ranks ${AR_ROWS} --expect-stdout "# type: int"
               -- ${AR} -c -m 4,28,64,4000,400000 -i 2 -x 1 -T int)
  mcb_mpi_test(allreduce_p${p}_double_in_place ${p} --expect-ranks ${AR_ROWS}
               --expect-stdout "# type: double"
               -- ${AR} -c -m 8,56,128,8000,800000 -i 2 -x 1 -T double --in-place)
endforeach()
# Phases: rabenseifner's four, timed embedded and isolated, on a cyclic
# communicator of virtual nodes.
mcb_mpi_test(allreduce_p6_phases 6 --expect-rows 6
             --expect-stdout "fold.us. +reduce_scatter.us. +allgather.us. +unfold.us."
             -- ${AR} -c -m 4,4000,400000 -i 2 -x 0 --algorithm rabenseifner --phase-mode both --ranks-per-node 3
             --rank-order cyclic)

mcb_bad_input(allreduce_char 3 "--type char: mcb_allreduce takes float, double, int, int8, uint8" -- ${AR} -T char)

# Every element type x operation (issue 32), every algorithm of --list, on
# 7 ranks (prime) and 3 ranks in place, vectors of 1, 7, 1000 and 3000
# elements. half refused (no 16-bit float in Open MPI 4.1; MPICH 4.0.2 has
# MPIX_C_FLOAT16 but aborts reducing it), bfloat16 refused everywhere, a
# bitwise operation on floating point refused.
set(type_bytes_int8 1)
set(type_bytes_uint8 1)
set(type_bytes_int16 2)
set(type_bytes_uint16 2)
set(type_bytes_int32 4)
set(type_bytes_uint32 4)
set(type_bytes_int64 8)
set(type_bytes_uint64 8)
set(type_bytes_float 4)
set(type_bytes_double 8)
set(type_bytes_half 2)
set(matrix_types int8 uint8 int16 uint16 int32 uint32 int64 uint64 float double)
if(MCB_MPI_FLAVOR STREQUAL "mpich" AND MCB_MPI_VERSION VERSION_LESS 4.1)
  mcb_bad_input(allreduce_half 3 "--type half: MPICH 4.0 declares MPIX_C_FLOAT16 but aborts reducing it" -- ${AR} -T half)
elseif(MCB_MPI_FLAVOR STREQUAL "mpich")  # 4.2.1 reduces MPIX_C_FLOAT16: validated
  mcb_mpi_test(allreduce_half 3 --expect-ranks --expect-stdout "# type: half \\(2 B\\)"
               -- ${AR} -T half -c -m 2,14,2000 -i 1 -x 0)
else()
  mcb_bad_input(allreduce_half 3 "--type half: this MPI has no 16-bit floating-point type" -- ${AR} -T half)
endif()
mcb_bad_input(allreduce_bfloat16 3 "--type bfloat16: MPI has no bfloat16 type" -- ${AR} -T bfloat16)
mcb_bad_input(allreduce_band_float 3 "--op band: MPI defines band on integer types only, not on float"
              -- ${AR} --op band)
mcb_bad_input(allreduce_op_unknown 3 "--op avg: mcb_allreduce takes sum, prod, min, max, band, bor, bxor"
              -- ${AR} --op avg)
set(MATRIX_ROWS --expect-every-algorithm --expect-rows-per-block 4)
foreach(type ${matrix_types})
  set(ops sum prod min max)
  if(NOT type MATCHES "float|double|half")
    list(APPEND ops band bor bxor)
  endif()
  math(EXPR b1 "${type_bytes_${type}}")
  math(EXPR b7 "${type_bytes_${type}} * 7")
  math(EXPR b1000 "${type_bytes_${type}} * 1000")
  math(EXPR b3000 "${type_bytes_${type}} * 3000")
  foreach(op ${ops})
    set(algorithms all)
    set(rows ${MATRIX_ROWS})
    # Known wrong reductions of the MPIs here, kept as tests that expect the
    # system's result to fail (so that a fixed MPI turns them red); the
    # matrix runs mcb's own algorithms for them (lane and ppg_* reduce with
    # the MPI's collectives too):
    # - MPICH 4.0.2 compares unsigned integers as signed in MPI_MIN and
    #   MPI_MAX (MPI_Reduce_local too: min(129, 113) on MPI_UINT8_T is 129);
    #   4.2.1 is right (these tests turned red there, issue 47);
    # - Open MPI 4.1.4's AVX reductions (op/avx, on CPUs with AVX2 or
    #   AVX-512) saturate sums of 8- and 16-bit integers from 16 elements on:
    #   200 + 200 on MPI_UINT8_T is 255, not 144 (--mca op ^avx: right);
    #   5.0.7's still do.
    set(known_wrong "")
    if(MCB_MPI_FLAVOR STREQUAL "mpich" AND MCB_MPI_VERSION VERSION_LESS 4.2.1 AND type MATCHES "^uint"
       AND op MATCHES "min|max")
      set(known_wrong mpich)
    elseif(MCB_MPI_FLAVOR STREQUAL "openmpi" AND type MATCHES "^uint(8|16)$" AND op STREQUAL "sum")
      set(known_wrong openmpi)
    endif()
    if(known_wrong)
      set(algorithms recursive_doubling,rabenseifner,ring,shm_recursive_exchange,shm_cyclic_shift,shm_tree)
      set(rows --expect-rows 24)
      mcb_mpi_test(allreduce_${known_wrong}_wrong_${type}_${op} 3 --expect-exit 1
                   --expect-stderr "validation failed: algorithm system, size ${b1000} B, rank 0, element"
                   -- ${AR} -c -m ${b1000}:${b1000} -i 1 -x 0 --algorithm system -T ${type} --op ${op})
    endif()
    mcb_mpi_test(allreduce_matrix_${type}_${op}_p7 7 --expect-ranks ${rows}
                 --expect-stdout "# type: ${type} " -- ${AR} -c -m ${b1},${b7},${b1000},${b3000} -i 1 -x 0
                 --algorithm ${algorithms} -T ${type} --op ${op})
    mcb_mpi_test(allreduce_matrix_${type}_${op}_p3_in_place 3 --expect-ranks ${rows}
                 --expect-stdout "in place: yes" -- ${AR} -c -m ${b1},${b7},${b1000},${b3000} -i 1 -x 0
                 --algorithm ${algorithms} -T ${type} --op ${op} --in-place)
  endforeach()
endforeach()

# mcb_reduce takes the same types and operations: a few of them on 5 ranks,
# in place and not (only rank 0's result is defined and compared).
foreach(combo int8:prod uint64:max double:min int16:bxor)
  string(REPLACE ":" ";" parts ${combo})
  list(GET parts 0 type)
  list(GET parts 1 op)
  math(EXPR b7 "${type_bytes_${type}} * 7")
  math(EXPR b3000 "${type_bytes_${type}} * 3000")
  set(algorithms all)
  set(rows --expect-every-algorithm --expect-rows-per-block 2)
  if(MCB_MPI_FLAVOR STREQUAL "mpich" AND type MATCHES "^uint" AND op MATCHES "min|max")
    set(algorithms shm_tree)  # MPICH 4.0.2's unsigned MPI_MAX is wrong (above)
    set(rows --expect-rows 2)
  endif()
  mcb_mpi_test(reduce_matrix_${type}_${op}_p5 5 --expect-ranks ${rows} -- $<TARGET_FILE:mcb_reduce> -c
               -m ${b7},${b3000} -i 1 -x 0 --algorithm ${algorithms} -T ${type} --op ${op})
  mcb_mpi_test(reduce_matrix_${type}_${op}_p5_in_place 5 --expect-ranks ${rows} -- $<TARGET_FILE:mcb_reduce> -c
               -m ${b7},${b3000} -i 1 -x 0 --algorithm ${algorithms} -T ${type} --op ${op} --in-place)
endforeach()

# A wrong vendor reduction (tests/support/wrong_reduction.c: float sums off
# by one in the last element of rank 0's result) fails the system MPI's own
# algorithm and names it; mcb's algorithms, which reduce with mcb's kernels,
# still pass under it.
mcb_mpi_test(validation_catches_wrong_system_allreduce 3 --expect-exit 1
             --expect-stderr "validation failed: algorithm system, size 28 B, rank 0, element 6 \\(block 0, index 6\\): expected"
             --preload $<TARGET_FILE:mcb_wrong_reduction> -- ${AR} --algorithm system -c -m 28:28 -i 2 -x 0)
mcb_mpi_test(validation_catches_wrong_system_reduce 3 --expect-exit 1
             --expect-stderr "validation failed: algorithm system, size 28 B, rank 0, element 6"
             --preload $<TARGET_FILE:mcb_wrong_reduction> -- $<TARGET_FILE:mcb_reduce> --algorithm system -c -m 28:28 -i 2
             -x 0)
mcb_mpi_test(validation_trusts_no_mpi_reduction 3 --expect-rows 2 --preload $<TARGET_FILE:mcb_wrong_reduction>
             -- ${AR} --algorithm recursive_doubling,rabenseifner -c -m 28:28 -i 2 -x 0)
mcb_bad_input(allreduce_size_not_multiple 3 "6 bytes is not a multiple of the float size" -- ${AR} -m 4,6)
mcb_bad_input(allreduce_unknown 3 "unknown algorithm 'rabenseifer'" -- ${AR} --algorithm rabenseifer)
mcb_mpi_test(allreduce_list 1 --expect-stdout "^  rabenseifner" --expect-stdout "^  ring" -- ${AR} --list)

# The shared-memory algorithms for every P in 1..13 on virtual nodes of every size
# K that divides P (one node of P: the prime counts 7 and 13 are the paper's
# worst case), persistent and blocking, in place for every other (P, K);
# vectors of 1, 7, 16, 1000 and 100000 floats.
foreach(p RANGE 1 13)
  foreach(k RANGE 1 ${p})
    math(EXPR rest "${p} % ${k}")
    if(NOT rest EQUAL 0)
      continue()
    endif()
    math(EXPR odd "(${p} + ${k}) % 2")
    set(in_place)
    set(label)
    if(odd)
      set(in_place --in-place)
      set(label _in_place)
    endif()
    mcb_mpi_test(allreduce_shm_p${p}_k${k}${label} ${p} --expect-ranks --expect-rows 30
                 --expect-stdout "ranks per node: ${k} .virtual nodes."
                 -- ${AR} -c -m 4,28,64,4000,400000 -i 3 -x 1
                 --algorithm shm_recursive_exchange,shm_cyclic_shift,shm_tree
                 --ranks-per-node ${k}
                 --interface persistent,blocking ${in_place})
  endforeach()
endforeach()
# Every reduce_scatter x allgather factor set of one node of 4, 6 and 8, for
# the recursive exchange and the cyclic shift.
set(factors_4 "-4,4/-4,2,2/-2,-2,4/-2,-2,2,2")
set(factors_6 "-6,6/-6,2,3/-6,3,2/-2,-3,6/-2,-3,2,3/-2,-3,3,2/-3,-2,6/-3,-2,2,3/-3,-2,3,2")
set(factors_8 "-8,8/-8,2,4/-8,4,2/-8,2,2,2/-2,-4,8/-2,-4,2,4/-2,-4,4,2/-2,-4,2,2,2/-4,-2,8/-4,-2,2,4/-4,-2,4,2")
string(APPEND factors_8 "/-4,-2,2,2,2/-2,-2,-2,8/-2,-2,-2,2,4/-2,-2,-2,4,2/-2,-2,-2,2,2,2")
foreach(q 4 6 8)
  string(REPLACE "/" ";" sets "${factors_${q}}")
  list(LENGTH sets n)
  math(EXPR rows "${n} * 6")
  mcb_mpi_test(allreduce_shm_factors_q${q} ${q} --expect-ranks --expect-rows ${rows}
               -- ${AR} -c -m 28,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange,shm_cyclic_shift
               "--factors=${factors_${q}}")
endforeach()
# The cyclic shift with factor lists multiplying to more than the node: the
# paper's {2,2,2} for 7 tasks, {2,2,2,2} for the prime 13, and others.
mcb_mpi_test(allreduce_cyclic_p7 7 --expect-ranks --expect-rows 12 --expect-stdout "factors=-2,-2,-2,2,2,2"
             -- ${AR} -c -m 4,4000,400000 -i 20 -x 1 --algorithm shm_cyclic_shift
             "--factors=-2,-2,-2,2,2,2/-3,-3,3,3/-7,7/-2,-4,8")
mcb_mpi_test(allreduce_cyclic_p13 13 --expect-ranks --expect-rows 6 --expect-stdout "factors=-2,-2,-2,-2,2,2,2,2"
             -- ${AR} -c -m 4,4000,400000 -i 5 -x 1 --algorithm shm_cyclic_shift --in-place
             "--factors=-2,-2,-2,-2,2,2,2,2/-4,-4,13")
mcb_mpi_test(allreduce_cyclic_p12_cyclic_inner 12 --expect-ranks --expect-rows 20 --expect-stdout "rank order: cyclic"
             -- ${AR} -c -m 4,28,4000,400000 -i 2 -x 1 --algorithm shm_cyclic_shift --ranks-per-node 6
             --rank-order cyclic --inner all --factors=-2,-2,-2,2,4)
# Every fan-in list of the tree at 4, 6 and 8 ranks per node.
set(tree_4 "-4/-2,-2")
set(tree_6 "-6/-2,-3/-3,-2")
set(tree_8 "-8/-2,-4/-4,-2/-2,-2,-2")
foreach(q 4 6 8)
  string(REPLACE "/" ";" sets "${tree_${q}}")
  list(LENGTH sets n)
  math(EXPR rows "${n} * 3")
  mcb_mpi_test(allreduce_tree_factors_q${q} ${q} --expect-ranks --expect-rows ${rows}
               -- ${AR} -c -m 28,4000,400000 -i 2 -x 1 --algorithm shm_tree "--factors=${tree_${q}}")
endforeach()
mcb_mpi_test(allreduce_tree_p12_cyclic_inner 12 --expect-ranks --expect-rows 20 --expect-stdout "rank order: cyclic"
             -- ${AR} -c -m 8,56,8000,800000 -i 2 -x 1 --algorithm shm_tree --ranks-per-node 4
             --rank-order cyclic --inner all --factors=-2,-2 -T double)
# Two nodes, cyclic order, every inner allreduce across the nodes.
mcb_mpi_test(allreduce_shm_p12_cyclic_inner 12 --expect-ranks --expect-rows 20 --expect-stdout "rank order: cyclic"
             -- ${AR} -c -m 4,28,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange --ranks-per-node 4
             --rank-order cyclic --inner all --factors=-2,-2,4 -T int)
# The multi-lane allreduce on virtual nodes, every inner allreduce across
# nodes; cyclic order and in place on alternate cases.
foreach(case "4;2;" "6;3;--in-place" "6;2;--rank-order;cyclic" "8;4;--in-place" "9;3;--rank-order;cyclic"
        "10;5;--in-place" "12;4;--rank-order;cyclic" "12;2;--in-place")
  list(GET case 0 p)
  list(GET case 1 k)
  list(SUBLIST case 2 -1 extra)
  mcb_mpi_test(allreduce_lane_p${p}_k${k} ${p} --expect-ranks --expect-rows 25
               --expect-stdout "reduce_scatter.us. +inter_node.us. +allgather.us."
               -- ${AR} -c -m 4,28,64,4000,400000 -i 2 -x 1 --algorithm lane --ranks-per-node ${k} --inner all ${extra})
endforeach()
mcb_bad_input(allreduce_lane_inner 4 "--inner rings: expected one of system, recursive_doubling, rabenseifner, ring, recursive_exchange"
              -- ${AR} --algorithm lane --ranks-per-node 2 --inner rings)

# The recursive exchange across nodes (--inner recursive_exchange): every
# --node-factors list of 12 nodes (reduce_scatter products 1, 2, 3, 4, 6 and
# 12, the rest a nested allreduce), the prime 13, and the default on
# 2..13 nodes of 1, 2 and 3 ranks with each shared-memory algorithm.
set(node_factors_12 "-12,12/-2,-6,6,2/-6,-2,2,6/-3,-2,-2,2,2,3/-2,-2,-3,3,2,2/-2,2/-3,3/-4,4/-6,6/-2,-3,3,2/none")
string(REPLACE "/" ";" sets "${node_factors_12}")
list(LENGTH sets n)
math(EXPR rows "${n} * 5")
mcb_mpi_test(allreduce_node_factors_p12 12 --expect-ranks --expect-rows ${rows}
             --expect-stdout "inner=recursive_exchange.node-factors=-3,-2,-2,2,2,3."
             -- ${AR} -c -m 4,28,64,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange --ranks-per-node 1
             --inner recursive_exchange "--node-factors=${node_factors_12}")
mcb_mpi_test(allreduce_node_factors_p13 13 --expect-ranks --expect-rows 10 --expect-stdout "node-factors=-13,13;"
             -- ${AR} -c -m 4,28,64,4000,400000 -i 2 -x 1 --algorithm shm_tree --ranks-per-node 1 --in-place
             --inner recursive_exchange "--node-factors=-13,13/none")
foreach(case "4;2" "6;3" "7;1" "10;2" "11;1" "12;3" "13;1")
  list(GET case 0 p)
  list(GET case 1 k)
  mcb_mpi_test(allreduce_inner_exchange_p${p}_k${k} ${p} --expect-ranks --expect-rows 12
               --expect-stdout "inner=recursive_exchange.node-factors="
               -- ${AR} -c -m 4,64,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange,shm_cyclic_shift,shm_tree
               --ranks-per-node ${k} --inner recursive_exchange --rank-order cyclic)
endforeach()
# One leader (tree) or lane (recursive exchange, cyclic shift) per region:
# regions of a fixed size on one node and on two cyclic nodes, with every
# inner allreduce; sockets of an hwloc synthetic topology (2 packages of 4
# cores); uneven regions are skipped under all and refused by name.
mcb_mpi_test(allreduce_regions_p8 8 --expect-ranks --expect-rows 15 --expect-stdout "region: size:4"
             -- ${AR} -c -m 4,28,64,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange,shm_cyclic_shift,shm_tree
             --region size:4)
mcb_mpi_test(allreduce_regions_p12_nodes 12 --expect-ranks --expect-rows 60 --expect-stdout "rank order: cyclic"
             -- ${AR} -c -m 4,28,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange,shm_cyclic_shift,shm_tree
             --ranks-per-node 6 --region size:3 --rank-order cyclic --inner all --in-place)
mcb_mpi_test(allreduce_regions_package 8 --expect-ranks --expect-rows 9 --expect-stdout "region: package"
             --expect-stdout "factors=-4;" --env "HWLOC_SYNTHETIC=pack:2 core:4 pu:1"
             -- ${AR} -c -m 4,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange,shm_cyclic_shift,shm_tree
             --region package)
mcb_mpi_test(allreduce_regions_uneven 8 --expect-rows 40
             --expect-stdout "# skipping shm_tree, not applicable: needs the same number of ranks in every region"
             -- ${AR} -c -m 64 -i 2 -x 1 --algorithm all --region size:3)
foreach(tool reduce bcast)
  mcb_mpi_test(${tool}_regions_p12 12 --expect-ranks --expect-rows 9 --expect-stdout "region: size:2"
               -- $<TARGET_FILE:mcb_${tool}> -c -m 4,4000,400000 -i 2 -x 1 --ranks-per-node 4 --region size:2)
endforeach()
# 100 back-to-back calls of one persistent plan (and of the cached blocking
# one), then validation: the counters must not drift.
mcb_mpi_test(allreduce_shm_100_calls 8 --expect-ranks --expect-rows 12
             -- ${AR} -c -m 64,400000 -i 100 -x 0 --algorithm shm_recursive_exchange,shm_cyclic_shift,shm_tree
             --ranks-per-node 4
             --interface persistent,blocking)
mcb_mpi_test(allreduce_shm_100_calls_prime 7 --expect-ranks --expect-rows 6 --expect-stdout "factors=-7,7;"
             -- ${AR} -c -m 4000,400000 -i 100 -x 0 --algorithm shm_recursive_exchange,shm_cyclic_shift,shm_tree
             --in-place)
set(CMA_TESTS)  # the tests that name --copy cma (see the end of the file)
# The copy paths (issue 21). Registered buffers (--buffers registered,
# mcb::shm_allocate), read and written in place, and cross-memory attach
# (--copy cma) on plain buffers, for the recursive exchange (push with its
# default factors) and the tree, persistent and blocking, on one node and
# on virtual nodes of odd and prime sizes, in place and cyclic on some.
# Case: P;K;extra arguments.
set(SHM_COPY_CHECK -c -m 4,28,64,4000,400000 -i 3 -x 1 --algorithm shm_recursive_exchange,shm_tree,shm_cyclic_shift
    --interface persistent,blocking)
foreach(case "2;2;" "3;3;--in-place" "4;2;--rank-order;cyclic" "5;5;" "6;3;--in-place" "7;7;" "8;4;--in-place"
        "9;3;--rank-order;cyclic" "12;6;" "13;13;--in-place")
  list(GET case 0 p)
  list(GET case 1 k)
  list(SUBLIST case 2 -1 extra)
  string(REPLACE ";" "" tag "${extra}")
  string(REPLACE "--" "_" tag "${tag}")
  mcb_mpi_test(allreduce_registered_p${p}_k${k}${tag} ${p} --expect-ranks --expect-rows 30
               --expect-stdout "copy=registered" --expect-stdout "buffers: registered"
               -- ${AR} ${SHM_COPY_CHECK} --ranks-per-node ${k} --buffers registered --copy registered ${extra})
endforeach()
foreach(case "2;2;" "5;5;--in-place" "6;3;--rank-order;cyclic" "7;7;" "12;4;--in-place")
  list(GET case 0 p)
  list(GET case 1 k)
  list(SUBLIST case 2 -1 extra)
  string(REPLACE ";" "" tag "${extra}")
  string(REPLACE "--" "_" tag "${tag}")
  mcb_mpi_test(allreduce_cma_p${p}_k${k}${tag} ${p} --expect-ranks --expect-rows 30 --expect-stdout "copy=cma"
               -- ${AR} ${SHM_COPY_CHECK} --ranks-per-node ${k} --copy cma ${extra})
  list(APPEND CMA_TESTS allreduce_cma_p${p}_k${k}${tag})
endforeach()
# Every factor set at 6 and 8 ranks: push (one allgather stage over the
# node) and pull (several), one or several reduce_scatter stages; the
# tree's fan-ins; cma with the same sets.
foreach(q 6 8)
  string(REPLACE "/" ";" sets "${factors_${q}}")
  list(LENGTH sets n)
  math(EXPR rows "${n} * 3")
  mcb_mpi_test(allreduce_registered_factors_q${q} ${q} --expect-ranks --expect-rows ${rows}
               -- ${AR} -c -m 28,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange "--factors=${factors_${q}}"
               --buffers registered --copy registered)
  mcb_mpi_test(allreduce_cma_factors_q${q} ${q} --expect-ranks --expect-rows ${rows}
               -- ${AR} -c -m 28,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange "--factors=${factors_${q}}"
               --copy cma --in-place)
  list(APPEND CMA_TESTS allreduce_cma_factors_q${q})
  string(REPLACE "/" ";" sets "${tree_${q}}")
  list(LENGTH sets n)
  math(EXPR rows "${n} * 6")
  mcb_mpi_test(allreduce_registered_tree_q${q} ${q} --expect-ranks --expect-rows ${rows}
               -- ${AR} -c -m 28,4000,400000 -i 2 -x 1 --algorithm shm_tree "--factors=${tree_${q}}"
               --buffers registered --copy registered,cma)
  list(APPEND CMA_TESTS allreduce_registered_tree_q${q})
endforeach()
# The cyclic shift's factor lists that leave pieces unsummed in a stage
# (a later stage reads those raw: only they are copied in).
mcb_mpi_test(allreduce_cyclic_copy_p7 7 --expect-ranks --expect-rows 32
             -- ${AR} -c -m 4,64,4000,400000 -i 3 -x 1 --algorithm shm_cyclic_shift --buffers registered
             --copy registered,cma "--factors=-2,-2,-2,2,2,2/-3,-3,3,3/-7,7/-2,-4,8" --in-place)
list(APPEND CMA_TESTS allreduce_cyclic_copy_p7)
mcb_mpi_test(allreduce_cyclic_copy_p13 13 --expect-ranks --expect-rows 16
             -- ${AR} -c -m 4,64,4000,400000 -i 3 -x 1 --algorithm shm_cyclic_shift --buffers registered
             --copy registered,cma "--factors=-2,-2,-2,-2,2,2,2,2/-4,-4,13")
list(APPEND CMA_TESTS allreduce_cyclic_copy_p13)
# Several nodes: the pieces go across on the lanes from the regions.
mcb_mpi_test(allreduce_registered_nodes_p12 12 --expect-ranks --expect-rows 48 --expect-stdout "copy=registered"
             -- ${AR} -c -m 4,28,4000,400000 -i 2 -x 1 --algorithm shm_recursive_exchange,shm_tree,shm_cyclic_shift
             --ranks-per-node 4 --rank-order cyclic --inner recursive_doubling,ring --buffers registered
             --copy registered,cma --in-place)
list(APPEND CMA_TESTS allreduce_registered_nodes_p12)
# 100 back-to-back calls of each path, then validation.
mcb_mpi_test(allreduce_copy_100_calls 7 --expect-ranks --expect-rows 24
             -- ${AR} -c -m 64,400000 -i 100 -x 0 --algorithm shm_recursive_exchange,shm_tree,shm_cyclic_shift
             --interface persistent,blocking --buffers registered --copy registered,cma)
list(APPEND CMA_TESTS allreduce_copy_100_calls)
# Registered on even ranks only: auto falls back (cma where the kernel copy
# measured as fast as a memcpy, else copy-in); the memory traffic of each
# path from its schedule at 2 ranks, 4000 B (the stages: --small 0): 2n registered (push), 4n plus
# the piece (2016 B) copy-in, which spreads its piece into the peer's
# region (shm.hpp: spread_piece) (-f: Traffic(B)).
mcb_mpi_test(allreduce_mixed_p5 5 --expect-ranks --expect-rows 30 --expect-stdout "copy=(cma|copy-in)"
             --expect-stdout "buffers: mixed" -- ${AR} ${SHM_COPY_CHECK} --buffers mixed)
mcb_mpi_test(allreduce_traffic_p2 2 --expect-ranks --expect-rows 3 --expect-stdout " 8064 +[0-9.]+ +pass"
             --expect-stdout " 18016 +[0-9.]+ +pass"
             -- ${AR} -c -f -m 4000:4000 -i 2 -x 1 --algorithm shm_recursive_exchange --buffers registered
             --copy registered,cma,copy-in --small 0)
list(APPEND CMA_TESTS allreduce_traffic_p2)
# The cyclic shift's copy-in at 2 ranks: half copied in, my piece summed
# from my input into my receive buffer and spread into the peer's region,
# the other half copied out of my region: 4n plus the piece, as the
# recursive exchange.
mcb_mpi_test(allreduce_traffic_cyclic_p2 2 --expect-ranks --expect-rows 1 --expect-stdout " 18016 +[0-9.]+ +pass"
             -- ${AR} -c -f -m 4000:4000 -i 2 -x 1 --algorithm shm_cyclic_shift --copy copy-in --small 0)
# The spread (shm.hpp: spread_piece; one node, factors -Q,Q, copy-in) at an
# odd count and, in place, at a composite one, persistent and blocking.
mcb_mpi_test(allreduce_spread_p5 5 --expect-ranks --expect-rows 20
             -- ${AR} -c -m 4,28,64,4000,400000 -i 3 -x 1 --algorithm shm_recursive_exchange,shm_cyclic_shift
             --copy copy-in --interface persistent,blocking)
mcb_mpi_test(allreduce_spread_p6_in_place 6 --expect-ranks --expect-rows 20
             -- ${AR} -c -m 4,28,64,4000,400000 -i 3 -x 1 --algorithm shm_recursive_exchange,shm_cyclic_shift
             --copy copy-in --interface persistent,blocking --in-place)
# A kernel that refuses cross-memory attach (a preloaded shim: EPERM for
# mcb's calls, not the MPI's): auto copies in and says why at -v; a forced
# cma is refused with the kernel's reason.
mcb_mpi_test(allreduce_cma_refused 3 --expect-ranks --expect-rows 30 --expect-stdout "copy=copy-in"
             --expect-stderr "cross-memory attach refused: process_vm_readv from pid [0-9]+: Operation not permitted"
             --preload $<TARGET_FILE:mcb_cma_refuse> -- ${AR} ${SHM_COPY_CHECK} -v)
mcb_bad_input(allreduce_cma_refused 3
              "shm_recursive_exchange: --copy cma: cross-memory attach is refused: process_vm_readv from pid [0-9]+: Operation not permitted"
              --preload $<TARGET_FILE:mcb_cma_refuse> -- ${AR} --algorithm shm_recursive_exchange --copy cma)
mcb_bad_input(allreduce_copy_not_registered 4
              "shm_tree: --copy registered: not every rank's send and receive buffers are registered"
              -- ${AR} --algorithm shm_tree --copy registered --buffers mixed)
mcb_bad_input(allreduce_copy_one_rank 4 "--copy cma: only copy-in here .one rank per node: no peers to reach."
              -- ${AR} --algorithm shm_recursive_exchange --copy cma --ranks-per-node 1)
mcb_bad_input(allreduce_copy_garbage 2 "--copy zero: expected one of auto, registered, cma, copy-in"
              -- ${AR} --algorithm shm_tree --copy zero)
mcb_bad_input(allreduce_buffers_garbage 2 "--buffers shared: expected plain, registered or mixed"
              -- ${AR} --buffers shared)
mcb_bad_input(allreduce_buffers_device 2 "--buffers registered: registered buffers are host memory .--mem cuda."
              -- ${AR} --buffers registered -d cuda)
mcb_bad_input(allreduce_buffers_ppg 4 "--buffers registered: with --procs-per-gpu the processes of a GPU share"
              -- ${AR} --buffers registered --ranks-per-node 2 --procs-per-gpu 2)

# The issue's acceptance run, as a user types it.
mcb_mpi_test(allreduce_done_p8 8 --expect-ranks --expect-rows 209
             -- ${AR} --algorithm all -c -f --ranks-per-node 4 ${ACCEPT_ITERATIONS})

mcb_bad_input(allreduce_shm_factors 8 "shm_recursive_exchange: --factors -3,-2,2,4: the reduce_scatter factors multiply to 6, not to the 8 ranks per node .use divisors of 8: 1, 2, 4, 8."
              -- ${AR} --algorithm shm_recursive_exchange "--factors=-3,-2,2,4")
mcb_bad_input(allreduce_shm_factors_node 8 "the allgather factors multiply to 8, not to the 4 ranks per node"
              -- ${AR} --algorithm shm_recursive_exchange "--factors=-4,8" --ranks-per-node 4)
mcb_bad_input(allreduce_shm_factor_garbage 4 "--factors -4,x: 'x' is not an integer" -- ${AR} --algorithm shm_recursive_exchange "--factors=-4,x")
mcb_bad_input(allreduce_tree_positive 4 "shm_tree: --factors -4,4: the tree takes reduce factors only"
              -- ${AR} --algorithm shm_tree "--factors=-4,4")
mcb_bad_input(allreduce_tree_product 8 "shm_tree: --factors -2,-2: the reduce_scatter factors multiply to 4, not to the 8"
              -- ${AR} --algorithm shm_tree "--factors=-2,-2")
mcb_bad_input(allreduce_cyclic_small 7 "shm_cyclic_shift: --factors -2,-2,2,2: the reduce_scatter factors multiply to 4, less than the 7 ranks per node"
              -- ${AR} --algorithm shm_cyclic_shift "--factors=-2,-2,2,2")
mcb_bad_input(allreduce_shm_interface 4 "--interface lazy: expected one of persistent, blocking"
              -- ${AR} --algorithm shm_recursive_exchange --interface lazy)
mcb_bad_input(allreduce_uneven 6 "--ranks-per-node 4 does not divide the 6 ranks" -- ${AR} --ranks-per-node 4)
mcb_bad_input(allreduce_node_factors_divisor 8 "shm_tree: --node-factors -3,3: the reduce_scatter factors multiply to 3, not a divisor of the 4 nodes"
              -- ${AR} --algorithm shm_tree --ranks-per-node 2 --inner recursive_exchange "--node-factors=-3,3")
mcb_bad_input(allreduce_node_factors_mirror 8 "the allgather factors must mirror the reduce_scatter factors"
              -- ${AR} --algorithm shm_recursive_exchange --ranks-per-node 2 --inner recursive_exchange
              "--node-factors=-4,2,2")
mcb_bad_input(allreduce_node_factors_regions 8 "not a divisor of the 2 regions"
              -- ${AR} --algorithm shm_cyclic_shift --region size:4 --inner recursive_exchange "--node-factors=-4,4")
mcb_bad_input(allreduce_regions_named 8 "shm_recursive_exchange needs the same number of ranks in every region"
              -- ${AR} --algorithm shm_recursive_exchange --region size:3)
mcb_bad_input(allreduce_shm_inner 8 "--inner ringg: expected one of system, recursive_doubling, rabenseifner, ring"
              -- ${AR} --algorithm shm_recursive_exchange --ranks-per-node 4 --inner ringg)

# mcb_reduce and mcb_bcast: the system's collective and the shared-memory
# tree (persistent and blocking) for P in 1..13, on one node (in place) and
# on virtual nodes of the smallest divisor K > 1 of P in cyclic order.
set(RED $<TARGET_FILE:mcb_reduce>)
set(BC $<TARGET_FILE:mcb_bcast>)
foreach(p RANGE 1 13)
  set(k ${p})
  foreach(d 7 5 3 2)
    math(EXPR rest "${p} % ${d}")
    if(rest EQUAL 0 AND d LESS p)
      set(k ${d})
    endif()
  endforeach()
  foreach(tool reduce bcast)
    if(tool STREQUAL "reduce")
      set(bin ${RED})
    else()
      set(bin ${BC})
    endif()
    mcb_mpi_test(${tool}_p${p}_in_place ${p} --expect-ranks --expect-rows 20
                 -- ${bin} -c -m 4,28,64,4000,400000 -i 3 -x 1 --interface persistent,blocking --in-place)
    mcb_mpi_test(${tool}_p${p}_cyclic ${p} --expect-ranks --expect-rows 20 --expect-stdout "rank order: cyclic"
                 -- ${bin} -c -m 4,28,64,4000,400000 -i 3 -x 1 --interface persistent,blocking --ranks-per-node ${k}
                 --rank-order cyclic)
    # The copy paths (issue 21) on one node of 2, 5 and 7: registered
    # buffers (reduce: the last stage writes rank 0's receive buffer; bcast:
    # every rank reads rank 0's input in place), cma and copy-in (reduce:
    # rank 0 sums its part of the last stage into its receive buffer and
    # copies out the rest; bcast: by pieces above 64 KiB), the stages at
    # every size (--small 0).
    if(p EQUAL 2 OR p EQUAL 5 OR p EQUAL 7)
      mcb_mpi_test(${tool}_copy_p${p} ${p} --expect-ranks --expect-rows 30 --expect-stdout "copy=registered"
                   --expect-stdout "copy=cma" --expect-stdout "copy=copy-in"
                   -- ${bin} -c -m 4,28,64,4000,400000 -i 3 -x 1 --algorithm shm_tree --interface persistent,blocking
                   --buffers registered --copy registered,cma,copy-in --small 0)
      list(APPEND CMA_TESTS ${tool}_copy_p${p})
    endif()
  endforeach()
endforeach()
# The small path's switch through the benchmarks, at 3 ranks in place,
# persistent and blocking, validated: the defaults (allreduce 4096 / 3 =
# 1365 B, reduce 8192 / 3 = 2730 B, bcast 65536 B) on both sides of the
# switch, --small 0 (never) and a switch above every size; bad values.
mcb_mpi_test(allreduce_small_default_p3 3 --expect-ranks --expect-rows 24 --expect-stdout "small=1365.path=small"
             -- ${AR} -c -m 4,64,1024,2048 -i 3 -x 1 --algorithm shm_recursive_exchange,shm_cyclic_shift,shm_tree
             --interface persistent,blocking --in-place)
mcb_mpi_test(allreduce_small_never_p3 3 --expect-ranks --expect-rows 8 --reject-stdout "path=small"
             -- ${AR} -c -m 4,64 -i 3 -x 1 --algorithm shm_recursive_exchange,shm_tree --interface persistent,blocking
             --small 0)
mcb_mpi_test(reduce_small_default_p3 3 --expect-ranks --expect-rows 8 --expect-stdout "small=2730.path=small"
             -- ${RED} -c -m 4,2048,4096,8192 -i 3 -x 1 --algorithm shm_tree --interface persistent,blocking --in-place)
mcb_mpi_test(bcast_small_default_p3 3 --expect-ranks --expect-rows 10 --expect-stdout "small=65536.path=small"
             -- ${BC} -c -m 1,7,65536,65537,300000 -i 3 -x 1 --algorithm shm_tree --interface persistent,blocking)
mcb_mpi_test(bcast_small_forced_p5 5 --expect-ranks --expect-rows 6 --expect-stdout "small=1000000.path=small"
             -- ${BC} -c -m 3,4000,1000000 -i 3 -x 1 --algorithm shm_tree --interface persistent,blocking
             --small 1000000 --in-place)
mcb_bad_input(allreduce_small_garbage 2 "--small 1k: expected an integer"
              -- ${AR} --algorithm shm_tree --small 1k)
mcb_bad_input(bcast_small_negative 2 "shm_tree .bcast.: --small -8: expected a whole number of bytes"
              -- ${BC} --algorithm shm_tree --small=-8)
# The small path (issue 57) and the stages called back to back without a
# barrier, ranks paced unevenly, through the library (tests/mpi/
# test_back_to_back.cpp): one node of 2, 3, 5 and 7, virtual nodes in block
# and cyclic order (the stages only), and a blocking cache of one shape.
foreach(case "2;0;block" "3;0;block" "5;0;block" "7;0;block" "4;2;block" "6;3;cyclic" "6;2;cyclic" "3;0;block;1")
  list(GET case 0 p)
  list(GET case 1 k)
  list(GET case 2 order)
  set(limit "")
  set(tag "")
  list(LENGTH case n)
  if(n GREATER 3)
    list(GET case 3 limit)
    set(tag _limit${limit})
  endif()
  mcb_mpi_test(back_to_back_p${p}_k${k}_${order}${tag} ${p} --expect-ranks --expect-stdout "back to back: 0 errors"
               -- $<TARGET_FILE:test_back_to_back> ${k} ${order} 60 ${limit})
endforeach()
# One node of 4: the tree with factors -2,-2 (rank 1's region read by rank 0
# alone) and the recursive exchange (read by every rank) in turn on one
# communicator (the blocking arena: ShmSegment::begin_call).
mcb_mpi_test(back_to_back_p4_one_node 4 --expect-ranks --expect-stdout "back to back: 0 errors"
             -- $<TARGET_FILE:test_back_to_back> 0 block 60)
# Several nodes: the reduce on every path (the bcast across nodes copies in).
mcb_mpi_test(reduce_copy_nodes_p12 12 --expect-ranks --expect-rows 10 --expect-stdout "copy=registered"
             -- ${RED} -c -m 4,28,64,4000,400000 -i 3 -x 1 --algorithm shm_tree --ranks-per-node 4 --rank-order cyclic
             --buffers registered --copy registered,cma --in-place)
list(APPEND CMA_TESTS reduce_copy_nodes_p12)
mcb_bad_input(bcast_copy_nodes 4 "shm_tree .bcast.: --copy registered: only copy-in here .the bcast across nodes"
              -- ${BC} --algorithm shm_tree --ranks-per-node 2 --buffers registered --copy registered)
mcb_mpi_test(reduce_tree_factors_q8 8 --expect-ranks --expect-rows 12
             -- ${RED} -c -m 28,4000,400000 -i 2 -x 1 --algorithm shm_tree "--factors=-8/-2,-4/-4,-2/-2,-2,-2" -T int)
mcb_mpi_test(bcast_double_nodes 12 --expect-ranks --expect-rows 9 --expect-stdout "# type: double"
             -- ${BC} -c -m 8,8000,800000 -i 2 -x 1 --ranks-per-node 4 -T double)
mcb_bad_input(reduce_char 3 "--type char: mcb_reduce takes float, double, int, int8" -- ${RED} -T char)
mcb_bad_input(reduce_tree_positive 4 "the tree takes reduce factors only" -- ${RED} --algorithm shm_tree "--factors=-4,4")

# mcb_copy_bw (no MPI): the memcpy yardstick, and its bad input.
add_test(NAME copy_bw COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/run_mpi.py --no-mpi
         "--expect-stdout=^4096 +[0-9.]+ +[0-9.]+" -- $<TARGET_FILE:mcb_copy_bw> -m 1024:4096 -i 5)
add_test(NAME copy_bw_one_size COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/run_mpi.py --no-mpi
         "--expect-stdout=Push traffic\n6( +[0-9.]+){7}\n$" -- $<TARGET_FILE:mcb_copy_bw> -m 6 -i 5)
set_tests_properties(copy_bw copy_bw_one_size PROPERTIES LABELS unit TIMEOUT 60)
add_test(NAME copy_bw_all_cores COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/run_mpi.py --no-mpi
         "--expect-stdout=# mcb_copy_bw: [0-9]+ threads? .of [0-9]+ cores." "--expect-stdout=\n65536( +[0-9.]+){7}\n"
         -- $<TARGET_FILE:mcb_copy_bw> -m 65536 -i 5 -t all)
set_tests_properties(copy_bw_all_cores PROPERTIES LABELS unit TIMEOUT 60)
if(MCB_HAVE_CUDA)
  # The device kernels against a device-to-device copy: skipped without a GPU.
  add_test(NAME gpu_copy_bw_cuda COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/run_mpi.py --no-mpi
           "--expect-stdout=cuda memory of .*\n(.*\n)*1048576( +[0-9.]+){7}\n"
           -- $<TARGET_FILE:mcb_copy_bw> -d cuda -m 1048576 -i 5)
  set_tests_properties(gpu_copy_bw_cuda PROPERTIES LABELS "unit;gpu" TIMEOUT 60
                       SKIP_REGULAR_EXPRESSION "no usable CUDA device|no CUDA device on this node")
endif()
foreach(case "iterations_zero|--iterations 0: must be >= 1|-i 0" "size_garbage|--message-size 0:x|-m 0:x"
             "unknown_option|--bogus|--bogus" "threads_zero|--threads 0: expected a positive integer or all|-t 0"
             "threads_garbage|--threads many: expected a positive integer or all|-t many"
             "mem_garbage|--mem gpu: expected host, cuda or hip|-d gpu")
  string(REPLACE "|" ";" c "${case}")
  list(GET c 0 name)
  list(GET c 1 regex)
  list(GET c 2 args)
  separate_arguments(args)
  add_test(NAME bad_copy_bw_${name} COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/run_mpi.py --no-mpi
           "--expect-error=${regex}" -- $<TARGET_FILE:mcb_copy_bw> ${args})
  set_tests_properties(bad_copy_bw_${name} PROPERTIES LABELS bad_input TIMEOUT 60)
endforeach()

# Lane and multi-process-per-GPU allreduces (allreduce-multi-process-per-gpu):
# ring, lane, ppg_standard and ppg_lane (and system, on one process per GPU)
# validated against the sums mcb computes, on virtual nodes of K ranks with
# G GPUs x PPG processes (also the odd and prime PPG 3 and 5; host shared
# memory stands in for each GPU's
# buffers), 1, 5, 4096 and 2^20 floats; in place, cyclic order and host
# copies (--gpu-aware no) on some. Case: P;K;G;PPG;extra arguments.
set(PPG_ALGOS ring,lane,ppg_standard,ppg_lane,system)
foreach(case "2;2;1;2;" "4;4;2;2;--in-place" "4;4;1;4;--gpu-aware;no" "6;2;2;1;--rank-order;cyclic"
        "6;2;1;2;--inner;ring" "8;8;2;4;--in-place;--gpu-aware;no" "8;8;4;2;" "12;4;4;1;--in-place"
        "12;4;1;4;--rank-order;cyclic;--gpu-aware;no" "16;8;4;2;--gpu-aware;no" "16;4;2;2;--rank-order;cyclic"
        "6;3;1;3;--in-place" "10;5;1;5;--rank-order;cyclic" "12;6;2;3;--gpu-aware;no")
  list(GET case 0 p)
  list(GET case 1 k)
  list(GET case 2 g)
  list(GET case 3 ppg)
  list(SUBLIST case 4 -1 extra)
  string(REPLACE ";" "" tag "${extra}")
  string(REPLACE "--" "_" tag "${tag}")
  mcb_mpi_test(allreduce_ppg_p${p}_k${k}_g${g}_ppg${ppg}${tag} ${p} --expect-ranks --expect-rows 20
               --expect-stdout "# GPUs: ${g} per node, ${ppg} process"
               -- ${AR} -c -m 4,20,16384,4194304 -i 2 -x 1 --algorithm ${PPG_ALGOS} --ranks-per-node ${k}
               --gpus-per-node ${g} --procs-per-gpu ${ppg} ${extra})
endforeach()
# The header's "# GPUs:" line only where the run is about GPUs: not on a
# host-memory run that names no GPU option; --gpu-aware alone brings it.
mcb_mpi_test(allreduce_header_no_gpus 2 --expect-ranks --expect-rows 1 --reject-stdout "^# GPUs?:"
             -- ${AR} -c -m 8:8 -i 2 -x 1 --algorithm system)
mcb_mpi_test(allreduce_header_gpu_aware 2 --expect-ranks --expect-rows 1
             --expect-stdout "^# GPUs: 2 per node, 1 process per GPU, GPU-aware MPI: no"
             -- ${AR} -c -m 8:8 -i 2 -x 1 --algorithm system --gpu-aware no)
# The issue's acceptance run, as a user types it.
mcb_mpi_test(allreduce_ppg_done_p8 8 --expect-ranks --expect-rows 95
             --expect-stdout "# GPUs: 2 per node, 2 processes per GPU sharing its buffers, GPU-aware MPI: yes"
             -- ${AR} --algorithm ${PPG_ALGOS} --ranks-per-node 4 --gpus-per-node 2 --procs-per-gpu 2 -c
             ${ACCEPT_ITERATIONS})
mcb_bad_input(allreduce_ppg_not_dividing 8 "--procs-per-gpu 3 does not divide the 4 ranks per node"
              -- ${AR} --ranks-per-node 4 --procs-per-gpu 3)
mcb_bad_input(allreduce_ppg_product 8 "--gpus-per-node 2 x --procs-per-gpu 4 = 8 ranks per node, but there are 4"
              -- ${AR} --ranks-per-node 4 --gpus-per-node 2 --procs-per-gpu 4)
mcb_bad_input(allreduce_gpu_aware 2 "--gpu-aware maybe: expected auto, yes or no" -- ${AR} --gpu-aware maybe)
mcb_bad_input(allreduce_staging 2 "--staging locked: expected pinned or pageable" -- ${AR} --staging locked)
mcb_bad_input(allreduce_ppg_zero 2 "--procs-per-gpu 0: must be >= 1" -- ${AR} --procs-per-gpu 0)
mcb_bad_input(allreduce_gpus_zero 2 "--gpus-per-node 0: must be >= 1" -- ${AR} --gpus-per-node 0)
if(NOT MCB_HAVE_CUDA)
  mcb_bad_input(allreduce_ppg_cuda_missing 4 "this build has no CUDA backend"
                -- ${AR} -d cuda --ranks-per-node 2 --procs-per-gpu 2)
endif()

# On a GPU (CUDA or HIP build): the same algorithms on device buffers shared
# through IPC handles, GPU-aware MPI and host copies. Without a GPU these
# are reported as skipped, not passed.
foreach(dev cuda hip)
  string(TOUPPER ${dev} DEV)
  if(MCB_HAVE_${DEV})
    mcb_mpi_test(gpu_allreduce_ppg_${dev}_host_copy 4 --expect-ranks --expect-rows 20
                 -- ${AR} -d ${dev} -c -m 4,20,16384,4194304 -i 2 -x 1 --algorithm ${PPG_ALGOS} --ranks-per-node 4
                 --gpus-per-node 2 --procs-per-gpu 2 --gpu-aware no)
    mcb_mpi_test(gpu_allreduce_ppg_${dev}_aware 4 --expect-ranks --expect-rows 16
                 -- ${AR} -d ${dev} -c -m 4,20,16384,4194304 -i 2 -x 1 --algorithm lane,ppg_standard,ppg_lane,system
                 --ranks-per-node 4 --gpus-per-node 2 --procs-per-gpu 2 --gpu-aware yes)
    # An MPI that cannot read device memory refuses --gpu-aware yes: skipped there.
    set_tests_properties(gpu_allreduce_ppg_${dev}_host_copy gpu_allreduce_ppg_${dev}_aware PROPERTIES
                         LABELS gpu SKIP_REGULAR_EXPRESSION
                         "no usable ${DEV} device|no ${DEV} device on this node|cannot read ${dev} device memory")
    # The refusal itself, one line and exit 2 on every rank, before any device
    # is touched (so it runs without a GPU), where the MPI's query says no.
    if(NOT MCB_MPI_PREFIX)
      mcb_bad_input(gpu_aware_refused_${dev} 4
                    "--gpu-aware yes: this MPI .* cannot read ${dev} device memory .* says no.. use --gpu-aware no"
                    -- ${AR} -d ${dev} --gpu-aware yes -m 4 --ranks-per-node 2 --procs-per-gpu 2)
    endif()
  endif()
endforeach()

# mcb_pingpong (Figure 5): payload validated for PPG 1..4 (every active
# count of each), host copies and GPU-aware, and the issue's run as a user
# types it; bad input.
set(PP $<TARGET_FILE:mcb_pingpong>)
foreach(case "2;1;1;" "4;2;2;" "6;3;3;--gpu-aware;no" "8;4;4;" "8;4;2;--gpu-aware;no" "16;8;4;-T;float")
  list(GET case 0 p)
  list(GET case 1 k)
  list(GET case 2 ppg)
  list(SUBLIST case 3 -1 extra)
  set(rows 0)
  foreach(a 1 2 4 8 16 32 64)
    if(a LESS ppg OR a EQUAL ppg)
      math(EXPR rows "${rows} + 4")
    endif()
  endforeach()
  if(ppg EQUAL 3)
    set(rows 12)  # 1, 2 and 3 active
  endif()
  string(REPLACE ";" "" tag "${extra}")
  string(REPLACE "--" "_" tag "${tag}")
  mcb_mpi_test(pingpong_p${p}_ppg${ppg}${tag} ${p} --expect-ranks --expect-rows ${rows}
               --expect-stdout "Bandwidth.MB/s." -- ${PP} -c -m 4,20,4096,1048576 -i 5 -x 1 --ranks-per-node ${k}
               --procs-per-gpu ${ppg} ${extra})
endforeach()
mcb_mpi_test(pingpong_done_p8 8 --expect-ranks --expect-rows 63 --expect-stdout "parameters: active=4"
             -- ${PP} --ranks-per-node 4 --procs-per-gpu 4 -c ${ACCEPT_ITERATIONS})
mcb_bad_input(pingpong_three_nodes 6 "pingpong needs exactly 2 nodes" -- ${PP} --ranks-per-node 2)
mcb_bad_input(pingpong_active 8 "pingpong --active 8 exceeds the 4 processes per GPU"
              -- ${PP} --ranks-per-node 4 --procs-per-gpu 4 --active 8)
mcb_bad_input(pingpong_active_garbage 4 "--active x: expected one of 1, 2, 3"
              -- ${PP} --ranks-per-node 2 --active x)
mcb_bad_input(pingpong_ppg_not_dividing 6 "--procs-per-gpu 2 does not divide the 3 ranks per node"
              -- ${PP} --ranks-per-node 3 --procs-per-gpu 2)
mcb_bad_input(pingpong_cyclic 4 "pingpong pairs the nodes' local ranks in block order"
              -- ${PP} --ranks-per-node 2 --rank-order cyclic)

# Where the kernel refuses cross-memory attach (ptrace restrictions for a
# user without CAP_SYS_PTRACE), the tests that name --copy cma are skipped
# with that reason, not failed (the refusal itself is tested with a shim).
set_tests_properties(${CMA_TESTS} PROPERTIES SKIP_REGULAR_EXPRESSION "cross-memory attach is refused")

# scripts/measure/reduction_matrix.py: a cell that passes and one the binary refuses
# (exit 0), and its bad input (one line, exit 1).
add_test(NAME scripts_reduction_matrix COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/run_mpi.py --no-mpi
         "--expect-stdout=^int8 +sum +pass +pass" "--expect-stdout=^bfloat16 +sum +refused"
         -- ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/measure/reduction_matrix.py --build ${PROJECT_BINARY_DIR} -n 2,3
         --types int8,bfloat16 --ops sum --timeout 120)
add_test(NAME scripts_reduction_matrix_bad_type COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/run_mpi.py
         --no-mpi --expect-exit 1 "--expect-stderr=^reduction_matrix: --types: unknown type quad"
         -- ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/measure/reduction_matrix.py --build ${PROJECT_BINARY_DIR}
         --types quad)
set_tests_properties(scripts_reduction_matrix scripts_reduction_matrix_bad_type PROPERTIES LABELS "scripts;mpi"
                     TIMEOUT 300)

# --fresh-send: every rank writes its input before each iteration (values
# unchanged: the validation after the timed loop checks the send buffer and
# the results); the header and the CSV say so; host memory only.
mcb_mpi_test(fresh_send_reduce_p3 3 --expect-rows 4 --expect-stdout "memory: host, fresh send, in place: no"
             -- ${RED} --algorithm shm_tree,system --copy copy-in -c -m 4,16384 -i 3 -x 1 --fresh-send)
mcb_mpi_test(fresh_send_allreduce_p5_in_place 5 --expect-rows 4 --expect-stdout "fresh send, in place: yes"
             -- ${AR} --algorithm shm_recursive_exchange,system -c -m 4,4096 -i 3 -x 1 --in-place --fresh-send)
mcb_mpi_test(fresh_send_bcast_p2_registered 2 --expect-rows 2
             -- ${BC} --algorithm shm_tree --buffers registered -c -m 8,65536 -i 3 -x 1 --fresh-send)
mcb_mpi_test(fresh_send_alltoall_p3 3 --expect-rows 6 -- $<TARGET_FILE:mcb_alltoall> --algorithm pairwise,bruck -c
             -m 1,1000,4096 -i 3 -x 1 --fresh-send)
mcb_bad_input(fresh_send_device 2 "--fresh-send: writes host memory \\(--mem cuda\\)" -- ${AR} --fresh-send --mem cuda)
