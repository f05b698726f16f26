#!/bin/bash
# 8 B allreduce: mcb vs the MPI's own under MPICH 4.2.1 with its release_gather barrier (default) and the MPIR barrier; Open MPI 5.0.7 beside
cd /work/main
M=/opt/mcb/mpich-4.2.1-ofi/bin/mpiexec; O=/opt/mcb/openmpi-5.0.7/bin/mpirun
BM=build-mpi-mpich-4.2.1-ofi/src/mcb_allreduce; BO=build-mpi-openmpi-5.0.7/src/mcb_allreduce
A="-T double -m 8:8 -i 5000 -x 500 -f"
for r in $(seq 1 ${1:-6}); do
  for v in mcb-rg mcb-mpir sys-rg sys-mpir ompi5-mcb ompi5-sys; do
    case $v in
      mcb-rg) out=$($M -bind-to core -n 2 $BM --algorithm shm_recursive_exchange --interface blocking --copy copy-in $A);;
      mcb-mpir) out=$(MPIR_CVAR_BARRIER_POSIX_INTRA_ALGORITHM=mpir $M -bind-to core -n 2 $BM --algorithm shm_recursive_exchange --interface blocking --copy copy-in $A);;
      sys-rg) out=$($M -bind-to core -n 2 $BM --algorithm system $A);;
      sys-mpir) out=$(MPIR_CVAR_BARRIER_POSIX_INTRA_ALGORITHM=mpir $M -bind-to core -n 2 $BM --algorithm system $A);;
      ompi5-mcb) out=$($O --allow-run-as-root --bind-to core -n 2 $BO --algorithm shm_recursive_exchange --interface blocking --copy copy-in $A);;
      ompi5-sys) out=$($O --allow-run-as-root --bind-to core -n 2 $BO --algorithm system $A);;
    esac
    echo "$r $v $(echo "$out" | grep -E '^8 ' | tail -1)"
  done
done
