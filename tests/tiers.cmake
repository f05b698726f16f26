# What CI runs (issue 55; docs/development.md, "How long CI takes"). Every
# test runs in `ci/test.sh --extended` and in a plain `ctest`; `ci/test.sh`,
# CI's command, leaves out two labels:
#
#   extended  on both MPIs: a point that a smaller one in CI proves as well
#             (ranks far beyond the 2 cores, another block/cyclic order of
#             the same large layout), kept for the extended suite.
#   sweep     on the second MPI only (MPICH): the points of a parameter
#             sweep between its representatives. The first MPI (Open MPI)
#             runs every sweep whole; the second runs each family at 1, 2,
#             5, 7, 12, 13 and 16 ranks where the sweep has them (odd,
#             prime, power of two, several virtual nodes), block and cyclic,
#             in place and not, and the sweeps without rank counts (types x
#             operations at 7 ranks) whole. What differs between two MPIs
#             is the MPI's part (its collectives, reductions, shared-memory
#             windows, launch), which those points exercise; mcb's
#             algorithms are the same code on both.
#
# Each list holds regular expressions over test names, anchored here. A
# pattern that matches no test of this build is an error: a renamed test
# must not leave the tier silently (patterns of one MPI's tests only are
# listed per MPI).
set(MCB_TIER_EXTENDED
    # P = 24: 3 nodes of 8 stay in CI in cyclic order (the layout only 24
    # ranks give); its block order and 6 nodes of 4 are the extended suite's.
    node_aware_family_p24_rpn8_block node_aware_family_p24_rpn4_cyclic)
set(MCB_TIER_EXTENDED_mpich)
# Every P <= 64 (tra_count_p32 in CI counts every P <= 32).
set(MCB_TIER_EXTENDED_openmpi tra_count_p64)

# Rank counts the second MPI leaves out of the P sweeps.
set(_p "p(3|4|6|8|9|10|11|14|15|17|18|19|20)")
set(MCB_TIER_SWEEP
    "alltoall_${_p}(_vnodes|_cyclic)?"
    "allgather_${_p}(_in_place|_cyclic|_cyclic_in_place)?"
    "allreduce_${_p}(_in_place)?"
    "allreduce_shm_${_p}_k[0-9]+(_in_place)?"
    "(reduce|bcast)_${_p}_(in_place|cyclic)"
    # Issue 71's collectives: 1, 2, 5 and 7 ranks and the cyclic virtual
    # nodes stay; the matrix keeps double at 7 ranks and int in place.
    "(reduce_scatter_block|reduce_scatter|allgatherv|gather|gatherv|scatter|scatterv)_${_p}(_in_place)?"
    # shm_linear: 2, 5 and 7 ranks and the virtual nodes stay; 3 is the sweep's.
    "(gather|gatherv|scatter|scatterv)_shm_linear_registered_p3"
    "reduce_scatter(_block)?_matrix_(int8|uint64)_[a-z]+_p7"
    "reduce_scatter(_block)?_matrix_(uint8|int16|uint16|int32|uint32|int64|float)_sum_p5_in_place"
    "tra_${_p}"
    # tra2: 3 nodes of 3 (p9), 12 ranks in every node size and order, and the
    # odd p15 stay; 4, 6, 8 and 16 ranks are the sweep's.
    "tra2_p(4|6|8|16)_rpn[0-9]+_(block|cyclic)"
    # The node-aware family: 5, 7, 9, 12 and 15 ranks stay (odd, prime, 2
    # to 5 nodes of every size); 4, 8, 16 and 24 ranks are the sweep's.
    "node_aware_family_p(4|8|16|24)_rpn[0-9]+_(block|cyclic)"
    # PPG: 2 to 10 ranks stay, 12 and 16 are the sweep's.
    "allreduce_ppg_p(12|16)_.*"
    # The back-to-back calls without a barrier on virtual nodes (the stages
    # only; 2, 3, 5 and 7 ranks on one node, the small path, stay).
    "back_to_back_p(4|6)_k[0-9]+_(block|cyclic)"
    # Types x operations: every operation on int8, uint64 and double at 7
    # ranks stays; the other types, and every in-place twin at 3 ranks (in
    # place: allreduce_pN_in_place), are the sweep's.
    "allreduce_matrix_(uint8|int16|uint16|int32|uint32|int64|float)_[a-z]+_p7"
    "allreduce_matrix_[a-z0-9]+_[a-z]+_p3_in_place"
    # The preload per algorithm: 4 and 7 ranks stay, 3 and 5 are the sweep's;
    # its resource bounds (100,000 shapes, 5,000 communicators: mcb's
    # segments, mappings and descriptors, not the MPI's) run on the first.
    "preload_(tra|tra2|bruck|pairwise|persistent|node_aware|hierarchical|locality|multileader|multileader_na)_p(3|5)"
    "preload_counts_100k_shm_p2" "preload_churn_p3"
    # The issues' acceptance runs, as a user types them (every algorithm at
    # every size of the issue): the sweeps above prove the same.
    "(allgather|allreduce|allreduce_ppg|pingpong)_done_p[0-9]+"
    # Bad input: option checks before any communication are mcb's alone;
    # the second MPI keeps those refused once the ranks have set up (a
    # layout, a node count, a kernel's refusal, an MPI's own type) and the
    # tools' one line each.
    "bad_.*")
set(MCB_TIER_SWEEP_KEEP
    bad_unknown_algorithm bad_csv_unwritable bad_leaders_not_dividing bad_tra2_not_multiple bad_uneven_regions
    bad_list_late_radix bad_breakdown_sub_error bad_allgather_ne_odd bad_allreduce_cma_refused
    bad_allreduce_uneven bad_allreduce_buffers_ppg bad_pingpong_three_nodes bad_multihost_uneven_node_aware
    bad_multihost_uneven_tra2 bad_fft_size bad_copy_bw_size_garbage)
# An MPI's own type refused: only where the MPI refuses it (MPICH 4.2.1
# reduces half, and its build has allreduce_half instead).
if(TEST bad_allreduce_half)
  list(APPEND MCB_TIER_SWEEP_KEEP bad_allreduce_half)
endif()
# The scripts' tests that launch the MPI only as a stand-in's host (their
# logic is Python's, the same on both MPIs): the first MPI runs them.
set(MCB_TIER_SWEEP_mpich osu_parity_standin compare_best_crafted tra_model_figure4
    # The node-aware family at 5, 7 and 9 ranks on the second MPI (odd,
    # prime, 3 nodes of 3); 12 and 15 are the first MPI's (CI 2026-12-02:
    # 97 s of MPICH's test time in the machine's slow state).
    "node_aware_family_p(12|15)_rpn[0-9]+_(block|cyclic)"
    # mcb's own messages counted through the PMPI interposer: the schedule
    # is mcb's; the second MPI keeps tra_count_p16_cyclic and
    # message_count_p8_rpn2 (the interposer on MPICH).
    tra_count_p32 "message_count_p(12|16|24)_rpn[0-9]+(_cyclic)?")
set(MCB_TIER_SWEEP_openmpi)

# mcb_tier(LABEL PATTERNS... [EXCEPT NAMES...]): LABEL on every test of this
# directory whose whole name matches one of PATTERNS, but those named after
# EXCEPT. Each pattern and each name must match a test.
function(mcb_tier label)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "EXCEPT")
  get_directory_property(tests TESTS)
  foreach(name ${arg_EXCEPT})
    if(NOT name IN_LIST tests)
      message(SEND_ERROR "tests/tiers.cmake: '${name}' (kept out of ${label}) is no test of this build")
    endif()
  endforeach()
  set(count 0)
  foreach(pattern ${arg_UNPARSED_ARGUMENTS})
    set(matched FALSE)
    foreach(test ${tests})
      if(test MATCHES "^(${pattern})$")
        set(matched TRUE)
        if(NOT test IN_LIST arg_EXCEPT)
          set_property(TEST ${test} APPEND PROPERTY LABELS ${label})
          math(EXPR count "${count} + 1")
        endif()
      endif()
    endforeach()
    if(NOT matched)
      message(SEND_ERROR "tests/tiers.cmake: '${pattern}' (label ${label}) matches no test of this build")
    endif()
  endforeach()
  list(LENGTH tests all)
  message(STATUS "mcb: ${count} of ${all} tests labelled ${label}")
endfunction()
mcb_tier(extended ${MCB_TIER_EXTENDED} ${MCB_TIER_EXTENDED_${MCB_MPI_FLAVOR}})
mcb_tier(sweep ${MCB_TIER_SWEEP} ${MCB_TIER_SWEEP_${MCB_MPI_FLAVOR}} EXCEPT ${MCB_TIER_SWEEP_KEEP})
