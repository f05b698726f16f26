// The alltoall algorithms that mcb_alltoall offers, in --list order, and
// the inner exchanges of the node-aware family.
#include "mcb/alltoall.hpp"
#include "mcb/error.hpp"
#include "node_aware/hierarchy.hpp"
#include "tra/tra.hpp"

namespace mcb::alltoall {

// One line per algorithm, in --list order after the system's
// (mcb/system.hpp): each file declares its own entry in
// MCB_DECLARE_ALGORITHM(name) (mcb/collective.hpp).
#define MCB_ALLTOALL_ALGORITHMS(X) \
  X(pairwise)                      \
  X(nonblocking)                   \
  X(scatter_dest)                  \
  X(bruck)                         \
  X(tra)                           \
  X(tra2)                          \
  X(hierarchical)                  \
  X(multileader)                   \
  X(node_aware)                    \
  X(locality_aware)                \
  X(multileader_node_aware)

MCB_ALGORITHM_REGISTRY_CHARGED(alltoall, MCB_ALLTOALL_ALGORITHMS, mpich_system)

const Algorithm& find(const std::string& name) {
  for (const auto& a : algorithms())
    if (a.name == name) return a;
  std::string known;
  for (const auto& a : algorithms()) known += (known.empty() ? "" : ", ") + a.name;
  throw Error("unknown alltoall algorithm '" + name + "'; known: " + known);
}

namespace {

struct Inner {
  const char* name;
  Plan (*make)(const CollArgs&, const InnerSite&);
};
template <Plan (*F)(const CollArgs&)>
Plan site_free(const CollArgs& args, const InnerSite&) {
  return F(args);
}
Plan system_inner(const CollArgs& args, const InnerSite&) {
  return system_mpi::blocking(system_mpi::Collective::alltoall, args);
}
constexpr Inner kInner[] = {{"pairwise", site_free<pairwise>}, {"nonblocking", site_free<nonblocking>},
                            {"bruck", site_free<bruck>},       {"system", system_inner},
                            {"tra", detail::inner_tra},        {"tra2", detail::inner_tra2}};

}  // namespace

std::vector<std::string> inner_names() {
  std::vector<std::string> names;
  for (const auto& i : kInner) names.emplace_back(i.name);
  return names;
}

Plan make_inner(const std::string& name, const CollArgs& args, const InnerSite& site) {
  for (const auto& i : kInner)
    if (name == i.name) return i.make(args, site);
  std::string known;
  for (const auto& i : kInner) known += (known.empty() ? "" : ", ") + std::string(i.name);
  throw Error("--inner " + name + ": expected one of " + known);
}

}  // namespace mcb::alltoall
