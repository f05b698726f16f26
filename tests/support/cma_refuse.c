/* A kernel that refuses cross-memory attach, for mcb's own calls: preloaded
 * into the ranks (run_mpi.py --preload), process_vm_readv fails with EPERM
 * when called from the program itself (mcb's static library), as under
 * kernel.yama.ptrace_scope=1 or a container without CAP_SYS_PTRACE. Calls
 * from shared libraries (the MPI's own shared-memory transport: Open MPI's
 * vader, UCX) go to the real one, so that the system's collectives still
 * run. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/uio.h>

typedef ssize_t (*readv_fn)(pid_t, const struct iovec*, unsigned long, const struct iovec*, unsigned long,
                            unsigned long);

ssize_t process_vm_readv(pid_t pid, const struct iovec* local, unsigned long liovcnt, const struct iovec* remote,
                         unsigned long riovcnt, unsigned long flags) {
  Dl_info info;
  if (dladdr(__builtin_return_address(0), &info) && info.dli_fname && !strstr(info.dli_fname, ".so")) {
    errno = EPERM;
    return -1;
  }
  static readv_fn real;
  if (!real) real = (readv_fn)dlsym(RTLD_NEXT, "process_vm_readv");
  return real(pid, local, liovcnt, remote, riovcnt, flags);
}
