// The alltoall algorithms that mcb_alltoall offers, in --list order, and
// the inner exchanges of the node-aware family.
#include "hierarchy.hpp"
#include "mcb/alltoall.hpp"
#include "mcb/error.hpp"
#include "tra.hpp"

namespace mcb::alltoall {

// One line per algorithm, in --list order after the system's
// (mcb/system.hpp): each file declares its own entry in
// MCB_DECLARE_ALGORITHM(name) (mcb/collective.hpp).
#define MCB_ALLTOALL_ALGORITHMS(X) \
  X(pairwise)                      \
  X(nonblocking)                   \
  X(bruck)                         \
  X(tra)                           \
  X(tra2)                          \
  X(hierarchical)                  \
  X(multileader)                   \
  X(node_aware)                    \
  X(locality_aware)                \
  X(multileader_node_aware)

#define MCB_DECLARE(name) MCB_DECLARE_ALGORITHM(name);
MCB_ALLTOALL_ALGORITHMS(MCB_DECLARE)
#undef MCB_DECLARE

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v = system_mpi::algorithms(system_mpi::Collective::alltoall);
#define MCB_ADD(name) v.push_back(declare_##name());
    MCB_ALLTOALL_ALGORITHMS(MCB_ADD)
#undef MCB_ADD
    return v;
  }();
  return list;
}

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
constexpr Inner kInner[] = {{"pairwise", site_free<pairwise>}, {"nonblocking", site_free<nonblocking>},
                            {"bruck", site_free<bruck>},       {"system", site_free<system>},
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
