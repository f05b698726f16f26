! preload_fortran: the collectives a Fortran application (CP2K's shapes, the
! application issue's table) calls, from each binding style: compiled three
! times, with -DMCB_MPIF_H (include 'mpif.h'), none (use mpi) and
! -DMCB_MPI_F08 (use mpi_f08). Every result is checked element by element
! against values computed here, without MPI, and every served call's ierror
! must be MPI_SUCCESS. Arguments (any order):
!   thread   MPI_INIT_THREAD(MPI_THREAD_FUNNELED) instead of MPI_INIT
!   refuse   also calls the C path refuses (an in-place alltoall, an
!            allreduce with a user-defined op, a null datatype on a
!            communicator that returns errors): the MPI's own must
!            answer them right, and the null datatype's ierror must be an
!            error
! Rank 0 prints "preload_fortran: N checks passed" and the calls it made as
! "calls: alltoall=A allgather=G allreduce=R", "bcast: calls=B" (the last,
! of the check totals, included) and, with refuse, the refused ones as
! "refused: alltoall=a allreduce=r".
#if defined(MCB_MPI_F08)
#define COMM_T type(MPI_Comm)
#else
#define COMM_T integer
#endif
program preload_fortran
#if defined(MCB_MPI_F08)
  use mpi_f08
#elif !defined(MCB_MPIF_H)
  use mpi
#endif
  implicit none
#if defined(MCB_MPIF_H)
  include 'mpif.h'
#endif
  integer, parameter :: churn = 20
  integer :: ierr, rank, p, i, j, k, errors, checks, provided, totals(2), sums(2)
  integer :: n_alltoall, n_allgather, n_allreduce, n_bcast, r_alltoall, r_allreduce
  integer :: color, subrank, subsize
  logical :: thread, refuse
  character(len=16) :: arg
  COMM_T :: sub, ret
#if !defined(MCB_MPI_F08)
  integer :: user_op
#endif
  integer, allocatable :: s(:), r(:)
  double precision, allocatable :: ds(:), dr(:)
  double precision :: x(4), y(4), loc(2, 3)
  integer(kind=8) :: big(3)
  logical :: flags(3)

  thread = .false.
  refuse = .false.
  do i = 1, command_argument_count()
    call get_command_argument(i, arg)
    if (arg == 'thread') thread = .true.
    if (arg == 'refuse') refuse = .true.
  end do
  if (thread) then
    call MPI_INIT_THREAD(MPI_THREAD_FUNNELED, provided, ierr)
  else
    call MPI_INIT(ierr)
  end if
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
  allocate(s(8 * p), r(8 * p), ds(2 * p), dr(2 * p))
  errors = 0
  checks = 0
  n_alltoall = 0
  n_allgather = 0
  n_allreduce = 0
  r_alltoall = 0
  r_allreduce = 0
  n_bcast = 1  ! the bcast of the check totals at the end

  ! Alltoall, 8-byte blocks (2 INTEGER) and 16-byte blocks (2 DOUBLE PRECISION).
  do j = 0, p - 1
    do i = 1, 2
      s(j * 2 + i) = rank * 1000 + j * 10 + i
      ds(j * 2 + i) = rank * 1000 + j * 10 + i + 0.5d0
    end do
  end do
  r = -1
  dr = -1
  call MPI_ALLTOALL(s, 2, MPI_INTEGER, r, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  call MPI_ALLTOALL(ds, 2, MPI_DOUBLE_PRECISION, dr, 2, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  n_alltoall = n_alltoall + 2
  do j = 0, p - 1
    do i = 1, 2
      call expect(r(j * 2 + i) == j * 1000 + rank * 10 + i)
      call expect(dr(j * 2 + i) == j * 1000 + rank * 10 + i + 0.5d0)
    end do
  end do

  ! Allgather, 32-byte blocks (8 INTEGER).
  do i = 1, 8
    s(i) = rank * 100 + i
  end do
  r = -1
  call MPI_ALLGATHER(s, 8, MPI_INTEGER, r, 8, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  n_allgather = n_allgather + 1
  do j = 0, p - 1
    do i = 1, 8
      call expect(r(j * 8 + i) == j * 100 + i)
    end do
  end do

  ! Bcast (CP2K's mp_bcast) from rank 0: LOGICAL, DOUBLE PRECISION, INTEGER.
  if (rank == 0) then
    flags = [.true., .true., .false.]
  else
    flags = [.false., .false., .true.]
  end if
  call MPI_BCAST(flags, 3, MPI_LOGICAL, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  call expect(flags(1) .and. flags(2) .and. .not. flags(3))
  do i = 1, 2 * p
    ds(i) = merge(1.5d0 * i, -1.0d0, rank == 0)
  end do
  call MPI_BCAST(ds, 2 * p, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  do i = 1, 2 * p
    call expect(ds(i) == 1.5d0 * i)
  end do
  do i = 1, 8
    s(i) = merge(100 + i, -i, rank == 0)
  end do
  call MPI_BCAST(s, 8, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  do i = 1, 8
    call expect(s(i) == 100 + i)
  end do
  n_bcast = n_bcast + 3
  ! Bcast from the last rank (served on a rotated copy of the communicator).
  do i = 1, 8
    s(i) = merge(200 + i, -i, rank == p - 1)
  end do
  call MPI_BCAST(s, 8, MPI_INTEGER, p - 1, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  do i = 1, 8
    call expect(s(i) == 200 + i)
  end do
  n_bcast = n_bcast + 1

  ! Allreduce: DOUBLE PRECISION sum, in-place max and product, INTEGER8 sum
  ! in place (CP2K's mp_sum_l), INTEGER min, LOGICAL or and and,
  ! 2DOUBLE_PRECISION maxloc (value, index) in place.
  do i = 1, 4
    x(i) = rank + i
  end do
  call MPI_ALLREDUCE(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  do i = 1, 4
    call expect(y(i) == dble(p * (p - 1) / 2 + p * i))
  end do
  y = x
  call MPI_ALLREDUCE(MPI_IN_PLACE, y, 4, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  do i = 1, 4
    call expect(y(i) == dble(p - 1 + i))
  end do
  y = 1.0d0
  if (rank < 4) y(rank + 1) = 2.0d0
  call MPI_ALLREDUCE(MPI_IN_PLACE, y, 4, MPI_DOUBLE_PRECISION, MPI_PROD, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  do i = 1, 4
    if (i <= p) then
      call expect(y(i) == 2.0d0)
    else
      call expect(y(i) == 1.0d0)
    end if
  end do
  big = [int(rank, 8) * 4000000000_8, int(rank + 1, 8), -int(rank, 8)]
  call MPI_ALLREDUCE(MPI_IN_PLACE, big, 3, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  call expect(big(1) == int(p, 8) * int(p - 1, 8) / 2 * 4000000000_8)
  call expect(big(2) == int(p, 8) * int(p + 1, 8) / 2)
  call expect(big(3) == -int(p, 8) * int(p - 1, 8) / 2)
  s(1:3) = [rank, 7 - rank, rank * rank]
  call MPI_ALLREDUCE(s, r, 3, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  call expect(r(1) == 0 .and. r(2) == 8 - p .and. r(3) == 0)
  flags = [rank == 0, .false., rank == p - 1]
  call MPI_ALLREDUCE(MPI_IN_PLACE, flags, 3, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  call expect(flags(1) .and. .not. flags(2) .and. flags(3))
  flags = [.true., rank /= 0, rank == 0]
  call MPI_ALLREDUCE(MPI_IN_PLACE, flags, 3, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  call expect(flags(1) .and. .not. flags(2) .and. (flags(3) .eqv. p == 1))
  do i = 1, 3
    loc(1, i) = dble(mod(rank + i, p))  ! the maximum p - 1 is on rank p - 1 - i mod p
    loc(2, i) = dble(rank)
  end do
  call MPI_ALLREDUCE(MPI_IN_PLACE, loc, 3, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS)
  do i = 1, 3
    call expect(loc(1, i) == dble(p - 1) .and. loc(2, i) == dble(modulo(p - 1 - i, p)))
  end do
  n_allreduce = n_allreduce + 8

  ! One-rank communicator: a copy.
  x = [1.0d0, 2.0d0, 3.0d0, 4.0d0] * (rank + 1)
  call MPI_ALLREDUCE(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_SELF, ierr)
  call expect(ierr == MPI_SUCCESS)
  do i = 1, 4
    call expect(y(i) == x(i))
  end do
  n_allreduce = n_allreduce + 1

  ! Communicators made and freed every iteration (CP2K's SCF loop): halves
  ! of MPI_COMM_WORLD, an in-place INTEGER8 sum on each.
  do k = 1, churn
    color = mod(rank + k, 2)
    call MPI_COMM_SPLIT(MPI_COMM_WORLD, color, rank, sub, ierr)
    call MPI_COMM_RANK(sub, subrank, ierr)
    call MPI_COMM_SIZE(sub, subsize, ierr)
    big(1) = int(rank, 8)
    call MPI_ALLREDUCE(MPI_IN_PLACE, big, 1, MPI_INTEGER8, MPI_SUM, sub, ierr)
    call expect(ierr == MPI_SUCCESS)
    ! The ranks of one colour: color', color' + 2, ... with color' = (color - k) mod 2.
    j = modulo(color - k, 2)
    call expect(big(1) == sum([(int(i, 8), i = j, p - 1, 2)]))
    call MPI_COMM_FREE(sub, ierr)
  end do
  n_allreduce = n_allreduce + churn

  if (refuse) then
    ! In-place alltoall: no mcb algorithm has that form.
    do j = 0, p - 1
      s(j + 1) = rank * 100 + j
    end do
    call MPI_ALLTOALL(MPI_IN_PLACE, 1, MPI_INTEGER, s, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call expect(ierr == MPI_SUCCESS)
    do j = 0, p - 1
      call expect(s(j + 1) == j * 100 + rank)
    end do
    r_alltoall = r_alltoall + 1
#if !defined(MCB_MPI_F08)
    ! A user-defined operation: the MPI's own (the f08 build leaves it out:
    ! its user functions take C pointers).
    call MPI_OP_CREATE(int_sum, .true., user_op, ierr)
    s(1:2) = [rank, 1]
    call MPI_ALLREDUCE(s, r, 2, MPI_INTEGER, user_op, MPI_COMM_WORLD, ierr)
    call expect(ierr == MPI_SUCCESS)
    call expect(r(1) == p * (p - 1) / 2 .and. r(2) == p)
    call MPI_OP_FREE(user_op, ierr)
    r_allreduce = r_allreduce + 1
#endif
    ! A null datatype on a communicator that returns errors: the MPI's
    ! error code, in ierror.
    call MPI_COMM_DUP(MPI_COMM_WORLD, ret, ierr)
    call MPI_COMM_SET_ERRHANDLER(ret, MPI_ERRORS_RETURN, ierr)
    call MPI_ALLREDUCE(x, y, 4, MPI_DATATYPE_NULL, MPI_SUM, ret, ierr)
    call expect(ierr /= MPI_SUCCESS)
    call MPI_COMM_FREE(ret, ierr)
    r_allreduce = r_allreduce + 1
  end if

  totals(1) = checks
  totals(2) = errors
  call MPI_REDUCE(totals, sums, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (sums(2) == 0) then
      print '(a, i0, a)', 'preload_fortran: ', sums(1), ' checks passed'
    else
      print '(a, i0, a, i0, a)', 'preload_fortran: ', sums(2), ' of ', sums(1), ' checks failed'
    end if
    print '(a, i0, a, i0, a, i0)', 'preload_fortran: calls: alltoall=', n_alltoall + r_alltoall, ' allgather=', &
      n_allgather, ' allreduce=', n_allreduce + r_allreduce
    print '(a, i0)', 'preload_fortran: bcast: calls=', n_bcast
    if (refuse) print '(a, i0, a, i0)', 'preload_fortran: refused: alltoall=', r_alltoall, ' allreduce=', r_allreduce
  end if
  call MPI_BCAST(sums, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
  if (sums(2) /= 0) stop 1

contains

  subroutine int_sum(invec, inoutvec, n, datatype)
    integer :: n, datatype
    integer :: invec(n), inoutvec(n)
    inoutvec = inoutvec + invec
  end subroutine int_sum

  subroutine expect(ok)
    logical, intent(in) :: ok
    checks = checks + 1
    if (.not. ok) then
      errors = errors + 1
      if (errors <= 10) print '(a, i0, a, i0)', 'preload_fortran: rank ', rank, ': check failed: ', checks
    end if
  end subroutine expect

end program preload_fortran
