#include "hierarchy.hpp"

#include <algorithm>
#include <map>

#include "mcb/error.hpp"

namespace mcb::alltoall::detail {

NodeGroups NodeGroups::consecutive(int ppn, int size) {
  NodeGroups g;
  g.size = size;
  g.count = ppn / size;
  g.key = "ppg=" + std::to_string(size);
  g.members.assign(static_cast<std::size_t>(g.count), {});
  for (int l = 0; l < ppn; ++l) {
    g.group_of.push_back(l / size);
    g.index_of.push_back(l % size);
    g.members[static_cast<std::size_t>(l / size)].push_back(l);
  }
  return g;
}

NodeGroups NodeGroups::from_regions(const std::string& algo, const std::vector<int>& regions, const std::string& what) {
  NodeGroups g;
  g.count = *std::max_element(regions.begin(), regions.end()) + 1;
  g.members.assign(static_cast<std::size_t>(g.count), {});
  g.key = "region=" + what;
  for (int l = 0; l < static_cast<int>(regions.size()); ++l) {
    g.group_of.push_back(regions[static_cast<std::size_t>(l)]);
    g.index_of.push_back(static_cast<int>(g.members[static_cast<std::size_t>(regions[l])].size()));
    g.members[static_cast<std::size_t>(regions[l])].push_back(l);
  }
  g.size = static_cast<int>(g.members[0].size());
  bool equal =
      std::all_of(g.members.begin(), g.members.end(), [&](const auto& m) { return m.size() == g.members[0].size(); });
  if (!equal) {
    std::string sizes;
    for (const auto& m : g.members) sizes += (sizes.empty() ? "" : ", ") + std::to_string(m.size());
    throw Error(algo + ": --region " + what + " cuts the " + std::to_string(regions.size()) +
                " ranks of a node into regions of " + sizes +
                " ranks; the groups must be equal (use --procs-per-group with one of " +
                divisors_of(static_cast<int>(regions.size())) + ")");
  }
  return g;
}

int require_uniform(const std::string& algo, const CollArgs& args, const Layout& layout) {
  int same = MPI_UNEQUAL;
  MPI_Comm_compare(args.comm, layout.comm(), &same);
  if (same != MPI_IDENT && same != MPI_CONGRUENT)
    throw Error(algo + ": the layout was built on another communicator than the one of the call");
  if (!layout.uniform()) {
    std::map<int, int> sizes;
    for (int s : layout.node_sizes()) ++sizes[s];
    std::string text;
    for (const auto& [s, n] : sizes)
      text += (text.empty() ? "" : ", ") + std::to_string(n) + " of " + std::to_string(s);
    throw Error(algo + " needs the same number of ranks on every node; the nodes have " + text +
                " ranks (use --ranks-per-node)");
  }
  return layout.ranks_per_node();
}

std::vector<std::vector<int>> ranks_by_node(const Layout& layout) {
  std::vector<std::vector<int>> at(static_cast<std::size_t>(layout.num_nodes()));
  for (int n = 0; n < layout.num_nodes(); ++n) at[n].resize(static_cast<std::size_t>(layout.node_sizes()[n]));
  for (int r = 0; r < layout.size(); ++r) at[layout.node_of()[r]][layout.local_rank_of()[r]] = r;
  return at;
}

int largest_divisor_up_to(int n, int cap) {
  for (int d = std::min(n, cap); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

namespace {

// A count of things per node given as --<count_name> (groups or leaders per
// node) or --<size_name> (processes per group or leader); returns the size.
int resolve_split(const std::string& algo, int ppn, const Params& params, const std::string& count_name,
                  const std::string& size_name, const std::string& what) {
  const bool by_count = params.has(count_name), by_size = params.has(size_name);
  if (by_count && by_size) throw Error(algo + ": give --" + count_name + " or --" + size_name + ", not both");
  if (!by_count && !by_size) return largest_divisor_up_to(ppn, 4);
  const std::string& name = by_count ? count_name : size_name;
  const long v = params.get_int(name, 0);
  const std::string head = algo + ": --" + name + " " + std::to_string(v);
  const std::string fits = "; values that fit: " + divisors_of(ppn);
  if (v < 1) throw Error(head + ": must be >= 1" + fits);
  if (v > ppn)
    throw Error(head + (by_count ? ": more " + what + " than" : ": more processes than") + " the " +
                std::to_string(ppn) + " ranks per node" + fits);
  if (ppn % v != 0) throw Error(head + " does not divide the " + std::to_string(ppn) + " ranks per node" + fits);
  return by_count ? ppn / static_cast<int>(v) : static_cast<int>(v);
}

}  // namespace

int procs_per_leader(const std::string& algo, int ppn, const Params& params) {
  return resolve_split(algo, ppn, params, "leaders-per-node", "procs-per-leader", "leaders");
}

NodeGroups locality_groups(const std::string& algo, int ppn, const Layout& layout, const Params& params) {
  const RegionSpec& region = layout.options().region;
  if (region.kind != RegionSpec::Kind::none) {
    for (const char* name : {"groups-per-node", "procs-per-group"})
      if (params.has(name))
        throw Error(algo + ": --" + name + " and --region " + region.str() + " both set the groups; give one");
    return NodeGroups::from_regions(algo, layout.local_regions(), region.str());
  }
  return NodeGroups::consecutive(ppn, resolve_split(algo, ppn, params, "groups-per-node", "procs-per-group", "groups"));
}

ParamSpec inner_param() {
  std::string names;
  for (const auto& n : inner_names()) names += (names.empty() ? "" : "|") + n;
  return {"inner", "the alltoall used for every inner exchange: " + names + ", a list, or all", "all", inner_names()};
}

std::vector<ParamSpec> inner_radix_params() {
  auto with_inner = [](const char* inner) { return [inner](const Params& p) { return p.get("inner") == inner; }; };
  ParamSpec radix{"radix", "radix of every inner tra, a list (default ceil(sqrt(ranks in the exchange)))", "", {}};
  ParamSpec intra{
      "radix-intra", "intra-node radix of every inner tra2, a list (default ceil(sqrt(ranks per node)))", "", {}};
  ParamSpec inter{"radix-inter", "inter-node radix of every inner tra2, a list (default the node count)", "", {}};
  radix.applies = with_inner("tra");
  intra.applies = inter.applies = with_inner("tra2");
  return {radix, intra, inter};
}

InnerSite inner_site(const std::string& algo, const std::string& phase, const Params& params, int ranks_per_node) {
  return {algo + " " + phase, params, ranks_per_node};
}

std::vector<ParamSpec> leader_params() {
  return {{"leaders-per-node", "L leaders per node (L divides ranks per node)", "", {}},
          {"procs-per-leader", "N processes per leader (default 4, clipped to a divisor of ranks per node)", "", {}}};
}

std::string inner_name(const Params& params) { return params.get("inner", "pairwise"); }

std::string needs_uniform(const Layout& layout) {
  return layout.uniform() ? "" : "needs the same number of ranks on every node";
}

Algorithm family(std::string name, std::string summary, std::vector<ParamSpec> extra, PlanFactory make) {
  std::vector<ParamSpec> params{inner_param()};
  params.insert(params.end(), extra.begin(), extra.end());
  for (auto& p : inner_radix_params()) params.push_back(std::move(p));
  Algorithm a{std::move(name), std::move(summary), std::move(params), std::move(make)};
  a.unsupported = needs_uniform;
  // The leaders or groups per node (the inner exchanges' radices depend on
  // the exchange and are checked when it is made).
  a.check = [algo = a.name](const Layout& layout, const Params& p) {
    if (!layout.uniform()) return;
    if (p.has("leaders-per-node") || p.has("procs-per-leader")) procs_per_leader(algo, layout.ranks_per_node(), p);
    if (p.has("groups-per-node") || p.has("procs-per-group")) locality_groups(algo, layout.ranks_per_node(), layout, p);
  };
  return a;
}

Repack::Repack(const std::vector<std::size_t>& src_of) {
  for (std::size_t b = 0; b < src_of.size(); ++b) {
    if (!runs_.empty() && runs_.back().src + runs_.back().len == src_of[b] && runs_.back().dst + runs_.back().len == b)
      ++runs_.back().len;
    else
      runs_.push_back({src_of[b], b, 1});
  }
}

bool Repack::identity() const { return runs_.size() == 1 && runs_[0].src == 0; }

void Repack::run(const Memory& mem, void* dst, const void* src, std::size_t block) const {
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  for (const Run& r : runs_) mem.copy(d + r.dst * block, s + r.src * block, r.len * block);
}

}  // namespace mcb::alltoall::detail
