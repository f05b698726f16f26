# mcb_fft: the six-step FFT validated against FFTW's serial transform
# (norm-wise relative error at most 1e-9) with every alltoall as its
# transposes, for odd and prime P, uneven shapes (k = 1, 3, 6, 64 points per
# peer: -m 16, 48, 96, 1024), virtual nodes and cyclic order; the
# validation's power to fail; bad input. Built only with FFTW 3.
if(NOT TARGET mcb_fft)
  return()
endif()
set(FFT $<TARGET_FILE:mcb_fft>)
set(FFT_PHASES "compute\\(us\\) +transpose\\(us\\)")
foreach(p 1 2 3 5 7)
  mcb_mpi_test(fft_p${p} ${p} --expect-ranks --expect-stdout ${FFT_PHASES} -- ${FFT} --algorithm all -c -m 16,48,96,1024
               -i 2 -x 1)
endforeach()
mcb_mpi_test(fft_p8_vnodes 8 --expect-ranks --expect-stdout ${FFT_PHASES} -- ${FFT} --algorithm all -c -m 16,48,1024
             -i 2 -x 1 --ranks-per-node 4)
mcb_mpi_test(fft_p6_cyclic 6 --expect-ranks --expect-stdout ${FFT_PHASES} -- ${FFT} --algorithm all -c -m 16,96 -i 2
             -x 1 --ranks-per-node 3 --rank-order cyclic)
mcb_mpi_test(fft_tra_radix 7 --expect-rows 4 -- ${FFT} --algorithm tra --radix 3,7 -c -m 16,48 -i 2 -x 1)

add_executable(mcb_broken_fft mpi/broken_fft.cpp)
target_link_libraries(mcb_broken_fft PRIVATE mcb_harness mcb_six_step)
set(BROKEN_FFT $<TARGET_FILE:mcb_broken_fft>)
mcb_mpi_test(fft_validation_wrong_point 3 --expect-exit 1 --expect-stderr "wrong_point, size 16 B.*relative error"
             --expect-stdout "fail" -- ${BROKEN_FFT} --algorithm wrong_point -c -m 16:16 -i 2)
mcb_mpi_test(fft_validation_small_error 3 --expect-exit 1 --expect-stderr "small_error, size 48 B.*relative error .* above the tolerance 1e-09"
             -- ${BROKEN_FFT} --algorithm small_error -c -m 48:48 -i 2)
mcb_mpi_test(fft_validation_passes_correct 3 --expect-rows 2 -- ${BROKEN_FFT} --algorithm pairwise -c -m 16,48 -i 2)

mcb_bad_input(fft_size 3 "--message-size 8,16: 8 bytes is not a multiple of the complex size \\(16 bytes\\)" -- ${FFT}
              -m 8,16)
mcb_bad_input(fft_type 2 "--type double: mcb_fft takes complex" -- ${FFT} -T double)
# Without a GPU the backend refuses first; with one, mcb_fft does.
mcb_bad_input(fft_mem 2 "--mem cuda: " -- ${FFT} --mem cuda)
