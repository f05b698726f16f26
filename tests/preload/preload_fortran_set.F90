! preload_fortran_set: MPI_REDUCE, MPI_REDUCE_SCATTER_BLOCK,
! MPI_REDUCE_SCATTER, MPI_ALLGATHERV, MPI_GATHER(V) and MPI_SCATTER(V) from
! each Fortran binding style (issue 71), compiled three times like
! preload_fortran.F90: -DMCB_MPIF_H (include 'mpif.h'), none (use mpi),
! -DMCB_MPI_F08 (use mpi_f08). From roots 0 and the last rank, in place
! (Fortran's MPI_IN_PLACE) and not, uneven counts with zeros in the
! v-forms; every result checked element by element against values computed
! here, every ierror MPI_SUCCESS. Rank 0 prints "preload_fortran_set: N
! checks passed" and "calls: reduce=A reduce_scatter_block=B
! reduce_scatter=C allgatherv=D gather=E gatherv=F scatter=G scatterv=H".
#if defined(MCB_MPI_F08)
#define COMM_T type(MPI_Comm)
#else
#define COMM_T integer
#endif
program preload_fortran_set
#if defined(MCB_MPI_F08)
  use mpi_f08
#elif !defined(MCB_MPIF_H)
  use mpi
#endif
  implicit none
#if defined(MCB_MPIF_H)
  include 'mpif.h'
#endif
  integer, parameter :: m = 1000
  integer :: ierr, rank, p, i, r, rep, root, ip, total, errors, checks, totals(2), sums(2)
  integer :: calls(8)
  integer, allocatable :: counts(:), displs(:), s(:), g(:)
  double precision, allocatable :: ds(:), dr(:)
  COMM_T :: comm

  call MPI_INIT(ierr)
  comm = MPI_COMM_WORLD
  call MPI_COMM_RANK(comm, rank, ierr)
  call MPI_COMM_SIZE(comm, p, ierr)
  errors = 0
  checks = 0
  calls = 0
  allocate(counts(0:p - 1), displs(0:p - 1))
  total = 0
  do r = 0, p - 1
    counts(r) = 0
    if (mod(r, 3) /= 1) counts(r) = 5 + mod(r, 4)
    displs(r) = total
    total = total + counts(r)
  end do
  allocate(s(max(m, total) * p), g(max(m, total) * p), ds(m * p), dr(m * p))

  do rep = 1, 2
    do root = 0, p - 1, max(1, p - 1)
      do ip = 0, 1
        ! MPI_REDUCE: the sum of every rank's val at the root.
        do i = 1, m
          ds(i) = dble(val(rank, i))
          dr(i) = ds(i)
        end do
        if (ip == 1 .and. rank == root) then
          call MPI_REDUCE(MPI_IN_PLACE, dr, m, MPI_DOUBLE_PRECISION, MPI_SUM, root, comm, ierr)
        else
          call MPI_REDUCE(ds, dr, m, MPI_DOUBLE_PRECISION, MPI_SUM, root, comm, ierr)
        end if
        call ok(ierr, 'MPI_REDUCE')
        calls(1) = calls(1) + 1
        if (rank == root) then
          do i = 1, m
            call expect(dr(i) == sum_of(i), 'MPI_REDUCE')
          end do
        end if

        ! MPI_REDUCE_SCATTER_BLOCK: part rank of the summed vector of m * p.
        do i = 1, m * p
          ds(i) = dble(val(rank, i))
          dr(i) = ds(i)
        end do
        if (ip == 1) then
          call MPI_REDUCE_SCATTER_BLOCK(MPI_IN_PLACE, dr, m, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
        else
          call MPI_REDUCE_SCATTER_BLOCK(ds, dr, m, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
        end if
        call ok(ierr, 'MPI_REDUCE_SCATTER_BLOCK')
        calls(2) = calls(2) + 1
        do i = 1, m
          call expect(dr(i) == sum_of(rank * m + i), 'MPI_REDUCE_SCATTER_BLOCK')
        end do

        ! MPI_REDUCE_SCATTER: uneven parts.
        do i = 1, total
          ds(i) = dble(val(rank, i))
          dr(i) = ds(i)
        end do
        if (ip == 1) then
          call MPI_REDUCE_SCATTER(MPI_IN_PLACE, dr, counts, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
        else
          call MPI_REDUCE_SCATTER(ds, dr, counts, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
        end if
        call ok(ierr, 'MPI_REDUCE_SCATTER')
        calls(3) = calls(3) + 1
        do i = 1, counts(rank)
          call expect(dr(i) == sum_of(displs(rank) + i), 'MPI_REDUCE_SCATTER')
        end do

        ! MPI_ALLGATHERV: every rank's uneven block.
        g = -1
        do i = 1, counts(rank)
          s(i) = val(rank, i)
          g(displs(rank) + i) = s(i)
        end do
        if (ip == 1) then
          call MPI_ALLGATHERV(MPI_IN_PLACE, 0, MPI_INTEGER, g, counts, displs, MPI_INTEGER, comm, ierr)
        else
          call MPI_ALLGATHERV(s, counts(rank), MPI_INTEGER, g, counts, displs, MPI_INTEGER, comm, ierr)
        end if
        call ok(ierr, 'MPI_ALLGATHERV')
        calls(4) = calls(4) + 1
        call expect_blocks(g, .true., 'MPI_ALLGATHERV')

        ! MPI_GATHER (m a rank) and MPI_GATHERV to the root.
        call gathers(.false.)
        call gathers(.true.)
        ! MPI_SCATTER and MPI_SCATTERV from the root.
        call scatters(.false.)
        call scatters(.true.)
      end do
    end do
  end do

  totals(1) = checks
  totals(2) = errors
  call MPI_ALLREDUCE(totals, sums, 2, MPI_INTEGER, MPI_SUM, comm, ierr)
  if (rank == 0) then
    if (sums(2) == 0) then
      write (*, '(a,i0,a)') 'preload_fortran_set: ', sums(1), ' checks passed'
    else
      write (*, '(a,i0,a,i0,a)') 'preload_fortran_set: ', sums(2), ' of ', sums(1), ' checks FAILED'
    end if
    write (*, '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0,a,i0,a,i0)') 'calls: reduce=', calls(1), ' reduce_scatter_block=', &
      calls(2), ' reduce_scatter=', calls(3), ' allgatherv=', calls(4), ' gather=', calls(5), ' gatherv=', calls(6), &
      ' scatter=', calls(7), ' scatterv=', calls(8)
    flush (6)
  end if
  call MPI_FINALIZE(ierr)
  if (sums(2) /= 0) stop 1

contains

  integer function val(from, i)
    integer, intent(in) :: from, i
    val = mod(from * 131 + i * 7, 1000)
  end function val

  double precision function sum_of(i)
    integer, intent(in) :: i
    integer :: q
    sum_of = 0
    do q = 0, p - 1
      sum_of = sum_of + dble(val(q, i))
    end do
  end function sum_of

  subroutine ok(code, what)
    integer, intent(in) :: code
    character(len=*), intent(in) :: what
    call expect(code == MPI_SUCCESS, what // ': ierror')
  end subroutine ok

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    checks = checks + 1
    if (.not. cond) then
      errors = errors + 1
      if (errors <= 20) write (0, '(a,i0,a,a,a,i0,a,i0)') 'rank ', rank, ': FAILED: ', what, ' root ', root, &
        ' in place ', ip
    end if
  end subroutine expect

  ! Every rank's block in `buf` (v: the uneven counts; else m a rank).
  subroutine expect_blocks(buf, v, what)
    integer, intent(in) :: buf(:)
    logical, intent(in) :: v
    character(len=*), intent(in) :: what
    integer :: q, j
    do q = 0, p - 1
      if (v) then
        do j = 1, counts(q)
          call expect(buf(displs(q) + j) == val(q, j), what)
        end do
      else
        do j = 1, m
          call expect(buf(q * m + j) == val(q, j), what)
        end do
      end if
    end do
  end subroutine expect_blocks

  subroutine gathers(v)
    logical, intent(in) :: v
    integer :: j, n, at
    n = m
    at = rank * m
    if (v) then
      n = counts(rank)
      at = displs(rank)
    end if
    g = -1
    do j = 1, n
      s(j) = val(rank, j)
      g(at + j) = s(j)
    end do
    if (v) then
      if (ip == 1 .and. rank == root) then
        call MPI_GATHERV(MPI_IN_PLACE, 0, MPI_INTEGER, g, counts, displs, MPI_INTEGER, root, comm, ierr)
      else
        call MPI_GATHERV(s, n, MPI_INTEGER, g, counts, displs, MPI_INTEGER, root, comm, ierr)
      end if
      call ok(ierr, 'MPI_GATHERV')
      calls(6) = calls(6) + 1
    else
      if (ip == 1 .and. rank == root) then
        call MPI_GATHER(MPI_IN_PLACE, 0, MPI_INTEGER, g, m, MPI_INTEGER, root, comm, ierr)
      else
        call MPI_GATHER(s, m, MPI_INTEGER, g, m, MPI_INTEGER, root, comm, ierr)
      end if
      call ok(ierr, 'MPI_GATHER')
      calls(5) = calls(5) + 1
    end if
    if (rank == root) call expect_blocks(g, v, 'MPI_GATHER(V)')
  end subroutine gathers

  subroutine scatters(v)
    logical, intent(in) :: v
    integer :: q, j, n, at
    g = -1
    s = -1
    do q = 0, p - 1
      if (v) then
        do j = 1, counts(q)
          g(displs(q) + j) = val(q, j)
        end do
      else
        do j = 1, m
          g(q * m + j) = val(q, j)
        end do
      end if
    end do
    n = m
    at = rank * m
    if (v) then
      n = counts(rank)
      at = displs(rank)
    end if
    if (v) then
      if (ip == 1 .and. rank == root) then
        call MPI_SCATTERV(g, counts, displs, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_INTEGER, root, comm, ierr)
      else
        call MPI_SCATTERV(g, counts, displs, MPI_INTEGER, s, n, MPI_INTEGER, root, comm, ierr)
      end if
      call ok(ierr, 'MPI_SCATTERV')
      calls(8) = calls(8) + 1
    else
      if (ip == 1 .and. rank == root) then
        call MPI_SCATTER(g, m, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_INTEGER, root, comm, ierr)
      else
        call MPI_SCATTER(g, m, MPI_INTEGER, s, m, MPI_INTEGER, root, comm, ierr)
      end if
      call ok(ierr, 'MPI_SCATTER')
      calls(7) = calls(7) + 1
    end if
    do j = 1, n
      if (ip == 1 .and. rank == root) then
        call expect(g(at + j) == val(rank, j), 'MPI_SCATTER(V) in place')
      else
        call expect(s(j) == val(rank, j), 'MPI_SCATTER(V)')
      end if
    end do
  end subroutine scatters

end program preload_fortran_set
