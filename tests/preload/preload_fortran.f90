! preload_fortran: MPI_ALLTOALL, MPI_ALLGATHER and MPI_ALLREDUCE (also in
! place) from Fortran ("use mpi"), each element checked. Under
! libmcb_preload.so, MPICH's Fortran bindings call the C MPI_Alltoall and
! friends, which the preload replaces; Open MPI's call PMPI_* directly and
! are not intercepted (docs/preload.md, Fortran). Rank 0 prints
! "preload_fortran: N checks passed" and the calls it made.
program preload_fortran
  use mpi
  implicit none
  integer :: ierr, rank, p, i, j, errors, checks, totals(2), sums(2)
  integer, allocatable :: s(:), r(:)
  double precision :: x(4), y(4)

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
  allocate(s(2 * p), r(2 * p))
  errors = 0
  checks = 0

  do j = 0, p - 1
    do i = 1, 2
      s(j * 2 + i) = rank * 1000 + j * 10 + i
    end do
  end do
  r = -1
  call MPI_ALLTOALL(s, 2, MPI_INTEGER, r, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do j = 0, p - 1
    do i = 1, 2
      checks = checks + 1
      if (r(j * 2 + i) /= j * 1000 + rank * 10 + i) errors = errors + 1
    end do
  end do

  s(1) = rank * 7
  s(2) = rank * 7 + 1
  r = -1
  call MPI_ALLGATHER(s, 2, MPI_INTEGER, r, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do j = 0, p - 1
    checks = checks + 2
    if (r(j * 2 + 1) /= j * 7) errors = errors + 1
    if (r(j * 2 + 2) /= j * 7 + 1) errors = errors + 1
  end do

  do i = 1, 4
    x(i) = rank + i
  end do
  call MPI_ALLREDUCE(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  do i = 1, 4
    checks = checks + 1
    if (y(i) /= dble(p * (p - 1) / 2 + p * i)) errors = errors + 1
  end do
  y = x
  call MPI_ALLREDUCE(MPI_IN_PLACE, y, 4, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  do i = 1, 4
    checks = checks + 1
    if (y(i) /= dble(p - 1 + i)) errors = errors + 1
  end do

  totals(1) = checks
  totals(2) = errors
  call MPI_REDUCE(totals, sums, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (sums(2) == 0) then
      print '(a, i0, a)', 'preload_fortran: ', sums(1), ' checks passed'
    else
      print '(a, i0, a, i0, a)', 'preload_fortran: ', sums(2), ' of ', sums(1), ' checks failed'
    end if
    print '(a)', 'preload_fortran: calls: alltoall=1 allgather=1 allreduce=2'
  end if
  call MPI_BCAST(sums, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
  if (sums(2) /= 0) stop 1
end program preload_fortran
