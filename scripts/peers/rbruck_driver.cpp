/* rbruck_driver.cpp: times harp-lab's rbruck_alltoall (the TRA paper's
 * radix-r Bruck and its two-layer split) the way mcb times its own
 * (peer_bench.h), for scripts/peers/rbruck.sh, which builds it with smpicxx
 * against the user's checkout (its src/) and runs it under SimGrid
 * (scripts/sim/simulate.py --launch). No code of the reference is here: it
 * calls the checkout's functions through its header.
 *
 *   driver -m 4,64 -i 2 -x 1 --csv out.csv [--radix R,...] [--radix-intra R1,...] [--radix-inter R2,...]
 *          [--only NAME,...] [--commit C]
 *
 * --radix defaults to 2 and ceil(sqrt(P)) (mcb's tra default), --radix-intra
 * to ceil(sqrt(ranks per node)) and --radix-inter to the node count (mcb's
 * tra2 defaults). The reference's functions overwrite the send buffer (its
 * rotations) and its two-layer split keeps flags in the receive buffer's
 * first bytes (a byte '1' marks a swapped block), so before every run,
 * outside the timed region, the send buffer is refilled and the receive
 * buffer cleared. */
#include <cmath>
#include <string>
#include <vector>

#include "peer_bench.h"
#include "radix_r_bruck.h"

// The reference's header declares these for its examples, which define them;
// its two-layer split writes them.
double intra_time = 0;
double inter_time = 0;

namespace {

struct Ctx {
  unsigned char *send, *recv;
  int rank, ranks, ppn;
  int fn, r1, r2;
};

enum { BASIC, MODIFIED_INVERSE, INVERSE_ISPLIT };

void rb_op(void* c, long s) {
  Ctx* x = static_cast<Ctx*>(c);
  char* send = reinterpret_cast<char*>(x->send);
  char* recv = reinterpret_cast<char*>(x->recv);
  const int n = static_cast<int>(s);
  if (x->fn == BASIC)
    uniform_radix_r_bruck(x->r1, send, n, MPI_CHAR, recv, n, MPI_CHAR, MPI_COMM_WORLD);
  else if (x->fn == MODIFIED_INVERSE)
    uniform_modified_inverse_r_bruck(x->r1, send, n, MPI_CHAR, recv, n, MPI_CHAR, MPI_COMM_WORLD);
  else
    uniform_inverse_isplit_r_bruck(x->ppn, x->r1, x->r2, send, n, MPI_CHAR, recv, n, MPI_CHAR, MPI_COMM_WORLD);
  // The reference keeps per-round times in global vectors (its examples
  // print them); they would grow without end.
  iteTimes.clear();
  invIteTimes.clear();
}

void rb_prep(void* c, long s, unsigned char poison) {
  Ctx* x = static_cast<Ctx*>(c);
  peer_fill(x->send, x->rank, x->ranks, s);
  memset(x->recv, poison, static_cast<size_t>(s * x->ranks));
}

bool parse_list(const char* text, std::vector<int>& out) {
  out.clear();
  std::string t(text);
  size_t p = 0;
  while (p <= t.size()) {
    size_t e = t.find(',', p);
    if (e == std::string::npos) e = t.size();
    int v = atoi(t.substr(p, e - p).c_str());
    if (v < 2) return false;
    out.push_back(v);
    p = e + 1;
  }
  return !out.empty();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  peer_run run;
  int unknown[8];
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int nu = peer_parse(&run, argc, argv, unknown, 8);
  std::vector<int> radix, intra, inter;
  bool ok = nu >= 0;
  for (int u = 0; ok && u < nu; ++u) {
    const int a = unknown[u];
    const std::string o = argv[a];
    const bool has = u + 1 < nu && unknown[u + 1] == a + 1;
    if (!has) {
      ok = false;
    } else if (o == "--radix") {
      ok = parse_list(argv[a + 1], radix);
    } else if (o == "--radix-intra") {
      ok = parse_list(argv[a + 1], intra);
    } else if (o == "--radix-inter") {
      ok = parse_list(argv[a + 1], inter);
    } else {
      ok = false;
    }
    ++u;
  }
  if (!ok) {
    if (rank == 0) peer_usage(argv[0], " [--radix R,...] [--radix-intra R1,...] [--radix-inter R2,...]");
    MPI_Finalize();
    return 2;
  }
  if (peer_start(&run, "rbruck_alltoall") != 0) {
    MPI_Finalize();
    return 1;
  }
  const int P = run.ranks;
  if (radix.empty()) {
    radix.push_back(2);
    const int root = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(P)) - 1e-9));
    if (root > 2) radix.push_back(root);
  }
  if (intra.empty()) intra.push_back(std::max(2, static_cast<int>(std::ceil(std::sqrt(run.ppn * 1.0) - 1e-9))));
  if (inter.empty()) inter.push_back(std::max(2, run.nodes));
  long largest = 0;
  for (int i = 0; i < run.nsizes; ++i) largest = std::max(largest, run.sizes[i]);
  Ctx ctx;
  ctx.rank = run.rank;
  ctx.ranks = P;
  ctx.ppn = run.ppn;
  ctx.send = static_cast<unsigned char*>(peer_alloc(static_cast<size_t>(largest * P)));
  ctx.recv = static_cast<unsigned char*>(peer_alloc(static_cast<size_t>(largest * P)));
  char params[96];
  for (int fn : {BASIC, MODIFIED_INVERSE}) {
    const char* name = fn == BASIC ? "uniform_radix_r_bruck" : "uniform_modified_inverse_r_bruck";
    if (!peer_selected(&run, name)) continue;
    for (int r : radix) {
      if (r > P) continue;
      ctx.fn = fn;
      ctx.r1 = r;
      snprintf(params, sizeof params, "radix=%d", r);
      for (int i = 0; i < run.nsizes; ++i)
        peer_measure(&run, "rbruck_alltoall", name, "tra", params, rb_op, rb_prep, &ctx, ctx.recv, run.sizes[i]);
    }
  }
  if (peer_selected(&run, "uniform_inverse_isplit_r_bruck") && run.nodes > 1) {
    for (int r1 : intra)
      for (int r2 : inter) {
        if (r1 > run.ppn || r2 > run.nodes) continue;  // the reference would clip them, mcb refuses them
        ctx.fn = INVERSE_ISPLIT;
        ctx.r1 = r1;
        ctx.r2 = r2;
        snprintf(params, sizeof params, "radix-intra=%d;radix-inter=%d", r1, r2);
        for (int i = 0; i < run.nsizes; ++i)
          peer_measure(&run, "rbruck_alltoall", "uniform_inverse_isplit_r_bruck", "tra2", params, rb_op, rb_prep, &ctx,
                       ctx.recv, run.sizes[i]);
      }
  }
  free(ctx.send);
  free(ctx.recv);
  if (run.out && run.out != stdout) fclose(run.out);
  MPI_Finalize();
  return 0;
}
