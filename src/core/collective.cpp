#include "mcb/collective.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>

#include "mcb/error.hpp"

namespace mcb {

std::shared_ptr<const VCounts> VCounts::packed(std::vector<int> counts) {
  auto v = std::make_shared<VCounts>();
  v->displs.resize(counts.size() + 1);
  int at = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    v->displs[r] = at;
    at += counts[r];
  }
  v->displs.back() = at;
  v->counts = std::move(counts);
  return v;
}

std::shared_ptr<const VCounts> VCounts::equal(int count, int p) {
  return packed(std::vector<int>(static_cast<std::size_t>(p), count));
}

int CollArgs::rank() const {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int CollArgs::size() const {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}

std::size_t CollArgs::type_bytes() const {
  int size = 0;
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_size(type, &size);
  MPI_Type_get_extent(type, &lb, &extent);
  if (lb != 0 || extent != size) throw Error("mcb algorithms need a contiguous datatype");
  return static_cast<std::size_t>(size);
}

bool Params::has(const std::string& name) const { return values_.count(name) != 0; }

std::string Params::get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

bool Params::is_integer(const std::string& text) {
  const std::size_t i = text.size() > 1 && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  return i < text.size() && text.size() <= 10 &&
         std::all_of(text.begin() + static_cast<long>(i), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

long Params::get_int(const std::string& name, long fallback) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return fallback;
  char* end = nullptr;
  long v = std::strtol(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0') throw Error("--" + name + " " + it->second + ": expected an integer");
  return v;
}

PlanFactory layout_free(Plan (*f)(const CollArgs&)) {
  return [f](const CollArgs& a, const Layout&, const Params&) { return f(a); };
}

Plan persistent_request_plan(const std::string& phase, const std::function<void(MPI_Request*)>& init,
                             std::shared_ptr<const void> keep) {
  auto request = std::shared_ptr<MPI_Request>(new MPI_Request(MPI_REQUEST_NULL), [](MPI_Request* r) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && *r != MPI_REQUEST_NULL) MPI_Request_free(r);
    delete r;
  });
  init(request.get());
  Plan plan;
  plan.add(phase, [request, keep] {
    MPI_Start(request.get());
    MPI_Wait(request.get(), MPI_STATUS_IGNORE);
  });
  return plan;
}

}  // namespace mcb
