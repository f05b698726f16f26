// Regions of a node from hwloc (NUMA node, package, L3) or a fixed size.
// Built without hwloc (-DMCB_WITH_HWLOC=OFF), the hwloc levels are refused
// when parsed.
#ifdef MCB_HAVE_HWLOC
#include <hwloc.h>
#endif

#include <unistd.h>

#include <algorithm>
#include <map>

#include "mcb/error.hpp"
#include "mcb/layout.hpp"

namespace mcb {

RegionSpec RegionSpec::parse(const std::string& text) {
  RegionSpec s;
  if (text.empty() || text == "none") return s;
  if (text == "numa")
    s.kind = Kind::numa;
  else if (text == "package")
    s.kind = Kind::package;
  else if (text == "l3")
    s.kind = Kind::l3;
  else if (text.rfind("size:", 0) == 0) {
    s.kind = Kind::size;
    std::string k = text.substr(5);
    std::size_t used = 0;
    try {
      s.size = std::stoi(k, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != k.size() || s.size < 1)
      throw Error("--region " + text + ": size:K needs an integer K >= 1");
  } else {
    throw Error("--region " + text + ": expected none, numa, package, l3 or size:K");
  }
  if (!have_hwloc() && s.kind != Kind::none && s.kind != Kind::size)
    throw Error("--region " + text + ": this mcb was built without hwloc (-DMCB_WITH_HWLOC=OFF); use none or size:K");
  return s;
}

bool have_hwloc() {
#ifdef MCB_HAVE_HWLOC
  return true;
#else
  return false;
#endif
}

std::string RegionSpec::str() const {
  switch (kind) {
    case Kind::none:
      return "none";
    case Kind::size:
      return "size:" + std::to_string(size);
    case Kind::numa:
      return "numa";
    case Kind::package:
      return "package";
    case Kind::l3:
      return "l3";
  }
  return "?";
}

#ifdef MCB_HAVE_HWLOC
namespace {

class Topology {
 public:
  Topology() {
    if (hwloc_topology_init(&topo_) != 0 || hwloc_topology_load(topo_) != 0)
      throw Error("hwloc could not load the node topology (check HWLOC_SYNTHETIC / HWLOC_XMLFILE)");
  }
  ~Topology() { hwloc_topology_destroy(topo_); }
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;
  hwloc_topology_t get() const { return topo_; }

 private:
  hwloc_topology_t topo_{};
};

hwloc_obj_type_t level_type(RegionSpec::Kind kind) {
  switch (kind) {
    case RegionSpec::Kind::numa:
      return HWLOC_OBJ_NUMANODE;
    case RegionSpec::Kind::package:
      return HWLOC_OBJ_PACKAGE;
    default:
      return HWLOC_OBJ_L3CACHE;
  }
}

}  // namespace
#endif

std::vector<int> region_map(const RegionSpec& spec, int local_ranks) {
  std::vector<int> regions(local_ranks, 0);
  if (spec.kind == RegionSpec::Kind::none) return regions;
  if (spec.kind == RegionSpec::Kind::size) {
    for (int i = 0; i < local_ranks; ++i) regions[i] = i / spec.size;
    return regions;
  }
#ifndef MCB_HAVE_HWLOC
  throw Error("--region " + spec.str() + ": this mcb was built without hwloc (-DMCB_WITH_HWLOC=OFF)");
#else
  Topology topo;
  hwloc_obj_type_t core_type = HWLOC_OBJ_CORE;
  int ncores = hwloc_get_nbobjs_by_type(topo.get(), core_type);
  if (ncores <= 0) {
    core_type = HWLOC_OBJ_PU;
    ncores = hwloc_get_nbobjs_by_type(topo.get(), core_type);
  }
  hwloc_obj_type_t type = level_type(spec.kind);
  int nobjs = hwloc_get_nbobjs_by_type(topo.get(), type);
  if (ncores <= 0 || nobjs <= 0)
    throw Error("--region " + spec.str() + ": the hwloc topology of this node has no " + spec.str() + " level");
  std::map<unsigned, int> dense;  // hwloc logical index -> region index in core order
  for (int i = 0; i < local_ranks; ++i) {
    hwloc_obj_t core = hwloc_get_obj_by_type(topo.get(), core_type, static_cast<unsigned>(i % ncores));
    int found = -1;
    for (int o = 0; o < nobjs && found < 0; ++o) {
      hwloc_obj_t obj = hwloc_get_obj_by_type(topo.get(), type, static_cast<unsigned>(o));
      if (obj->cpuset && hwloc_bitmap_isincluded(core->cpuset, obj->cpuset)) found = o;
    }
    if (found < 0)
      throw Error("--region " + spec.str() + ": core " + std::to_string(i % ncores) + " is in no " + spec.str() +
                  " object");
    auto it = dense.emplace(static_cast<unsigned>(found), static_cast<int>(dense.size())).first;
    regions[i] = it->second;
  }
  return regions;
#endif
}

std::size_t last_level_cache_bytes() {
  static const std::size_t bytes = [] {
    std::size_t found = 0;
#ifdef MCB_HAVE_HWLOC
    try {
      Topology topo;
      // Up from the first processing unit: the largest cache above it.
      for (hwloc_obj_t o = hwloc_get_obj_by_type(topo.get(), HWLOC_OBJ_PU, 0); o; o = o->parent)
        if (hwloc_obj_type_is_cache(o->type) && o->attr && o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION)
          found = std::max(found, static_cast<std::size_t>(o->attr->cache.size));
    } catch (const Error&) {
      found = 0;
    }
#endif
    if (found == 0) {
      long b = sysconf(_SC_LEVEL3_CACHE_SIZE);
      if (b <= 0) b = sysconf(_SC_LEVEL2_CACHE_SIZE);
      found = b > 0 ? static_cast<std::size_t>(b) : 0;
    }
    return found;
  }();
  return bytes;
}

}  // namespace mcb
