# Real nodes on one machine (label multihost): every "host" of --hosts is its
# own node, found by mcb through MPI_COMM_TYPE_SHARED, with shared memory
# inside a host and the MPI's network path between hosts. Open MPI starts one
# daemon per host in a UTS namespace of its own (ci/mpi-host-agent.sh, TCP
# over loopback between hosts); MPICH's hydra uses -launcher fork -hosts. No
# --ranks-per-node anywhere: the node-aware algorithms of every binary run on
# the nodes the MPI reports, validated, and each test checks that mcb's node
# count and ranks per node are the hostfile's.
function(mcb_multihost_test name ranks hosts)
  mcb_mpi_test(${name} ${ranks} --hosts ${hosts} --expect-ranks ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "mpi;multihost")
endfunction()
set(H2x4 n1:4,n2:4)
set(H3x3 n1:3,n2:3,n3:3)
set(NODES_2x4 "ranks: 8, nodes: 2, ranks per node: 4, rank order: block")
set(NODES_3x3 "ranks: 9, nodes: 3, ranks per node: 3, rank order")

# mcb_alltoall: the node-aware family with three inner exchanges, tra2, and
# on three nodes of three in cyclic order every algorithm.
mcb_multihost_test(multihost_alltoall_family_2x4 8 ${H2x4} --expect-rows 48 --expect-stdout "${NODES_2x4}"
                   -- ${A2A} -c -m 1,64,4096 -i 1 -x 0 --algorithm ${NA_ALGOS},tra2 --inner pairwise,nonblocking,tra2
                      --procs-per-leader 2 --procs-per-group 2)
mcb_multihost_test(multihost_alltoall_all_3x3_cyclic 9 ${H3x3} --expect-rows 168
                   --expect-stdout "${NODES_3x3}: cyclic"
                   -- ${A2A} -c -m 1,7,300 -i 1 -x 0 --rank-order cyclic --procs-per-leader 1,3 --procs-per-group 1,3)
# Uneven hosts: what needs even nodes is skipped under all and refused by name.
mcb_multihost_test(multihost_uneven_skip_family 5 n1:3,n2:2 --expect-rows 7
                   --expect-stdout "ranks: 5, nodes: 2, ranks per node: uneven"
                   --expect-stdout "# skipping multileader_node_aware, not applicable: needs the same number of ranks on every node"
                   --expect-stdout "# skipping tra2, not applicable: needs the same number of ranks on every node"
                   -- ${A2A} -c -m 8:8 -i 1 -x 0)
foreach(case "node_aware|node_aware needs the same number of ranks on every node"
             "tra2|tra2 needs the same number of ranks on every node")
  string(REPLACE "|" ";" c "${case}")
  list(GET c 0 algo)
  list(GET c 1 regex)
  mcb_mpi_test(bad_multihost_uneven_${algo} 5 --hosts n1:3,n2:2 "--expect-error=${regex}"
               -- ${A2A} --algorithm ${algo} -m 8:8)
  set_tests_properties(bad_multihost_uneven_${algo} PROPERTIES LABELS "mpi;bad_input;multihost")
endforeach()

# mcb_breakdown over 1 and 2 real nodes.
mcb_mpi_test(multihost_breakdown 8 --hosts ${H2x4} --expect-rows 8 --expect-stdout "^2 +8 +isolated +4096 "
                   -- $<TARGET_FILE:mcb_breakdown> --algorithm locality_aware --inner pairwise --procs-per-group 2
                      --nodes 1,2 -m 4,4096 -i 2 -x 0 -c)
set_tests_properties(multihost_breakdown PROPERTIES LABELS "mpi;multihost")

# mcb_allgather: every algorithm (the shared-memory one in each real node's
# shared memory, the lanes across nodes), cyclic order over real nodes.
mcb_multihost_test(multihost_allgather_3x3_cyclic 9 ${H3x3} ${AG_ENV} --expect-rows 12
                   --expect-stdout "${NODES_3x3}: cyclic"
                   -- ${AG} --algorithm all -c -m 1,1000 -i 2 -x 0 --rank-order cyclic)

# mcb_allreduce: every algorithm (the shared-memory ones in a real node's
# shared memory), lane and the recursive exchange across nodes, PPG 2 with
# the GPU's buffers shared by its processes; reduce and bcast.
mcb_multihost_test(multihost_allreduce_2x4 8 ${H2x4} --expect-rows 33 --expect-stdout "${NODES_2x4}"
                   -- ${AR} --algorithm all -c -m 4,4096,1048576 -i 2 -x 0)
mcb_multihost_test(multihost_allreduce_3x3 9 ${H3x3} --expect-rows 16 --expect-stdout "${NODES_3x3}: block"
                   -- ${AR} --algorithm lane,shm_recursive_exchange,shm_cyclic_shift,shm_tree
                      --inner recursive_exchange,ring -c -m 12,400000 -i 2 -x 0 --in-place)
mcb_multihost_test(multihost_allreduce_ppg2 8 ${H2x4} --expect-rows 9 --expect-stdout "${NODES_2x4}"
                   --expect-stdout "GPUs: 2 per node, 2 processes per GPU sharing its buffers"
                   -- ${AR} --algorithm system,ppg_standard,ppg_lane --procs-per-gpu 2 -c -m 4,4096,1048576 -i 2 -x 0)
mcb_multihost_test(multihost_reduce 8 ${H2x4} --expect-rows 6 --expect-stdout "${NODES_2x4}"
                   -- ${RED} --algorithm all -c -m 4,65536 -i 2 -x 0)
mcb_multihost_test(multihost_bcast 9 ${H3x3} --expect-rows 6 --expect-stdout "${NODES_3x3}: block"
                   -- ${BC} --algorithm all -c -m 4,65536 -i 2 -x 0)

# mcb_pingpong between two real nodes, 2 processes per GPU.
mcb_multihost_test(multihost_pingpong 8 ${H2x4} --expect-rows 4 --expect-stdout "${NODES_2x4}"
                   -- ${PP} --procs-per-gpu 2 -c -m 4,1048576 -i 5 -x 1)

# The shared-memory reduce-scatter and allgatherv across real nodes (3
# hosts of 3, block order: a lane's parts are not adjacent), every --inner,
# uneven counts.
mcb_multihost_test(multihost_reduce_scatter_3x3 9 ${H3x3} --expect-rows 8 --expect-stdout "${NODES_3x3}: block"
                   -- $<TARGET_FILE:mcb_reduce_scatter> --algorithm shm_recursive_exchange --inner all -c
                   -m 4,40000 -i 2 -x 0 --counts linear)
mcb_multihost_test(multihost_allgatherv_3x3 9 ${H3x3} --expect-rows 4 --expect-stdout "${NODES_3x3}: block"
                   -- $<TARGET_FILE:mcb_allgatherv> --algorithm shm_recursive_exchange,system -c -m 1,1000 -i 2 -x 0
                   --counts heavy --in-place)

# The shared-memory gatherv and scatterv (shm_linear) across real nodes in
# cyclic order: rank 0 unpacks (packs) the leaders' packs.
foreach(coll gatherv scatterv)
  mcb_multihost_test(multihost_${coll}_shm_linear_2x3_cyclic 6 n1:3,n2:3 --expect-rows 4
                     --expect-stdout "ranks: 6, nodes: 2, ranks per node: 3, rank order: cyclic"
                     -- $<TARGET_FILE:mcb_${coll}> --algorithm shm_linear --interface all -c -m 1,1000 -i 2 -x 0
                     --counts linear --rank-order cyclic)
endforeach()
