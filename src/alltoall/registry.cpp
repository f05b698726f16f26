// The alltoall algorithms that mcb_alltoall offers, in --list order.
#include "hierarchy.hpp"
#include "mcb/alltoall.hpp"
#include "mcb/error.hpp"
#include "mcb/tra_model.hpp"
#include "tra.hpp"

namespace mcb::alltoall {

namespace {

// The node-aware family needs the same number of ranks on every node.
std::string needs_uniform(const Layout& layout) {
  return layout.uniform() ? "" : "needs the same number of ranks on every node";
}

Algorithm family(std::string name, std::string summary, std::vector<ParamSpec> extra, PlanFactory make) {
  std::vector<ParamSpec> params{detail::inner_param()};
  params.insert(params.end(), extra.begin(), extra.end());
  for (auto& p : detail::inner_radix_params()) params.push_back(std::move(p));
  Algorithm a{std::move(name), std::move(summary), std::move(params), std::move(make)};
  a.unsupported = needs_uniform;
  // The leaders or groups per node (the inner exchanges' radices depend on
  // the exchange and are checked when it is made).
  a.check = [algo = a.name](const Layout& layout, const Params& p) {
    if (!layout.uniform()) return;
    if (p.has("leaders-per-node") || p.has("procs-per-leader"))
      detail::procs_per_leader(algo, layout.ranks_per_node(), p);
    if (p.has("groups-per-node") || p.has("procs-per-group"))
      detail::locality_groups(algo, layout.ranks_per_node(), layout, p);
  };
  return a;
}

}  // namespace

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v = system_mpi::algorithms(system_mpi::Collective::alltoall);
    v.push_back({"pairwise", "pairwise exchange, P-1 MPI_Sendrecv steps (Algorithm 1)", {}, layout_free(pairwise)});
    v.push_back({"nonblocking", "all Isend/Irecv then one Waitall (Algorithm 2)", {}, layout_free(nonblocking)});
    v.push_back({"bruck", "Bruck, ceil(log2 P) rounds of about P/2 blocks, any P", {}, layout_free(bruck)});
    Algorithm radix{"tra",
                    "tunable-radix alltoall: radix r from 2 (Bruck) to P (spread-out), any P",
                    {{"radix", "r in [2, P], a list of them (default ceil(sqrt(P)))", "", {}}},
                    [](const CollArgs& a, const Layout&, const Params& p) { return tra(a, p); }};
    radix.check = [](const Layout& layout, const Params& p) {
      detail::resolve_radix("tra", p, "radix", layout.size(), "ranks", tra_default_radix(layout.size()));
    };
    v.push_back(radix);
    Algorithm two_layer{"tra2",
                        "two-layer TRA: intra-node rounds of radix r1, then inter-node rounds of radix r2",
                        {{"radix-intra", "r1 in [2, ranks per node] (default ceil(sqrt(ranks per node)))", "", {}},
                         {"radix-inter", "r2 in [2, nodes] (default the node count)", "", {}}},
                        tra2};
    two_layer.unsupported = needs_uniform;
    two_layer.check = [](const Layout& layout, const Params& p) {
      if (!layout.uniform()) return;
      const int q = layout.ranks_per_node(), nodes = layout.num_nodes();
      detail::resolve_radix("tra2", p, "radix-intra", q, "ranks per node", tra_default_radix(q));
      detail::resolve_radix("tra2", p, "radix-inter", nodes, "nodes", nodes);
    };
    v.push_back(two_layer);
    v.push_back(family("hierarchical", "gather to one leader per node, alltoall among leaders, scatter (Algorithm 3)",
                       {}, hierarchical));
    v.push_back(family("multileader", "hierarchical with L leaders per node (Algorithm 3, Figure 3)",
                       detail::leader_params(), multileader));
    v.push_back(family("node_aware", "alltoall across nodes on the lanes, then inside each node (Algorithm 4)", {},
                       node_aware));
    v.push_back(
        family("locality_aware", "node_aware with G groups per node or hwloc regions (Figure 5)",
               {{"groups-per-node", "G groups of consecutive ranks per node", "", {}},
                {"procs-per-group", "N ranks per group (default 4, clipped to a divisor of ranks per node)", "", {}}},
               locality_aware));
    v.push_back(family("multileader_node_aware",
                       "gather to L leaders, node-aware alltoall among the leaders, scatter (Algorithm 5)",
                       detail::leader_params(), multileader_node_aware));
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
