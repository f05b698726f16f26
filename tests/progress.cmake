# --progress SECONDS (issue 9): progress lines on rank 0's stderr. A step is
# one size of one configuration in one phase mode on one node count.
# run_mpi.py echoes stdout, then stderr after "--- stderr ---". A ";" in an
# argument would split it (a CMake list): the regular expressions say \x3b.

# --progress 0: a line after every step (2 algorithms x 4 sizes), from rank 0
# alone (the first line once), with the ETA, then the closing "done" line.
mcb_mpi_test(progress_every_step 4 --expect-ranks
             --expect-stderr "^mcb_alltoall: progress 1/8 \\(12%\\): pairwise, 1 B, 1 node\\x3b elapsed [0-9]+s, ETA [0-9]+s$"
             --expect-stderr "\\A(?![\\s\\S]*progress 1/8 [\\s\\S]*progress 1/8 )"
             --expect-stderr "^mcb_alltoall: progress 4/8 \\(50%\\): pairwise, 8 B, 1 node\\x3b elapsed [0-9]+s, ETA [0-9]+s$"
             --expect-stderr "^mcb_alltoall: progress 5/8 \\(62%\\): bruck, 1 B, 1 node\\x3b elapsed [0-9]+s, ETA [0-9]+s$"
             --expect-stderr "^mcb_alltoall: progress 8/8 \\(100%\\): bruck, 8 B, 1 node\\x3b elapsed [0-9]+s, ETA 0s$"
             --expect-stderr "^mcb_alltoall: done 8/8 steps in [0-9]+s$"
             -- ${A2A} --progress 0 -m 1:8 --algorithm pairwise,bruck -i 2 -x 0)

# The default (30 s): a short run prints nothing extra.
mcb_mpi_test(progress_default_quiet 4 --expect-ranks -- ${A2A} -m 1:8 --algorithm pairwise,bruck -i 2 -x 0)
set_tests_properties(progress_default_quiet PROPERTIES FAIL_REGULAR_EXPRESSION "mcb_alltoall: (progress|done) ")

# Node counts x phase modes x sizes: mcb_breakdown on 1 and 2 virtual nodes,
# both phase modes (named in the line), 3 sizes: 12 steps.
mcb_mpi_test(progress_breakdown_sweep 4
             --expect-stderr "^mcb_breakdown: progress 1/12 \\(8%\\): node_aware inner=pairwise, embedded, 1 B, 1 node\\x3b"
             --expect-stderr "^mcb_breakdown: progress 6/12 \\(50%\\): node_aware inner=pairwise, isolated, 4 B, 1 node\\x3b"
             --expect-stderr "^mcb_breakdown: progress 12/12 \\(100%\\): node_aware inner=pairwise, isolated, 4 B, 2 nodes\\x3b"
             --expect-stderr "^mcb_breakdown: done 12/12 steps in "
             -- $<TARGET_FILE:mcb_breakdown> --algorithm node_aware --inner pairwise -m 4 -i 1 -x 0
                --ranks-per-node 2 --nodes 1:2 --progress 0)

# Configurations skipped as not applicable count as done: on 3 ranks
# neighbor_exchange and recursive_doubling are skipped, and the run still
# ends at N/N.
mcb_mpi_test(progress_skipped_count 3 --expect-stdout "# skipping neighbor_exchange"
             --expect-stderr "^mcb_allgather: done ([0-9]+)/\\1 steps in [0-9]+s$"
             -- $<TARGET_FILE:mcb_allgather> -m 1 -i 1 -x 0 --progress 0)

mcb_bad_input(progress_negative 3 "--progress -1: must be >= 0 seconds" -- ${A2A} --progress -1)
