# The multi-radix paper's collective set beyond allreduce, reduce and bcast
# (issue 71): mcb_reduce_scatter_block, mcb_reduce_scatter, mcb_allgatherv,
# mcb_gather, mcb_gatherv, mcb_scatter and mcb_scatterv. Every algorithm
# (the system's too) validated element by element (-c) for P in 1..8 (odd,
# prime, powers of two), in place (each collective's own MPI_IN_PLACE
# meaning) and not, on virtual nodes in cyclic order, the v-forms with every
# --counts choice (equal, linear, one heavy rank, zero counts), the
# reduce-scatters over types and operations; sizes below P elements give
# empty parts.
set(SG_RS_SIZES -m 4,12,64,4096,20000)  # bytes of the vector (floats)
set(SG_BLOCK_SIZES -m 1,3,64,5000)       # bytes of a block (chars)

# Each binary with its sizes and the rows of a table.
set(SG_reduce_scatter_block ${SG_RS_SIZES})
set(SG_reduce_scatter ${SG_RS_SIZES})
set(SG_allgatherv ${SG_BLOCK_SIZES})
set(SG_gather ${SG_BLOCK_SIZES})
set(SG_gatherv ${SG_BLOCK_SIZES})
set(SG_scatter ${SG_BLOCK_SIZES})
set(SG_scatterv ${SG_BLOCK_SIZES})
set(SG_ROWS_reduce_scatter_block 5)
set(SG_ROWS_reduce_scatter 5)
set(SG_V reduce_scatter allgatherv gatherv scatterv)
# MPICH 4.0 to 4.2 (4.2.1 checked 2026-12-08: mcb_gather and mcb_scatter
# --algorithm system_persistent -c fail at 2-5 ranks; as allgather.cmake's
# MPI_Allgather_init before 4.1): MPI_Scatter_init
# delivers to the non-root ranks on the first MPI_Start only (at 3 ranks its
# MPI_Wait aborts with "Invalid communicator"), and MPI_Gather_init never
# copies the root's own block (checked with a plain C program on 4.0.2:
# starts 2 and 3 leave the receive buffers as they were). The suite runs
# system_persistent with MPICH's own workaround (its tsp_tree schedules),
# and on one rank, where no schedule copies the root's block, leaves it
# out of the gather; these tests show that -c catches the bugs without it.
# The --counts choice of a v-form's run at P ranks, plain and in place: every
# choice at every P across the two.
set(SG_COUNTS_1 equal heavy)
set(SG_COUNTS_2 linear zeros)
set(SG_COUNTS_3 heavy linear)
set(SG_COUNTS_4 zeros equal)
set(SG_COUNTS_5 linear heavy)
set(SG_COUNTS_6 heavy zeros)
set(SG_COUNTS_7 zeros linear)
set(SG_COUNTS_8 equal heavy)
set(SG_ENV_gather)
set(SG_ENV_scatter)
set(SG_MPICH_GATHER_P1 FALSE)
if(MCB_MPI_FLAVOR STREQUAL "mpich" AND MPI_CXX_LIBRARY_VERSION_STRING MATCHES "Version:[ \t]*(3\\.|4\\.[0-2]\\.)")
  set(SG_ENV_gather --env MPIR_CVAR_IGATHER_INTRA_ALGORITHM=tsp_tree)
  set(SG_ENV_scatter --env MPIR_CVAR_ISCATTER_INTRA_ALGORITHM=tsp_tree)
  set(SG_MPICH_GATHER_P1 TRUE)
  mcb_mpi_test(gather_mpich_persistent_bug 3 --expect-exit 1
               --expect-stderr "validation failed: algorithm system_persistent, size 8 B, rank 0"
               -- $<TARGET_FILE:mcb_gather> --algorithm system_persistent -c -m 8 -i 2 -x 0)
  mcb_mpi_test(gather_mpich_persistent_bug_p1 1 ${SG_ENV_gather} --expect-exit 1
               --expect-stderr "validation failed: algorithm system_persistent, size 8 B, rank 0"
               -- $<TARGET_FILE:mcb_gather> --algorithm system_persistent -c -m 8 -i 2 -x 0)
  mcb_mpi_test(scatter_mpich_persistent_bug 2 --expect-exit 1
               --expect-stderr "validation failed: algorithm system_persistent, size 8 B, rank 1"
               -- $<TARGET_FILE:mcb_scatter> --algorithm system_persistent -c -m 8 -i 2 -x 0)
endif()
foreach(coll reduce_scatter_block reduce_scatter allgatherv gather gatherv scatter scatterv)
  set(bin $<TARGET_FILE:mcb_${coll}>)
  set(rows 4)
  if(DEFINED SG_ROWS_${coll})
    set(rows ${SG_ROWS_${coll}})
  endif()
  set(check ${SG_${coll}} -c -i 2 -x 1 --algorithm all)
  set(expect ${SG_ENV_${coll}} --expect-ranks --expect-every-algorithm --expect-rows-per-block ${rows})
  list(FIND SG_V ${coll} is_v)
  foreach(p RANGE 1 8)
    set(counts "")
    set(counts_in_place "")
    set(say "")
    set(say_in_place "")
    if(is_v GREATER -1)
      list(GET SG_COUNTS_${p} 0 c0)
      list(GET SG_COUNTS_${p} 1 c1)
      set(counts --counts ${c0})
      set(counts_in_place --counts ${c1})
      set(say ", counts: ${c0}")
      set(say_in_place ", counts: ${c1}")
    endif()
    if(coll STREQUAL "gather" AND p EQUAL 1 AND SG_MPICH_GATHER_P1)
      mcb_mpi_test(${coll}_p${p} ${p} --expect-ranks --expect-rows 12 -- ${bin} ${SG_${coll}} -c -i 2 -x 1
                   --algorithm system,linear,binomial)
    else()
      mcb_mpi_test(${coll}_p${p} ${p} ${expect} --expect-stdout "memory: host${say}, in place: no"
                   -- ${bin} ${check} ${counts})
    endif()
    mcb_mpi_test(${coll}_p${p}_in_place ${p} ${expect} --expect-stdout "memory: host${say_in_place}, in place: yes"
                 -- ${bin} ${check} ${counts_in_place} --in-place)
  endforeach()
  # Virtual nodes in cyclic order: 2 nodes of 3, 3 nodes of 2 (in place).
  mcb_mpi_test(${coll}_p6_cyclic 6 ${expect} --expect-stdout "ranks per node: 3 .virtual nodes., rank order: cyclic"
               -- ${bin} ${check} --ranks-per-node 3 --rank-order cyclic)
  mcb_mpi_test(${coll}_p6_cyclic_in_place 6 ${expect}
               --expect-stdout "ranks per node: 2 .virtual nodes., rank order: cyclic"
               -- ${bin} ${check} --ranks-per-node 2 --rank-order cyclic --in-place)
  mcb_mpi_test(${coll}_list 1 --expect-stdout "^  system_persistent" --expect-stdout "^  binomial|^  ring"
               -- ${bin} --list)
endforeach()

# The reduce-scatters over types and operations at 7 ranks (an odd prime),
# in place and not: every operation on int8, uint64 and double, and the
# other types with sum. The MPIs' known wrong reductions (allreduce.cmake:
# MPICH before 4.2.1 compares unsigned integers as signed in MPI_MIN and
# MPI_MAX; Open MPI's AVX sums of 8- and 16-bit integers saturate) run
# mcb's algorithms in the matrix, and a test of their own expects the
# system's to fail, so that a fixed MPI turns it red.
set(SG_MCB_RS ring,recursive_halving,pairwise)
function(sg_known_wrong out type op)
  set(${out} "" PARENT_SCOPE)
  if(MCB_MPI_FLAVOR STREQUAL "mpich" AND MCB_MPI_VERSION VERSION_LESS 4.2.1 AND type MATCHES "^uint"
     AND op MATCHES "min|max")
    set(${out} mpich PARENT_SCOPE)
  elseif(MCB_MPI_FLAVOR STREQUAL "openmpi" AND type MATCHES "^uint(8|16)$" AND op STREQUAL "sum")
    set(${out} openmpi PARENT_SCOPE)
  endif()
endfunction()
# The v-form's matrix is a sample of the block form's (the same kernels and
# schedules; the MPI's MPI_Reduce_scatter on every operation and on the
# types whose sums the MPIs get wrong): CI time (issue 71).
foreach(coll reduce_scatter_block reduce_scatter)
  set(bin $<TARGET_FILE:mcb_${coll}>)
  set(combos)
  if(coll STREQUAL "reduce_scatter_block")
    foreach(type int8 uint64 double)
      foreach(op sum prod min max band bor bxor)
        if(NOT (type STREQUAL "double" AND op MATCHES "^b"))
          list(APPEND combos ${type}:${op}:7:)
        endif()
      endforeach()
    endforeach()
    foreach(type uint8 int16 uint16 int32 uint32 int64 float int)
      list(APPEND combos ${type}:sum:5:in_place)
    endforeach()
  else()
    list(APPEND combos int8:sum:7: int8:max:7: uint64:band:7: uint64:bxor:7: uint64:min:7: double:prod:7:
         double:min:7: uint8:sum:5:in_place uint16:sum:5:in_place float:sum:5:in_place int:sum:5:in_place)
  endif()
  foreach(combo ${combos})
    string(REPLACE ":" ";" parts "${combo}:")
    list(GET parts 0 type)
    list(GET parts 1 op)
    list(GET parts 2 p)
    list(GET parts 3 in_place)
    set(suffix)
    set(extra)
    if(in_place)
      set(suffix _in_place)
      set(extra --in-place)
    endif()
    set(name ${coll}_matrix_${type}_${op}_p${p}${suffix})
    sg_known_wrong(wrong ${type} ${op})
    set(algorithms all)
    set(rows --expect-every-algorithm --expect-rows-per-block 3)
    if(wrong)
      set(algorithms ${SG_MCB_RS})
      set(rows --expect-rows 9)
      mcb_mpi_test(${coll}_${wrong}_wrong_${type}_${op}${suffix} ${p} --expect-exit 1
                   --expect-stderr "validation failed: algorithm system, size 40000 B, rank"
                   -- ${bin} -c -m 40000:40000 -i 1 -x 0 --algorithm system -T ${type} --op ${op} ${extra})
    endif()
    mcb_mpi_test(${name} ${p} --expect-ranks ${rows} --expect-stdout "# type: ${type}"
                 -- ${bin} -c -m 64,4096,40000 -i 2 -x 0 --algorithm ${algorithms} -T ${type} --op ${op} ${extra})
  endforeach()
endforeach()

# The harness's counts: every choice keeps the total, and the header and
# the CSV name it.
set(SG_DIR ${CMAKE_CURRENT_BINARY_DIR}/scatter_gather)
file(MAKE_DIRECTORY ${SG_DIR})
mcb_mpi_test(gatherv_counts_csv 3 --expect-csv-sizes ${SG_DIR}/gatherv.csv binomial 8,64
             --expect-stdout "counts: heavy" -- $<TARGET_FILE:mcb_gatherv> -c -m 8,64 -i 2 -x 0 --counts heavy
             --csv ${SG_DIR}/gatherv.csv)

# Bad input: one line from rank 0, every rank non-zero.
mcb_bad_input(counts_unknown 3 "--counts lopsided: expected equal, linear, heavy or zeros"
              -- $<TARGET_FILE:mcb_gatherv> --counts lopsided)
mcb_bad_input(counts_not_offered 3 "--counts" -- $<TARGET_FILE:mcb_gather> --counts linear)
mcb_bad_input(reduce_scatter_op_type 3 "--op band: MPI defines band on integer types only, not on float"
              -- $<TARGET_FILE:mcb_reduce_scatter> --op band)
mcb_bad_input(reduce_scatter_block_size 3 "6 bytes is not a multiple of the float size"
              -- $<TARGET_FILE:mcb_reduce_scatter_block> -m 4,6)
mcb_bad_input(gatherv_too_large 3 "a buffer of 3221225472 bytes on 3 ranks is too large for one MPI count"
              -- $<TARGET_FILE:mcb_gatherv> -m 1073741824)
mcb_bad_input(scatter_unknown 3 "unknown algorithm 'binomal'" -- $<TARGET_FILE:mcb_scatter> --algorithm binomal)

# The shared-memory reduce-scatter (shm_recursive_exchange) beyond the
# sweep's defaults: every copy path and interface (registered buffers on
# every rank, on even ranks only: the fallback), its factors, several
# virtual nodes with every --inner, regions, uneven parts, in place.
set(SG_SHM --algorithm shm_recursive_exchange --interface all)
foreach(coll reduce_scatter_block reduce_scatter)
  set(bin $<TARGET_FILE:mcb_${coll}>)
  set(v)
  if(coll STREQUAL "reduce_scatter")
    set(v --counts linear)
  endif()
  mcb_mpi_test(${coll}_shm_copy_p5 5 --expect-ranks --expect-rows 30 --expect-stdout "copy=cma"
               -- ${bin} ${SG_RS_SIZES} -c -i 3 -x 1 ${SG_SHM} --copy auto,cma,copy-in ${v})
  mcb_mpi_test(${coll}_shm_registered_p4 4 --expect-ranks --expect-rows 20 --expect-stdout "copy=registered"
               -- ${bin} ${SG_RS_SIZES} -c -i 3 -x 1 ${SG_SHM} --copy registered,copy-in --buffers registered
               --in-place ${v})
  mcb_mpi_test(${coll}_shm_mixed_p3 3 --expect-ranks --expect-rows 10 --expect-stdout "buffers: mixed"
               -- ${bin} ${SG_RS_SIZES} -c -i 3 -x 1 ${SG_SHM} --buffers mixed ${v})
  mcb_mpi_test(${coll}_shm_factors_p8 8 --expect-ranks --expect-rows 30 --expect-stdout "factors=-2,-2,-2"
               -- ${bin} ${SG_RS_SIZES} -c -i 3 -x 1 ${SG_SHM} "--factors=-2,-2,-2/-4,-2/-2,-4" ${v})
  mcb_mpi_test(${coll}_shm_nodes_p6 6 --expect-ranks --expect-rows 40 --expect-stdout "inner=recursive_halving"
               -- ${bin} ${SG_RS_SIZES} -c -i 3 -x 1 ${SG_SHM} --ranks-per-node 3 --inner all ${v})
  mcb_mpi_test(${coll}_shm_nodes_cyclic_p8 8 --expect-ranks --expect-rows 10 --expect-stdout "rank order: cyclic"
               -- ${bin} ${SG_RS_SIZES} -c -i 3 -x 1 ${SG_SHM} --ranks-per-node 4 --rank-order cyclic
               --factors=-2,-2 --in-place ${v})
  mcb_mpi_test(${coll}_shm_regions_p8 8 --expect-ranks --expect-rows 10 --expect-stdout "region: size:2"
               -- ${bin} ${SG_RS_SIZES} -c -i 3 -x 1 ${SG_SHM} --ranks-per-node 4 --region size:2 ${v})
endforeach()
mcb_mpi_test(reduce_scatter_shm_zeros_p7 7 --expect-ranks --expect-rows 20 --expect-stdout "counts: zeros"
             -- $<TARGET_FILE:mcb_reduce_scatter> ${SG_RS_SIZES} -c -i 3 -x 1 ${SG_SHM} --counts zeros --in-place
             --copy cma,copy-in)
mcb_bad_input(reduce_scatter_shm_factors 4 "shm_recursive_exchange: --factors -2,-2,2,2: the tree takes reduce factors only"
              -- $<TARGET_FILE:mcb_reduce_scatter_block> --algorithm shm_recursive_exchange --factors=-2,-2,2,2)
mcb_bad_input(reduce_scatter_shm_inner 4 "--inner rabenseifner"
              -- $<TARGET_FILE:mcb_reduce_scatter_block> --algorithm shm_recursive_exchange --ranks-per-node 2
              --inner rabenseifner)
mcb_bad_input(reduce_scatter_shm_registered 3 "--copy registered: not every rank's send and receive buffers are registered"
              -- $<TARGET_FILE:mcb_reduce_scatter_block> --algorithm shm_recursive_exchange --copy registered)

# The shared-memory allgather and allgatherv (shm_recursive_exchange of
# mcb_allgather and mcb_allgatherv) beyond the sweeps' defaults, as the
# reduce-scatter's above.
set(SG_AG_SIZES -m 1,3,64,5000)
foreach(coll allgather allgatherv)
  set(bin $<TARGET_FILE:mcb_${coll}>)
  set(v)
  if(coll STREQUAL "allgatherv")
    set(v --counts linear)
  endif()
  mcb_mpi_test(${coll}_shm_copy_p5 5 --expect-ranks --expect-rows 24 --expect-stdout "copy=cma"
               -- ${bin} ${SG_AG_SIZES} -c -i 3 -x 1 ${SG_SHM} --copy auto,cma,copy-in ${v})
  mcb_mpi_test(${coll}_shm_registered_p4 4 --expect-ranks --expect-rows 16 --expect-stdout "copy=registered"
               -- ${bin} ${SG_AG_SIZES} -c -i 3 -x 1 ${SG_SHM} --copy registered,copy-in --buffers registered ${v})
  mcb_mpi_test(${coll}_shm_registered_in_place_p3 3 --expect-ranks --expect-rows 8 --expect-stdout "in place: yes"
               -- ${bin} ${SG_AG_SIZES} -c -i 3 -x 1 ${SG_SHM} --buffers registered --in-place ${v})
  mcb_mpi_test(${coll}_shm_mixed_p3 3 --expect-ranks --expect-rows 8 --expect-stdout "buffers: mixed"
               -- ${bin} ${SG_AG_SIZES} -c -i 3 -x 1 ${SG_SHM} --buffers mixed ${v})
  mcb_mpi_test(${coll}_shm_factors_p8 8 --expect-ranks --expect-rows 24 --expect-stdout "factors=2,2,2"
               -- ${bin} ${SG_AG_SIZES} -c -i 3 -x 1 ${SG_SHM} "--factors=2,2,2/2,4/4,2" --copy cma ${v})
  mcb_mpi_test(${coll}_shm_nodes_p6 6 --expect-ranks --expect-rows 8 --expect-stdout "ranks per node: 3"
               -- ${bin} ${SG_AG_SIZES} -c -i 3 -x 1 ${SG_SHM} --ranks-per-node 3 ${v})
  mcb_mpi_test(${coll}_shm_nodes_cyclic_p8 8 --expect-ranks --expect-rows 8 --expect-stdout "rank order: cyclic"
               -- ${bin} ${SG_AG_SIZES} -c -i 3 -x 1 ${SG_SHM} --ranks-per-node 4 --rank-order cyclic --factors=2,2
               --in-place ${v})
  mcb_mpi_test(${coll}_shm_regions_p8 8 --expect-ranks --expect-rows 8 --expect-stdout "region: size:2"
               -- ${bin} ${SG_AG_SIZES} -c -i 3 -x 1 ${SG_SHM} --ranks-per-node 4 --region size:2 ${v})
endforeach()
# --copy auto out of cache: with a last-level cache of 64 KB (a synthetic
# hwloc topology) 40000-byte blocks on 3 ranks make copy-in touch 600 KB,
# so auto takes cross-memory attach (1 B blocks: pieces too small, copy-in).
foreach(coll allgather allgatherv)
  mcb_mpi_test(${coll}_shm_out_of_cache_p3 3 --expect-ranks --expect-rows 4 --expect-stdout "copy=cma"
               --expect-stdout "copy=copy-in" --env "HWLOC_SYNTHETIC=pack:1 l3:1(size=64KB) core:4 pu:1"
               -- $<TARGET_FILE:mcb_${coll}> --algorithm shm_recursive_exchange -m 1,40000 -c -i 3 -x 1
               --interface persistent,blocking -v)
  set_tests_properties(${coll}_shm_out_of_cache_p3 PROPERTIES SKIP_REGULAR_EXPRESSION "cross-memory attach refused")
endforeach()
mcb_mpi_test(allgatherv_shm_zeros_p7 7 --expect-ranks --expect-rows 16 --expect-stdout "counts: zeros"
             -- $<TARGET_FILE:mcb_allgatherv> ${SG_AG_SIZES} -c -i 3 -x 1 ${SG_SHM} --counts zeros --in-place
             --copy cma,copy-in)
mcb_bad_input(allgather_shm_factors 4 "shm_recursive_exchange: --factors -2,2: the allgather takes allgather factors only"
              -- $<TARGET_FILE:mcb_allgather> --algorithm shm_recursive_exchange --factors=-2,2)
mcb_bad_input(allgather_shm_factors_product 4 "the allgather factors multiply to 2, not to the 4 ranks per node"
              -- $<TARGET_FILE:mcb_allgather> --algorithm shm_recursive_exchange --factors=2)

# The shared-memory gather(v) and scatter(v) (shm_linear) beyond the
# sweeps' defaults (every P in 1..8 and cyclic virtual nodes, --copy auto,
# persistent): every copy path and interface at 2, 3, 5 and 7 ranks
# (registered buffers at 2 and 3), in place and not, the v-forms with every
# --counts choice; one node and two in cyclic order in one launch (--nodes
# 1,2), three nodes of 2 in block order in place, two regions of a node;
# real nodes in tests/multihost.cmake.
set(SG_SHM_LINEAR ${SG_BLOCK_SIZES} -c -i 3 -x 1 --algorithm shm_linear --interface all)
foreach(coll gather gatherv scatter scatterv)
  set(bin $<TARGET_FILE:mcb_${coll}>)
  foreach(c linear heavy zeros)
    set(v_${c})
    if(coll MATCHES "v$")
      set(v_${c} --counts ${c})
    endif()
  endforeach()
  mcb_mpi_test(${coll}_shm_linear_p2 2 --expect-ranks --expect-rows 16 --expect-stdout "copy=registered"
               --expect-stdout "copy=cma" -- ${bin} ${SG_SHM_LINEAR} --copy registered,cma --buffers registered ${v_zeros})
  if(coll STREQUAL "gather" OR coll STREQUAL "scatterv")  # --copy auto at 2 ranks: cma from 32 KiB blocks
    mcb_mpi_test(${coll}_shm_linear_auto_p2 2 --expect-ranks --expect-rows 4 --expect-stdout "copy=cma"
                 --expect-stdout "copy=copy-in" --expect-stderr "copy path cma.*auto takes it wherever it works"
                 -- ${bin} -m 1024,65536 -c -i 3 -x 1 --algorithm shm_linear --interface persistent,blocking -v)
    set_tests_properties(${coll}_shm_linear_auto_p2 PROPERTIES SKIP_REGULAR_EXPRESSION "cross-memory attach refused")
  endif()
  mcb_mpi_test(${coll}_shm_linear_registered_p3 3 --expect-ranks --expect-rows 24 --expect-stdout "in place: yes"
               -- ${bin} ${SG_SHM_LINEAR} --copy registered,cma,copy-in --buffers registered --in-place ${v_heavy})
  mcb_mpi_test(${coll}_shm_linear_p5 5 --expect-ranks --expect-rows 16 --expect-stdout "copy=cma"
               -- ${bin} ${SG_SHM_LINEAR} --copy cma,copy-in ${v_linear})
  mcb_mpi_test(${coll}_shm_linear_p7 7 --expect-ranks --expect-rows 16 --expect-stdout "in place: yes"
               -- ${bin} ${SG_SHM_LINEAR} --copy cma,copy-in --in-place ${v_zeros})
  mcb_mpi_test(${coll}_shm_linear_nodes_p6 6 --expect-rows 16 --expect-stdout "copy_out|inter_node"
               --expect-stdout "ranks: 3, nodes: 1, ranks per node: 3 .virtual nodes., rank order: cyclic"
               --expect-stdout "ranks: 6, nodes: 2, ranks per node: 3 .virtual nodes., rank order: cyclic"
               -- ${bin} ${SG_SHM_LINEAR} --ranks-per-node 3 --rank-order cyclic --nodes 1,2 ${v_heavy})
  if(coll MATCHES "v$")  # (the sweep runs gather and scatter in place on 3 cyclic nodes of 2)
    mcb_mpi_test(${coll}_shm_linear_nodes_p6_in_place 6 --expect-ranks --expect-rows 8
                 --expect-stdout "nodes: 3, ranks per node: 2 .virtual nodes., rank order: block"
                 -- ${bin} ${SG_SHM_LINEAR} --ranks-per-node 2 --in-place ${v_zeros})
  endif()
endforeach()
mcb_mpi_test(gatherv_shm_linear_regions_p6 6 --expect-ranks --expect-rows 8 --expect-stdout "region: size:3"
             -- $<TARGET_FILE:mcb_gatherv> ${SG_SHM_LINEAR} --region size:3 --counts linear)
mcb_bad_input(gather_shm_linear_nodes_cma 4 "shm_linear .gather.: --copy cma: only copy-in here .several nodes"
              -- $<TARGET_FILE:mcb_gather> --algorithm shm_linear --copy cma --ranks-per-node 2)
mcb_bad_input(scatterv_shm_linear_registered 3
              "shm_linear .scatterv.: --copy registered: not every rank's send and receive buffers are registered"
              -- $<TARGET_FILE:mcb_scatterv> --algorithm shm_linear --copy registered --buffers mixed)
mcb_bad_input(scatter_shm_linear_cma_refused 3
              "shm_linear .scatter.: --copy cma: cross-memory attach is refused: process_vm_readv from pid [0-9]+: Operation not permitted"
              --preload $<TARGET_FILE:mcb_cma_refuse> -- $<TARGET_FILE:mcb_scatter> --algorithm shm_linear --copy cma)
