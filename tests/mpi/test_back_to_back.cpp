// The shared-memory allreduces, reduce and bcast called back to back with no
// barrier between calls (the benchmarks' barrier after each iteration hides
// a rank that reuses a slot or region its peers still read), the ranks
// paced unevenly, new data every call, every result checked element by
// element against the values computed here and every send buffer against
// its copy. Per algorithm and interface: a small vector (the small path on
// one node, issue 57) and a large one (the stages) interleaved on the same
// communicator, and on the blocking interface two buffer sets of the small
// shape, so that one arena segment serves both paths and the cached plans
// change under each other. Usage:
//   test_back_to_back RANKS_PER_NODE ORDER [CALLS [SHAPES]]
// (RANKS_PER_NODE 0: the real nodes; SHAPES: set_blocking_cache_limit, 1
// drops the other shape's engines at every call). Exits non-zero on any
// mismatch.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "mcb/allreduce.hpp"
#include "mcb/error.hpp"
#include "mcb/layout.hpp"

namespace {

enum class Kind { allreduce, reduce, bcast };

// Rank r's input element i in call `call`: small integers, exact in float.
int value(int r, int call, int i) { return (r + 1) * (i % 7 + 1) + call % 11; }

// Spins for a few microseconds, more on some ranks and calls than others.
void pace(int rank, int call) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds((call * 7 + rank * 13) % 5 * 3);
  while (std::chrono::steady_clock::now() < until) {
  }
}

template <class T>
struct Buffers {
  std::vector<T> send, recv, pristine;
  explicit Buffers(int n) : send(static_cast<std::size_t>(n)), recv(send.size()), pristine(send.size()) {}
};

MPI_Datatype mpi_type(int) { return MPI_INT; }
MPI_Datatype mpi_type(float) { return MPI_FLOAT; }

struct Case {
  const char* name;
  Kind kind;
  std::function<mcb::Plan(const mcb::CollArgs&, const mcb::Layout&, const mcb::Params&)> make;
};

template <class T>
int run(const Case& c, const std::string& interface, bool in_place, MPI_Op op, const mcb::Layout& layout, int calls) {
  const int rank = layout.rank(), size = layout.size();
  // Shapes 0 and 1: the small path's count on two buffer sets (two plans of
  // one shape: on the blocking interface one cache entry); shape 2 another
  // small one (its slots where shape 0's were), shape 3 a large vector that
  // takes the stages.
  const std::vector<int> counts{7, 7, 40, 20000};
  const bool place = in_place && (c.kind == Kind::allreduce || rank == 0);
  std::vector<Buffers<T>> bufs;
  for (int n : counts) bufs.emplace_back(n);
  mcb::Params params;
  params.set("interface", interface);
  std::vector<mcb::Plan> plans;
  for (std::size_t s = 0; s < counts.size(); ++s) {
    const mcb::CollArgs args{
        place ? MPI_IN_PLACE : bufs[s].send.data(), bufs[s].recv.data(), counts[s], mpi_type(T{}), layout.comm(), op};
    plans.push_back(c.make(args, layout, params));
  }
  int errors = 0;
  for (int call = 0; call < calls; ++call) {
    const std::size_t s = static_cast<std::size_t>(call) % counts.size();
    Buffers<T>& b = bufs[s];
    const int n = static_cast<int>(b.send.size());
    for (int i = 0; i < n; ++i) {
      const T v = static_cast<T>(value(rank, call, i));
      (place ? b.recv : b.send)[static_cast<std::size_t>(i)] = v;
      if (!place) b.recv[static_cast<std::size_t>(i)] = static_cast<T>(-1);
    }
    b.pristine = b.send;
    pace(rank, call);
    plans[s].execute();
    if (!place && b.send != b.pristine) {
      std::fprintf(stderr, "rank %d: %s %s: the send buffer changed in call %d\n", rank, c.name, interface.c_str(),
                   call);
      ++errors;
    }
    if (c.kind == Kind::reduce && rank != 0) continue;
    for (int i = 0; i < n; ++i) {
      T want = static_cast<T>(value(0, call, i));
      if (c.kind != Kind::bcast)
        for (int r = 1; r < size; ++r) {
          const T v = static_cast<T>(value(r, call, i));
          want = op == MPI_MAX ? (v > want ? v : want) : static_cast<T>(want + v);
        }
      if (b.recv[static_cast<std::size_t>(i)] != want) {
        std::fprintf(stderr, "rank %d: %s %s%s count %d call %d element %d: %g, expected %g\n", rank, c.name,
                     interface.c_str(), in_place ? " in place" : "", n, call, i,
                     static_cast<double>(b.recv[static_cast<std::size_t>(i)]), static_cast<double>(want));
        ++errors;
        break;
      }
    }
  }
  return errors;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world = 0, wsize = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  if (argc < 3) {
    if (world == 0) std::fprintf(stderr, "usage: test_back_to_back RANKS_PER_NODE ORDER [CALLS]\n");
    MPI_Finalize();
    return 2;
  }
  mcb::LayoutOptions opt;
  opt.ranks_per_node = std::stoi(argv[1]);
  opt.order = mcb::parse_rank_order(argv[2]);
  const int calls = argc > 3 ? std::stoi(argv[3]) : 300;
  if (argc > 4) mcb::allreduce::set_blocking_cache_limit(static_cast<std::size_t>(std::stoi(argv[4])));
  int errors = 0;
  {
    const mcb::Layout layout = mcb::Layout::create(MPI_COMM_WORLD, opt);
    const std::vector<Case> cases{{"shm_recursive_exchange", Kind::allreduce, mcb::allreduce::shm_recursive_exchange},
                                  {"shm_cyclic_shift", Kind::allreduce, mcb::allreduce::shm_cyclic_shift},
                                  {"shm_tree", Kind::allreduce, mcb::allreduce::shm_tree},
                                  {"shm_tree (reduce)", Kind::reduce, mcb::allreduce::shm_tree_reduce},
                                  {"shm_tree (bcast)", Kind::bcast, mcb::allreduce::shm_tree_bcast}};
    for (const Case& c : cases)
      for (const std::string interface : {"persistent", "blocking"})
        for (bool in_place : {false, true}) {
          errors += run<int>(c, interface, in_place, MPI_SUM, layout, calls);
          if (c.kind != Kind::bcast) {
            errors += run<float>(c, interface, in_place, MPI_SUM, layout, calls);
            errors += run<int>(c, interface, in_place, MPI_MAX, layout, calls);
          }
        }
  }
  int total = 0;
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (world == 0) std::printf("# ranks: %d\nback to back: %d errors\n", wsize, total);
  MPI_Finalize();
  return total ? 1 : 0;
}
