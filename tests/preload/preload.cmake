# libmcb_preload.so (src/preload, docs/preload.md): label preload (and mpi,
# the MPI's name). Every run puts the library in the ranks' LD_PRELOAD only
# (run_mpi.py --preload: not in the launcher's, and beside MPICH's yield
# shim); the ENVIRONMENT property sets MCB_*. The report goes to stdout
# (MCB_PRELOAD_REPORT=stdout), after the client's own lines.
#   preload_<combo>_p<P>      tests/preload/preload_client.c's "all"
#       scenario on P = 3, 4, 5, 7 ranks, one algorithm per collective; the
#       report must count every call the client made as served (the client
#       prints its call counts, the regular expression matches them).
#   preload_noncontig_p<P>, preload_buffers*: packed types, buffers that
#       change on some ranks only, the cache's bounds, agreed rebuilds.
#   preload_counts*, preload_churn_p3, preload_soak_*: many shapes, many
#       communicators and random calls (tests/preload/preload_soak.c) with
#       what the process holds flat.
#   preload_fallback_<reason>: one per fallback reason: the result right (the
#       client checks) and the report counting that reason.
#   preload_bad_env_*: a bad environment value is one line from rank 0 and a
#       non-zero exit on every rank, at MPI_Init.
#   preload_fortran_<binding>: a Fortran program (mpif.h, use mpi, use
#       mpi_f08) with every call served on both MPIs; preload_fortran_refuse:
#       refused calls to the MPI's own Fortran entry points.
#   preload_hpcc_<algorithm>: HPC Challenge (Open MPI builds) with its MPI
#       FFT's alltoall on mcb; preload_blacs: ScaLAPACK's BLACS tester
#       (combine operations, MPI_Allreduce). Skipped (77) when not installed.
add_executable(preload_client ${CMAKE_CURRENT_LIST_DIR}/preload_client.c)
target_link_libraries(preload_client PRIVATE MPI::MPI_C)
target_compile_options(preload_client PRIVATE -Wall -Wextra)

add_executable(preload_set ${CMAKE_CURRENT_LIST_DIR}/preload_set.c)
target_link_libraries(preload_set PRIVATE MPI::MPI_C)
target_compile_options(preload_set PRIVATE -Wall -Wextra)

add_executable(preload_soak ${CMAKE_CURRENT_LIST_DIR}/preload_soak.c)
target_link_libraries(preload_soak PRIVATE MPI::MPI_C ${CMAKE_DL_LIBS})
target_compile_options(preload_soak PRIVATE -Wall -Wextra)

set(PRELOAD_CLIENT $<TARGET_FILE:preload_client>)
set(PRELOAD_RUN ${MCB_RUN_MPI} --preload $<TARGET_FILE:mcb_preload>)

# mcb_preload_test(NAME RANKS "NAME=VALUE;..." [run_mpi.py checks...] -- PROGRAM ARGS...)
function(mcb_preload_test name ranks env)
  add_test(NAME preload_${name} COMMAND ${PRELOAD_RUN} -n ${ranks} --timeout 240 ${ARGN})
  set_tests_properties(preload_${name} PROPERTIES TIMEOUT 300 LABELS "mpi;preload"
                       ENVIRONMENT "MCB_PRELOAD_REPORT=stdout;${env}")
endfunction()

# The client's call counts, and each collective's report line with
# calls = served = that count and no fallback.
set(ALL_SERVED
    "calls: alltoall=([0-9]+) allgather=([0-9]+) allreduce=([0-9]+)\n[\\s\\S]*MPI_Alltoall algorithm=[^ ]+ calls=\\1 served=\\1 fallback=0 [\\s\\S]*MPI_Allgather algorithm=[^ ]+ calls=\\2 served=\\2 fallback=0 [\\s\\S]*MPI_Allreduce algorithm=[^ ]+ calls=\\3 served=\\3 fallback=0 ")

# The client's bcast count and the report's MPI_Bcast line: every call served
# (from rank 0, and from other roots on a rotated copy of the communicator).
set(BCAST_SERVED "bcast: calls=([0-9]+)[ \n][\\s\\S]*MPI_Bcast algorithm=[^ ]+ calls=\\1 served=\\1 fallback=0 ")

# MPI_Bcast (preload_client bcast): every kind and size, on the world, a
# duplicate, a reversed split, halves and MPI_COMM_SELF (served as nothing to
# do: single=), twice per buffer, and from the last rank.
function(mcb_preload_bcast name ranks env)
  mcb_preload_test(bcast_${name} ${ranks} "${env}" --expect-stdout "preload_client: bcast: [0-9]+ checks passed"
                   --expect-stdout "${BCAST_SERVED}"
                   --expect-stdout "MPI_Bcast [^\n]* single=[1-9]" -- ${PRELOAD_CLIENT} bcast ${ARGN})
endfunction()
mcb_preload_bcast(p3 3 "MCB_BCAST=shm_tree")
mcb_preload_bcast(p4_rpn2 4 "MCB_BCAST=shm_tree;MCB_RANKS_PER_NODE=2" --whole-nodes 2)
mcb_preload_bcast(p5_system 5 "MCB_BCAST=system")
mcb_preload_bcast(p2_cma 2 "MCB_BCAST=shm_tree:copy=cma")

# Combinations of one algorithm per collective. The node-aware ones run on
# virtual nodes of 2 at P = 4 (the client then leaves out the communicators
# that cut a node unevenly) and on one node per rank or one node (all ranks
# on MPI_COMM_TYPE_SHARED) at odd P, so that no layout refuses them.
set(combo_names tra bruck pairwise persistent node_aware tra2 multileader_na hierarchical locality multileader)
set(combo_tra "MCB_ALLTOALL=tra;MCB_ALLGATHER=sparbit;MCB_ALLREDUCE=rabenseifner")
set(combo_bruck "MCB_ALLTOALL=bruck;MCB_ALLGATHER=bruck;MCB_ALLREDUCE=ring")
set(combo_pairwise "MCB_ALLTOALL=pairwise;MCB_ALLGATHER=ring;MCB_ALLREDUCE=recursive_doubling")
set(combo_persistent "MCB_ALLTOALL=nonblocking;MCB_ALLGATHER=system_persistent;MCB_ALLREDUCE=system_persistent")
set(combo_node_aware "MCB_ALLTOALL=node_aware:inner=tra;MCB_ALLGATHER=system;MCB_ALLREDUCE=shm_recursive_exchange")
set(combo_tra2 "MCB_ALLTOALL=tra2;MCB_ALLGATHER=sparbit;MCB_ALLREDUCE=lane")
set(combo_multileader_na "MCB_ALLTOALL=multileader_node_aware:inner=bruck;MCB_ALLGATHER=bruck;MCB_ALLREDUCE=shm_tree")
set(combo_hierarchical
    "MCB_ALLTOALL=hierarchical:inner=nonblocking;MCB_ALLGATHER=ring;MCB_ALLREDUCE=shm_cyclic_shift")
set(combo_locality "MCB_ALLTOALL=locality_aware:inner=system;MCB_ALLGATHER=sparbit;MCB_ALLREDUCE=ppg_lane")
set(combo_multileader "MCB_ALLTOALL=multileader:inner=tra2;MCB_ALLGATHER=system_persistent;MCB_ALLREDUCE=ppg_standard")
set(combo_nodes node_aware tra2 multileader_na hierarchical locality multileader)
# Which combinations run at which P (CI time: every algorithm at least at
# P = 4 and at two odd P).
set(combos_3 tra bruck persistent node_aware tra2 hierarchical)
set(combos_4 ${combo_names})
set(combos_5 tra pairwise persistent multileader_na locality multileader)
set(combos_7 tra bruck pairwise node_aware tra2 multileader_na hierarchical locality multileader)
foreach(p 3 4 5 7)
  foreach(combo ${combos_${p}})
    set(env ${combo_${combo}})
    set(args all)
    if(combo IN_LIST combo_nodes)
      if(p EQUAL 4)
        list(APPEND env MCB_RANKS_PER_NODE=2)
        list(APPEND args --whole-nodes 2)
      elseif(combo STREQUAL "tra2" OR combo STREQUAL "hierarchical" OR combo STREQUAL "multileader")
        list(APPEND env MCB_RANKS_PER_NODE=1)
      endif()
    endif()
    if(MCB_MPI_FLAVOR STREQUAL "mpich" AND env MATCHES "MCB_ALLGATHER=system_persistent")
      # MPICH 4.0's persistent allgather is wrong on 2^k ranks from the
      # second MPI_Start (pmodels/mpich#6423; tests/allgather.cmake).
      list(APPEND env MPIR_CVAR_IALLGATHER_INTRA_ALGORITHM=sched_brucks)
    endif()
    mcb_preload_test(${combo}_p${p} ${p} "${env}" --expect-stdout "preload_client: all: [0-9]+ checks passed"
                     --expect-stdout "${ALL_SERVED}" --expect-stdout "MPI_Allreduce [^\n]* single=[1-9]"
                     -- ${PRELOAD_CLIENT} ${args})
  endforeach()
endforeach()

# Non-contiguous types, packed (also a vector on odd ranks against a
# contiguous type on even ones: the same type signature).
foreach(p 3 4)
  mcb_preload_test(noncontig_p${p} ${p} "${combo_tra}" --expect-stdout "noncontig: [0-9]+ checks passed"
                   --expect-stdout "MPI_Alltoall algorithm=tra calls=9 served=9 fallback=0 packed=6 "
                   --expect-stdout "MPI_Allgather algorithm=sparbit calls=9 served=9 fallback=0 packed=6 "
                   -- ${PRELOAD_CLIENT} noncontig)
endforeach()
# Buffers new on even ranks, the same on odd ones, and more shapes than the
# cache keeps (MCB_PRELOAD_CACHE=4,2): every call served, shapes dropped.
set(BOUNDED "MCB_PRELOAD_CACHE=4,2")
mcb_preload_test(buffers_p4 4 "${combo_tra};${BOUNDED}" --expect-stdout "buffers: [0-9]+ checks passed"
                 --expect-stdout "MPI_Alltoall algorithm=tra calls=24 served=24 fallback=0 .* shapes_evicted=[1-9]"
                 --expect-stdout "MPI_Allreduce algorithm=rabenseifner calls=24 served=24 fallback=0 .* shapes_evicted=[1-9]"
                 -- ${PRELOAD_CLIENT} buffers)
mcb_preload_test(buffers_node_aware_p5 5 "${combo_multileader_na};${BOUNDED}" --expect-stdout "buffers: [0-9]+ checks passed"
                 --expect-stdout "${ALL_SERVED}" -- ${PRELOAD_CLIENT} buffers)
# The last-call memo (serve.cpp) against a plan moved in front of it: one
# shape on two buffer pairs in turn, the second with a derived type of the
# same bytes (never kept); every call checked. It failed (wrong blocks)
# with the memo kept across a move to the front.
mcb_preload_test(memo_p3 3 "${combo_tra}" --expect-stdout "memo: [0-9]+ checks passed"
                 --expect-stdout "MPI_Alltoall algorithm=tra calls=80 served=80 fallback=0 "
                 --expect-stdout "MPI_Allgather algorithm=sparbit calls=80 served=80 fallback=0 "
                 -- ${PRELOAD_CLIENT} memo)
# The shared-memory allreduces' engines are bounded like the shapes and
# share one segment per communicator (issue 33): at most 4 segments with
# SHAPES=4 after 15 shapes, and 400 distinct counts on 2 ranks (a solver's,
# an AMR code's calls) leave the mappings flat (the client fails if they
# grow by more than 64) with one segment.
mcb_preload_test(buffers_shm_bounded_p3 3 "MCB_ALLREDUCE=shm_recursive_exchange;${BOUNDED}"
                 --expect-stdout "buffers: [0-9]+ checks passed" --expect-stdout "shm_segments=[0-4]$"
                 -- ${PRELOAD_CLIENT} buffers)
mcb_preload_test(counts_shm_p2 2 "MCB_ALLREDUCE=shm_recursive_exchange" --expect-stdout "counts: [0-9]+ checks passed"
                 --expect-stdout "MPI_Allreduce algorithm=shm_recursive_exchange calls=400 served=400 .* shm_segments=1$"
                 -- ${PRELOAD_CLIENT} counts 400)
# 100,000 distinct counts on 2 ranks, every call a new shape (the 70,000
# counts that used to exhaust vm.max_map_count): one segment, flat mappings.
mcb_preload_test(counts_100k_shm_p2 2 "MCB_ALLREDUCE=shm_recursive_exchange"
                 --expect-stdout "counts: [0-9]+ checks passed"
                 --expect-stdout "calls=100000 served=100000 .* shapes=100000 shapes_evicted=99984 .* shm_segments=1$"
                 -- ${PRELOAD_CLIENT} counts 100000)
# A new communicator per round with 1-64 in-place sums on it (CP2K's
# pattern; scripts/preload/preload_first_call.py --newcomm times it): every
# round's communicator gets a layout.
mcb_preload_test(newcomm_p3 3 "MCB_ALLREDUCE=shm_recursive_exchange" --expect-stdout "newcomm: [0-9]+ checks passed"
                 --expect-stdout "MPI_Allreduce algorithm=shm_recursive_exchange calls=870 served=870 .* layouts=50 "
                 -- ${PRELOAD_CLIENT} newcomm 10)
# MCB_PRELOAD_SETUP=2: a communicator is set up at its second call; the
# rounds with one call never are (10 + 40 first calls deferred, 40 layouts).
mcb_preload_test(newcomm_setup2_p3 3 "MCB_ALLREDUCE=shm_recursive_exchange;MCB_PRELOAD_SETUP=2"
                 --expect-stdout "newcomm: [0-9]+ checks passed"
                 --expect-stdout "MPI_Allreduce algorithm=shm_recursive_exchange calls=870 served=820 fallback=50 .* layouts=40 "
                 --expect-stdout "MPI_Allreduce fallback reason=deferred calls=50"
                 -- ${PRELOAD_CLIENT} newcomm 10)
# Communicator churn: 5,000 rounds of a split and its duplicate (10,000
# communicators, each with a layout, shapes and a shared segment), all three
# collectives on each: mappings, descriptors, /dev/shm and resident memory
# flat (the client checks), nothing left at the end.
mcb_preload_test(churn_p3 3 "MCB_ALLTOALL=tra;MCB_ALLGATHER=sparbit;MCB_ALLREDUCE=shm_recursive_exchange"
                 --expect-stdout "churn: [0-9]+ checks passed" --expect-stdout "${ALL_SERVED}"
                 --expect-stdout "MPI_Allreduce algorithm=[^ ]+ calls=10000 .* layouts=10000 .* shm_segments=0$"
                 -- ${PRELOAD_CLIENT} churn 5000)
# The soak client, short (scripts/preload/preload_soak.py runs it for an hour):
# random shapes, types, ops and sub-communicators, every result checked,
# the user-op calls falling back; the report's counts add up.
mcb_preload_test(soak_shm_p3 3 "MCB_ALLTOALL=tra;MCB_ALLGATHER=sparbit;MCB_ALLREDUCE=shm_recursive_exchange"
                 --expect-stdout "preload_soak: [0-9]+ checks passed"
                 --expect-stdout "calls: alltoall=([0-9]+) allgather=([0-9]+) allreduce=([0-9]+)\n[\\s\\S]*MPI_Alltoall algorithm=tra calls=\\1 served=\\1 fallback=0 [\\s\\S]*MPI_Allgather algorithm=sparbit calls=\\2 served=\\2 "
                 --expect-stdout "MPI_Allreduce fallback reason=user_op calls=[1-9]"
                 -- $<TARGET_FILE:preload_soak> --calls 600 --max-bytes 262144)
mcb_preload_test(soak_tree_p2 2 "MCB_ALLTOALL=bruck;MCB_ALLGATHER=ring;MCB_ALLREDUCE=shm_tree"
                 --expect-stdout "preload_soak: [0-9]+ checks passed" --expect-stdout "MPI_Allreduce fallback reason=user_op"
                 -- $<TARGET_FILE:preload_soak> --calls 600 --seed 7 --max-bytes 262144)
# Setups that are collective per buffer pair (a persistent request, a shared
# window per plan): the ranks agree on rebuilds, one MPI_Allreduce per call.
mcb_preload_test(buffers_agreed_p4 4
                 "MCB_ALLTOALL=system_persistent;MCB_ALLGATHER=sparbit;MCB_ALLREDUCE=shm_tree:interface=persistent;${BOUNDED}"
                 --expect-stdout "buffers: [0-9]+ checks passed" --expect-stdout "${ALL_SERVED}"
                 --expect-stdout "MPI_Alltoall algorithm=system_persistent .* agreements=[1-9]"
                 --expect-stdout "MPI_Allreduce algorithm=shm_tree:interface=persistent .* agreements=[1-9]"
                 -- ${PRELOAD_CLIENT} buffers)

# One test per fallback reason: the client checks the result, the report
# counts the reason.
function(mcb_preload_fallback reason ranks env scenario)
  mcb_preload_test(fallback_${reason} ${ranks} "${env}" --expect-stdout "${scenario}: [0-9]+ checks passed" ${ARGN}
                   -- ${PRELOAD_CLIENT} ${scenario})
endfunction()
mcb_preload_fallback(intercomm 4 "${combo_tra}" intercomm
                     --expect-stdout "MPI_Alltoall fallback reason=intercomm calls=1"
                     --expect-stdout "MPI_Allgather fallback reason=intercomm calls=1"
                     --expect-stdout "MPI_Allreduce fallback reason=intercomm calls=1")
mcb_preload_fallback(in_place 4 "${combo_tra}" in_place --expect-stdout "MPI_Alltoall fallback reason=in_place calls=3")
mcb_preload_fallback(type_mismatch 4 "${combo_tra}" mismatch
                     --expect-stdout "MPI_Alltoall fallback reason=type_mismatch calls=1"
                     --expect-stdout "MPI_Allgather fallback reason=type_mismatch calls=1")
mcb_preload_fallback(user_op 4 "${combo_tra}" user_op --expect-stdout "MPI_Allreduce fallback reason=user_op calls=3")
mcb_preload_fallback(non_commutative_op 3 "${combo_tra}" non_commutative_op
                     --expect-stdout "MPI_Allreduce fallback reason=non_commutative_op calls=3")
mcb_preload_fallback(type 4 "${combo_tra}" type --expect-stdout "MPI_Allreduce fallback reason=type calls=2")
mcb_preload_fallback(empty 3 "${combo_tra}" empty --expect-stdout "MPI_Alltoall fallback reason=empty calls=1"
                     --expect-stdout "MPI_Allgather fallback reason=empty calls=1"
                     --expect-stdout "MPI_Allreduce fallback reason=empty calls=1")
# A negative count goes to the MPI, which reports it (Open MPI: an error
# code under MPI_ERRORS_RETURN). Debian's MPICH 4.0.2 does not check the
# count and dies inside its pack code with or without the preload: there
# the call is the MPI's own as it is, and the test does not run.
if(NOT MCB_MPI_FLAVOR STREQUAL "mpich")
  mcb_preload_fallback(invalid 3 "${combo_tra}" invalid --expect-stdout "MPI_Alltoall fallback reason=invalid calls=1"
                       --expect-stdout "MPI_Allreduce fallback reason=invalid calls=1")
endif()
# 2 ranks x 1.1 GB blocks: 2.2 GB of receive buffer per rank, more than
# INT_MAX bytes; alone, for the memory.
mcb_preload_fallback(overflow 2 "${combo_tra}" overflow --expect-stdout "MPI_Allgather fallback reason=overflow calls=1")
set_tests_properties(preload_fallback_overflow PROPERTIES RUN_SERIAL TRUE)
# Nodes of 2 on 3 ranks: the world's are uneven (2 + 1), refused by the
# node-aware algorithms; its first two ranks make one even node, served.
mcb_preload_fallback(layout 3
                     "MCB_ALLTOALL=node_aware;MCB_ALLGATHER=ring;MCB_ALLREDUCE=lane;MCB_RANKS_PER_NODE=2" subcomm
                     --expect-stdout "MPI_Alltoall algorithm=node_aware calls=4 served=2 fallback=2 "
                     --expect-stdout "MPI_Alltoall fallback reason=layout calls=2 first: node_aware needs the same number of ranks on every node"
                     --expect-stdout "MPI_Allreduce algorithm=lane calls=4 served=2 fallback=2 "
                     --expect-stdout "MPI_Allreduce fallback reason=layout calls=2"
                     --expect-stderr "mcb_preload: warning: MCB_ALLTOALL=node_aware on a communicator of 3 ranks")
# A radix and factors that fit the world of 4, not its first three ranks.
mcb_preload_fallback(setup_error 4
                     "MCB_ALLTOALL=tra:radix=4;MCB_ALLGATHER=ring;MCB_ALLREDUCE=shm_recursive_exchange:factors=-2,-2,2,2"
                     subcomm
                     --expect-stdout "MPI_Alltoall algorithm=tra:radix=4 calls=4 served=2 fallback=2 "
                     --expect-stdout "MPI_Alltoall fallback reason=setup_error calls=2 first: tra: --radix 4 is outside \\[2, 3\\]"
                     --expect-stdout "MPI_Allreduce fallback reason=setup_error calls=2 first: shm_recursive_exchange: --factors"
                     --expect-stderr "mcb_preload: warning: MCB_ALLTOALL=tra:radix=4 on a communicator of 3 ranks")

# A bad value: one line "mcb_preload: error: ..." from rank 0, every rank
# exits non-zero, at MPI_Init, no hang.
function(mcb_preload_bad name env regex)
  mcb_preload_test(bad_env_${name} 3 "${env}" --timeout 60 --error-from mcb_preload "--expect-error=${regex}"
                   -- ${PRELOAD_CLIENT} all)
  set_tests_properties(preload_bad_env_${name} PROPERTIES TIMEOUT 90 LABELS "mpi;preload;bad_input")
endfunction()
mcb_preload_bad(unknown_algorithm "MCB_ALLTOALL=nope"
                "MCB_ALLTOALL=nope: unknown alltoall algorithm 'nope' \\(known: system, system_persistent, pairwise")
mcb_preload_bad(unknown_parameter "MCB_ALLTOALL=tra:radx=4" "MCB_ALLTOALL=tra:radx=4: tra has no parameter 'radx' \\(it takes radix\\)")
mcb_preload_bad(no_parameters "MCB_ALLGATHER=ring:radix=2" "MCB_ALLGATHER=ring:radix=2: ring has no parameter 'radix' \\(it takes none\\)")
mcb_preload_bad(not_an_integer "MCB_ALLTOALL=tra:radix=abc" "tra: radix=abc: expected an integer >= 2")
mcb_preload_bad(radix_one "MCB_ALLTOALL=tra:radix=1" "tra: radix=1: expected an integer >= 2")
mcb_preload_bad(a_list "MCB_ALLTOALL=tra:radix=2,4" "tra: radix=2,4: one value per parameter")
mcb_preload_bad(bad_choice "MCB_ALLREDUCE=shm_tree:interface=sometimes"
                "shm_tree: interface=sometimes: expected one of persistent, blocking")
mcb_preload_bad(bad_factor "MCB_ALLREDUCE=shm_recursive_exchange:factors=-2,x" "'x' is not an integer")
mcb_preload_bad(not_applicable "MCB_ALLREDUCE=lane:node-factors=-2,2" "lane: node-factors does not apply")
mcb_preload_bad(not_param_value "MCB_ALLGATHER=sparbit:fast" "'fast' is not PARAM=VALUE")
mcb_preload_bad(twice "MCB_ALLTOALL=tra:radix=2:radix=3" "tra: radix given twice")
mcb_preload_bad(ranks_per_node "MCB_ALLTOALL=tra;MCB_RANKS_PER_NODE=0" "MCB_RANKS_PER_NODE=0: expected a positive integer")
mcb_preload_bad(report "MCB_PRELOAD_REPORT=yes" "MCB_PRELOAD_REPORT=yes: expected 0, 1")
mcb_preload_bad(cache "MCB_ALLTOALL=tra;MCB_PRELOAD_CACHE=8" "MCB_PRELOAD_CACHE=8: expected SHAPES,PLANS")
mcb_preload_bad(setup "MCB_ALLREDUCE=system;MCB_PRELOAD_SETUP=0" "MCB_PRELOAD_SETUP=0: expected a positive integer")
mcb_preload_bad(gatherv_unknown "MCB_GATHERV=shm_tree"
                "MCB_GATHERV=shm_tree: unknown gatherv algorithm 'shm_tree' \\(known: system, system_persistent, linear, binomial, shm_linear\\)")
mcb_preload_bad(reduce_scatter_inner "MCB_REDUCE_SCATTER=shm_recursive_exchange:inner=bruck"
                "MCB_REDUCE_SCATTER=shm_recursive_exchange:inner=bruck: shm_recursive_exchange: inner=bruck: expected one of system, ring, recursive_halving, pairwise")
mcb_preload_bad(bcast_unknown "MCB_BCAST=shm_ring" "MCB_BCAST=shm_ring: unknown bcast algorithm 'shm_ring' \\(known: system, system_persistent, shm_tree\\)")

# The multi-radix paper's set (issue 71; tests/preload/preload_set.c):
# MPI_Reduce, MPI_Reduce_scatter(_block), MPI_Allgatherv, MPI_Gather(v),
# MPI_Scatter(v) on every kind of call the algorithms serve (see the
# program), each collective's count of calls served with no fallback; the
# shared-memory forms on one node and on virtual nodes of 2, the classic
# schedules, the system's own (persistent too); and the v-forms with
# displacements that leave gaps, to the MPI's own (reason displacements).
set(PRELOAD_SET_PAIRS reduce:MPI_Reduce reduce_scatter_block:MPI_Reduce_scatter_block
    reduce_scatter:MPI_Reduce_scatter allgatherv:MPI_Allgatherv gather:MPI_Gather gatherv:MPI_Gatherv
    scatter:MPI_Scatter scatterv:MPI_Scatterv)
# preload_set_served(OUT WHO): one --expect-stdout per collective: the
# program's count of its calls ("calls: ... word=N") and the report's line
# with calls = served = N and no fallback, then WHO (a pattern: who served).
function(preload_set_served out who)
  set(checks)
  foreach(pair ${PRELOAD_SET_PAIRS})
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 word)
    list(GET pair 1 mpi)
    list(APPEND checks --expect-stdout
         "calls:[^\n]*[ ]${word}=([0-9]+)[\\s\\S]*${mpi} algorithm=[^ ]+ calls=\\1 served=\\1 fallback=0 ${who}")
  endforeach()
  set(${out} ${checks} PARENT_SCOPE)
endfunction()
preload_set_served(set_served "")
set(set_shm MCB_REDUCE=shm_tree MCB_REDUCE_SCATTER_BLOCK=shm_recursive_exchange
    MCB_REDUCE_SCATTER=shm_recursive_exchange MCB_ALLGATHERV=shm_recursive_exchange MCB_GATHER=shm_linear
    MCB_GATHERV=shm_linear MCB_SCATTER=shm_linear MCB_SCATTERV=shm_linear)
set(set_classic MCB_REDUCE=shm_tree:copy=copy-in MCB_REDUCE_SCATTER_BLOCK=recursive_halving
    MCB_REDUCE_SCATTER=ring MCB_ALLGATHERV=ring MCB_GATHER=linear MCB_GATHERV=binomial MCB_SCATTER=binomial
    MCB_SCATTERV=linear)
set(set_system MCB_REDUCE=system MCB_REDUCE_SCATTER_BLOCK=system_persistent MCB_REDUCE_SCATTER=pairwise
    MCB_ALLGATHERV=system_persistent MCB_GATHER=system_persistent MCB_GATHERV=system MCB_SCATTER=system
    MCB_SCATTERV=system_persistent)
if(MCB_MPI_FLAVOR STREQUAL "mpich" AND MCB_MPI_VERSION VERSION_LESS 4.3)
  # MPICH 4.0's to 4.2's persistent gather and scatter are wrong (tests/scatter_gather.cmake): its own workaround,
  # which does not reach MPI_Gather_init on one rank (the root's block never copied; the client's
  # MPI_COMM_SELF and halves of 2 ranks): the blocking gather there.
  list(TRANSFORM set_system REPLACE "^MCB_GATHER=system_persistent$" "MCB_GATHER=system")
  list(APPEND set_system MPIR_CVAR_IGATHER_INTRA_ALGORITHM=tsp_tree MPIR_CVAR_ISCATTER_INTRA_ALGORITHM=tsp_tree)
endif()
mcb_preload_test(set_shm_p3 3 "${set_shm}" --expect-stdout "preload_set: all: [0-9]+ checks passed" ${set_served}
                 --expect-stdout "MPI_Gather [^\n]* single=[1-9]" -- $<TARGET_FILE:preload_set> all)
mcb_preload_test(set_shm_p4_rpn2 4 "${set_shm};MCB_RANKS_PER_NODE=2" --expect-stdout
                 "preload_set: all: [0-9]+ checks passed" ${set_served} -- $<TARGET_FILE:preload_set> all)
mcb_preload_test(set_classic_p7 7 "${set_classic}" --expect-stdout "preload_set: all: [0-9]+ checks passed"
                 ${set_served} -- $<TARGET_FILE:preload_set> all)
mcb_preload_test(set_system_p5 5 "${set_system}" --expect-stdout "preload_set: all: [0-9]+ checks passed"
                 ${set_served} -- $<TARGET_FILE:preload_set> all)
mcb_preload_test(set_displs_p3 3 "${set_classic}" --expect-stdout "preload_set: displs: [0-9]+ checks passed"
                 --expect-stdout "MPI_Allgatherv algorithm=ring calls=2 served=0 fallback=2 "
                 --expect-stdout "MPI_Allgatherv fallback reason=displacements calls=2"
                 --expect-stdout "MPI_Gatherv fallback reason=displacements calls=2"
                 --expect-stdout "MPI_Scatterv fallback reason=displacements calls=2"
                 -- $<TARGET_FILE:preload_set> displs)

# Fortran (src/preload/fortran.cpp): the same program (preload_fortran.F90:
# alltoall of 8 and 16 B blocks, allgather of 32 B blocks, allreduces of
# CP2K's types and ops, in place and not, a 1-rank communicator and
# communicators made and freed in a loop) in each binding style, every call
# served on both MPIs; and the calls the C path refuses, refused the same
# way to the MPI's own Fortran entry points (their results right, the
# null datatype's ierror an error). On Open MPI the report counts every
# call as Fortran (fortran=calls: the preload's own Fortran entry points); on
# MPICH, whose Fortran bindings call the C functions, as C (fortran=0).
include(CheckLanguage)
check_language(Fortran)
if(CMAKE_Fortran_COMPILER AND NOT MCB_MPI_NO_FORTRAN)
  enable_language(Fortran)
  find_package(MPI COMPONENTS Fortran)
endif()
if(MPI_Fortran_FOUND)
  # binding -> compile definition
  set(fortran_def_mpif_h MCB_MPIF_H)
  set(fortran_def_use_mpi MCB_USE_MPI)
  set(fortran_def_f08 MCB_MPI_F08)
  foreach(binding mpif_h use_mpi f08)
    add_executable(preload_fortran_${binding} ${CMAKE_CURRENT_LIST_DIR}/preload_fortran.F90)
    target_compile_definitions(preload_fortran_${binding} PRIVATE ${fortran_def_${binding}})
    set_target_properties(preload_fortran_${binding} PROPERTIES Fortran_MODULE_DIRECTORY
                          ${CMAKE_CURRENT_BINARY_DIR}/preload_fortran_${binding}.mod)
    target_link_libraries(preload_fortran_${binding} PRIVATE MPI::MPI_Fortran)
    add_executable(preload_fortran_set_${binding} ${CMAKE_CURRENT_LIST_DIR}/preload_fortran_set.F90)
    target_compile_definitions(preload_fortran_set_${binding} PRIVATE ${fortran_def_${binding}})
    set_target_properties(preload_fortran_set_${binding} PROPERTIES Fortran_MODULE_DIRECTORY
                          ${CMAKE_CURRENT_BINARY_DIR}/preload_fortran_set_${binding}.mod)
    target_link_libraries(preload_fortran_set_${binding} PRIVATE MPI::MPI_Fortran)
  endforeach()
  # mpif.h declares no interfaces: gfortran >= 10 refuses one routine called
  # with buffers of several types unless told to allow it (as such programs are built).
  if(CMAKE_Fortran_COMPILER_ID STREQUAL "GNU" AND CMAKE_Fortran_COMPILER_VERSION VERSION_GREATER_EQUAL 10)
    target_compile_options(preload_fortran_mpif_h PRIVATE -fallow-argument-mismatch)
    target_compile_options(preload_fortran_set_mpif_h PRIVATE -fallow-argument-mismatch)
  endif()
  # Who served each collective's calls: on Open MPI the preload's Fortran
  # entry points (fortran= the program's count), on MPICH the C ones.
  if(MCB_MPI_FLAVOR STREQUAL "mpich")
    set(fortran_calls "MPI_Alltoall [^\n]* fortran=0 [\\s\\S]*MPI_Allgather [^\n]* fortran=0 [\\s\\S]*MPI_Allreduce [^\n]* fortran=0 [\\s\\S]*MPI_Bcast [^\n]* fortran=0 ")
  else()
    set(fortran_calls
        "calls: alltoall=([0-9]+) allgather=([0-9]+) allreduce=([0-9]+)\npreload_fortran: bcast: calls=([0-9]+)\n[\\s\\S]*MPI_Alltoall [^\n]* fortran=\\1 [\\s\\S]*MPI_Allgather [^\n]* fortran=\\2 [\\s\\S]*MPI_Allreduce [^\n]* fortran=\\3 [\\s\\S]*MPI_Bcast [^\n]* fortran=\\4 ")
  endif()
  # mcb_preload_fortran(NAME RANKS ENV BINDING ARGS...)
  function(mcb_preload_fortran name ranks env binding)
    mcb_preload_test(fortran_${name} ${ranks} "${env}" --expect-stdout "preload_fortran: [0-9]+ checks passed"
                     --expect-stdout "${ALL_SERVED}" --expect-stdout "${BCAST_SERVED}" --expect-stdout "${fortran_calls}"
                     --expect-stdout "MPI_Allreduce [^\n]* single=[1-9]"
                     -- $<TARGET_FILE:preload_fortran_${binding}> ${ARGN})
  endfunction()
  mcb_preload_fortran(mpif_h 3 "${combo_tra};MCB_BCAST=shm_tree" mpif_h)
  mcb_preload_fortran(use_mpi_thread 3 "${combo_node_aware};MCB_BCAST=system" use_mpi thread)
  mcb_preload_fortran(f08 4 "${combo_bruck};MCB_BCAST=shm_tree" f08)
  mcb_preload_fortran(f08_thread 2 "MCB_ALLTOALL=pairwise;MCB_ALLGATHER=ring;MCB_ALLREDUCE=shm_tree;MCB_BCAST=shm_tree"
                      f08 thread)
  mcb_preload_test(fortran_refuse 3 "${combo_tra};MCB_BCAST=shm_tree" --expect-stdout "preload_fortran: [0-9]+ checks passed"
                   --expect-stdout "MPI_Bcast algorithm=shm_tree calls=5 served=5 fallback=0 "
                   --expect-stdout "MPI_Alltoall algorithm=tra calls=3 served=2 fallback=1 "
                   --expect-stdout "MPI_Allreduce algorithm=rabenseifner calls=31 served=29 fallback=2 "
                   --expect-stdout "MPI_Alltoall fallback reason=in_place calls=1"
                   --expect-stdout "MPI_Allreduce fallback reason=user_op calls=1"
                   --expect-stdout "MPI_Allreduce fallback reason=invalid calls=1"
                   -- $<TARGET_FILE:preload_fortran_use_mpi> refuse)
  # The multi-radix set from Fortran (preload_fortran_set.F90: reduce,
  # reduce-scatters, allgatherv, gather(v), scatter(v), from roots 0 and the
  # last, in place through Fortran's MPI_IN_PLACE): every call served, by
  # the preload's Fortran entry points on Open MPI, by its C ones on MPICH.
  set(fortran_set_by "[^\n]* fortran=\\1 ")
  if(MCB_MPI_FLAVOR STREQUAL "mpich")
    set(fortran_set_by "[^\n]* fortran=0 ")
  endif()
  preload_set_served(fortran_set_served "${fortran_set_by}")
  mcb_preload_test(fortran_set_mpif_h 3 "${set_shm}" --expect-stdout "preload_fortran_set: [0-9]+ checks passed"
                   ${fortran_set_served} -- $<TARGET_FILE:preload_fortran_set_mpif_h>)
  mcb_preload_test(fortran_set_use_mpi 3 "${set_classic}" --expect-stdout "preload_fortran_set: [0-9]+ checks passed"
                   ${fortran_set_served} -- $<TARGET_FILE:preload_fortran_set_use_mpi>)
  mcb_preload_test(fortran_set_f08 4 "${set_system}" --expect-stdout "preload_fortran_set: [0-9]+ checks passed"
                   ${fortran_set_served} -- $<TARGET_FILE:preload_fortran_set_f08>)
endif()

# HPC Challenge's MPI FFT (Debian's hpcc links Open MPI): 4 ranks, the
# alltoall of each algorithm (node_aware and tra2 on virtual nodes of 2),
# and the MPI's own as the baseline.
if(MCB_MPI_FLAVOR STREQUAL "openmpi" AND NOT MCB_MPI_PREFIX)  # hpcc loads Debian's Open MPI
  foreach(algo unset tra tra2 bruck node_aware pairwise)
    set(rpn "")
    if(algo STREQUAL "tra2" OR algo STREQUAL "node_aware")
      set(rpn --ranks-per-node 2)
    endif()
    add_test(NAME preload_hpcc_${algo}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/hpcc_check.py
                     --workdir ${CMAKE_CURRENT_BINARY_DIR}/preload_hpcc/${algo} --algorithm ${algo} ${rpn}
                     -- ${PRELOAD_RUN} -n 4 --timeout 200)
    set_tests_properties(preload_hpcc_${algo} PROPERTIES TIMEOUT 240 LABELS "mpi;preload;hpcc" SKIP_RETURN_CODE 77)
  endforeach()
endif()

# CP2K (Debian's cp2k links Open MPI; docs/applications.md): H2O-4, one MD
# step, on 2 ranks with the MPI's own collectives and with the preload's
# (Fortran allreduce, alltoall, allgather and bcast, and ScaLAPACK's C ones):
# scripts/apps/cp2k.sh --check fails unless both runs finish with identical
# energies and the report shows each of the four collectives called and
# served (fallbacks only for a zero count or ScaLAPACK's own operations).
# Skipped (77) without cp2k. And its bad arguments: one line, exit 2.
if(MCB_MPI_FLAVOR STREQUAL "openmpi" AND NOT MCB_MPI_PREFIX)
  add_test(NAME preload_cp2k
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/apps/cp2k.sh --build ${CMAKE_BINARY_DIR} --molecules 4 --steps 1 --reps 1
                   --check --out ${CMAKE_CURRENT_BINARY_DIR}/preload_cp2k --config "mpi=-"
                   --config "mcb=MCB_ALLREDUCE=shm_recursive_exchange MCB_ALLTOALL=tra MCB_ALLGATHER=sparbit MCB_BCAST=shm_tree")
  set_tests_properties(preload_cp2k PROPERTIES TIMEOUT 300 LABELS "mpi;preload;app" SKIP_RETURN_CODE 77)
  add_test(NAME preload_cp2k_bad_arguments COMMAND sh -c "\"$0\" --reps 0 2>&1; echo \"exit $?\""
                                                     ${CMAKE_SOURCE_DIR}/scripts/apps/cp2k.sh)
  set_tests_properties(preload_cp2k_bad_arguments PROPERTIES TIMEOUT 20 LABELS "preload;app;bad_input"
                       PASS_REGULAR_EXPRESSION "^cp2k.sh: '0' is not a positive integer\nexit 2\n$")
endif()

# ScaLAPACK's BLACS tester (Debian's scalapack-mpi-test, a build per MPI):
# its combine tests (sum, max, min with location, of integers, reals and
# complex numbers, on 2 x 2, 1 x 4 and 4 x 1 grids) check their own results.
# The BLACS reduce with MPI_Allreduce (sums: served; max and min: their own
# operations, left to the MPI as user_op). bt.dat and comb.dat choose the
# tests (tests/preload/blacs).
set(BLACS_TESTER /usr/lib/x86_64-linux-gnu/scalapack/${MCB_MPI_FLAVOR}-tests/xCbtest)
set(BLACS_SKIP "${BLACS_TESTER} missing (apt-get install scalapack-mpi-test)")
if(MCB_MPI_PREFIX)  # Debian's tester loads Debian's MPI, not the one of the prefix
  set(BLACS_SKIP "${BLACS_TESTER} loads Debian's ${MCB_MPI_FLAVOR}, not the MPI of ${MCB_MPI_PREFIX}")
  set(BLACS_TESTER "")
endif()
set(BLACS_DIR ${CMAKE_CURRENT_BINARY_DIR}/preload_blacs)
file(COPY ${CMAKE_CURRENT_LIST_DIR}/blacs/bt.dat ${CMAKE_CURRENT_LIST_DIR}/blacs/comb.dat DESTINATION ${BLACS_DIR})
if(BLACS_TESTER AND EXISTS ${BLACS_TESTER})
  mcb_preload_test(blacs 4 "MCB_ALLREDUCE=rabenseifner"
                   --expect-stdout "INTEGER SUM TESTS: PASSED ALL"
                   --expect-stdout "DOUBLE COMPLEX AMN TESTS: PASSED ALL"
                   --expect-stdout "\\A(?![\\s\\S]*FAILED)"
                   --expect-stdout "MPI_Allreduce algorithm=rabenseifner calls=[0-9]+ served=[1-9][0-9]* "
                   --expect-stdout "MPI_Allreduce fallback reason=user_op"
                   -- ${BLACS_TESTER})
  set_tests_properties(preload_blacs PROPERTIES WORKING_DIRECTORY ${BLACS_DIR})
else()
  add_test(NAME preload_blacs COMMAND ${CMAKE_COMMAND} -E echo "${BLACS_SKIP}; skipped")
  set_tests_properties(preload_blacs PROPERTIES LABELS "mpi;preload" SKIP_REGULAR_EXPRESSION "skipped")
endif()

# scripts/preload/preload_soak.py (the hour-long soak's driver), for a few seconds:
# the progress parsed, CSV and figure written; bad input refused in one line.
add_test(NAME preload_soak_script
         COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/preload/preload_soak.py --build ${CMAKE_BINARY_DIR}
                 --mpi ${MCB_MPI_FLAVOR} -n 2 --seconds 6 --every 2 --max-bytes 65536
                 --out ${CMAKE_BINARY_DIR}/preload-soak-test/soak)
set_tests_properties(preload_soak_script PROPERTIES LABELS "mpi;preload" TIMEOUT 120 PASS_REGULAR_EXPRESSION
                     "checks passed.*exit status 0.*preload_soak: mappings: [0-9]+ at t=")
add_test(NAME preload_soak_script_bad COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/preload/preload_soak.py
                                              --build ${CMAKE_BINARY_DIR} --seconds 0)
set_tests_properties(preload_soak_script_bad PROPERTIES LABELS "preload;bad_input" TIMEOUT 60 WILL_FAIL TRUE)
# The soak client's own bad arguments: one line from rank 0, exit 2.
mcb_preload_test(soak_bad_arguments 2 "MCB_ALLREDUCE=rabenseifner" --expect-exit 2
                 --expect-stderr "preload_soak: bad argument '--calls -1'" -- $<TARGET_FILE:preload_soak> --calls -1)
set_tests_properties(preload_soak_bad_arguments PROPERTIES LABELS "mpi;preload;bad_input")
# scripts/preload/preload_first_call.py, one run of the plain MPI and `system`: the
# table comes out (its numbers are not judged here).
add_test(NAME preload_first_call_script
         COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/preload/preload_first_call.py --build ${CMAKE_BINARY_DIR}
                 --mpi ${MCB_MPI_FLAVOR} --algorithms system --runs 1)
set_tests_properties(preload_first_call_script PROPERTIES LABELS "mpi;preload" TIMEOUT 180 PASS_REGULAR_EXPRESSION
                     "# preload_first_call: .* 100000 +[0-9.]+ +[0-9.]+ +[0-9.]+ +-?[0-9.]+")
add_test(NAME preload_first_call_newcomm
         COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/preload/preload_first_call.py --build ${CMAKE_BINARY_DIR}
                 --mpi ${MCB_MPI_FLAVOR} --algorithms system --runs 1 --newcomm)
set_tests_properties(preload_first_call_newcomm PROPERTIES LABELS "mpi;preload" TIMEOUT 180 PASS_REGULAR_EXPRESSION
                     "# preload_first_call --newcomm: .*\n +64 +[0-9.]+ +[0-9.]+ +[0-9.]+")
add_test(NAME preload_first_call_bad_setup
         COMMAND sh -c "\"$0\" \"$1\" --build \"$2\" --newcomm --setup 0 2>&1; echo \"exit $?\"" ${MCB_SYSTEM_PYTHON}
                 ${CMAKE_SOURCE_DIR}/scripts/preload/preload_first_call.py ${CMAKE_BINARY_DIR})
set_tests_properties(preload_first_call_bad_setup PROPERTIES LABELS "preload;bad_input" TIMEOUT 30
                     PASS_REGULAR_EXPRESSION "^preload_first_call: --setup 0: expected a positive integer\nexit 1\n$")
# scripts/preload/preload_overhead.py (the preload's own cost per call): two
# scripts/preload/mpich_coll_tests.py (MPICH's own tests of the collectives
# served) against a stand-in of MPICH's test/mpi, and its bad input
# (tests/scripts/mpich_coll_tests_check.sh).
add_test(NAME preload_mpich_coll_tests_check
         COMMAND ${CMAKE_SOURCE_DIR}/tests/scripts/mpich_coll_tests_check.sh ${MCB_SYSTEM_PYTHON} ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR} ${MCB_MPI_FLAVOR} ${CMAKE_CURRENT_BINARY_DIR}/mpich_coll_tests)
set_tests_properties(preload_mpich_coll_tests_check PROPERTIES LABELS "mpi;preload;scripts;bad_input" TIMEOUT 180
                     PASS_REGULAR_EXPRESSION "mpich_coll_tests_check: ok" FAIL_REGULAR_EXPRESSION "FAIL|Traceback")
# runs of one size on this build, and its bad input (tests/scripts/preload_overhead_check.sh).
add_test(NAME preload_overhead_check
         COMMAND ${CMAKE_SOURCE_DIR}/tests/scripts/preload_overhead_check.sh ${MCB_SYSTEM_PYTHON} ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR} ${MCB_MPI_FLAVOR} ${CMAKE_CURRENT_BINARY_DIR}/preload_overhead)
set_tests_properties(preload_overhead_check PROPERTIES LABELS "mpi;preload;scripts;bad_input" TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "preload_overhead_check: ok" FAIL_REGULAR_EXPRESSION "FAIL|Traceback")
