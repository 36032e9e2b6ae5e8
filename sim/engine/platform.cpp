#include "sim/engine/platform.hpp"

#include <stdexcept>

#include "sim/engine/machine_zone.hpp"

namespace hplsim::sim {

Platform::Platform(PlatformSpec spec) : spec_(std::move(spec)) {
  if (spec_.topology == nullptr) throw std::invalid_argument("platform: no topology");
  if (spec_.node_map.empty()) throw std::invalid_argument("platform: no nodes");
  ranks_ = static_cast<int>(spec_.node_map.size()) * spec_.ranks_per_node;
  zone_ = new MachineZone("machine", spec_); // owned by SimGrid once parented
  zone_->set_parent(nullptr);
  cpu_hosts_.reserve(ranks_);
  for (int r = 0; r < ranks_; ++r) {
    const double factor = spec_.cpu_rate_factor ? spec_.cpu_rate_factor(node_of(r)) : 1.0;
    sg4::Host* host =
        zone_->create_host("r" + std::to_string(r), speeds(kWorkUnitsPerSecond * factor, node_of(r), -2));
    host->seal();
    zone_->register_host(host, {r, -1});
    cpu_hosts_.push_back(host);
  }
  gpu_hosts_.reserve(static_cast<std::size_t>(ranks_) * spec_.gpus_per_rank);
  for (int r = 0; r < ranks_; ++r)
    for (int g = 0; g < spec_.gpus_per_rank; ++g) {
      const double factor = spec_.gpu_rate_factor ? spec_.gpu_rate_factor(r, g) : 1.0;
      const int node_gpu = (r % spec_.ranks_per_node) * spec_.gpus_per_rank + g;
      sg4::Host* host = zone_->create_host("g" + std::to_string(r) + "." + std::to_string(g),
                                           speeds(kWorkUnitsPerSecond * factor, node_of(r), node_gpu));
      host->seal();
      zone_->register_host(host, {r, g});
      gpu_hosts_.push_back(host);
    }
  zone_->create_links(ranks_);
  zone_->seal();
}

Platform::~Platform() = default;

// A degradation applies to a host when it names the host's node and either
// the whole node (gpu -1) or this host's GPU; `node_gpu` is -2 for a CPU host.
namespace {
bool applies(const DegradationEvent& d, int node, int node_gpu) {
  return d.node == node && (d.gpu == -1 || d.gpu == node_gpu);
}
} // namespace

std::vector<double> Platform::speeds(double base, int node, int node_gpu) const {
  std::vector<double> pstates = {base};
  for (const auto& d : spec_.degradations) {
    if (!applies(d, node, node_gpu)) continue;
    if (d.from_s <= 0.0)
      pstates[0] *= d.rate_factor;
    else
      pstates.push_back(pstates.back() * d.rate_factor);
  }
  return pstates;
}

void Platform::set_link_on(int topology_link, bool on) const {
  zone_->set_link_on(topology_link, on);
}

void Platform::degrade(int node, int gpu) const {
  const int first = node * spec_.ranks_per_node;
  for (int r = first; r < first + spec_.ranks_per_node; ++r) {
    if (gpu == -1 && cpu_hosts_[r]->get_pstate() + 1 < cpu_hosts_[r]->get_pstate_count())
      cpu_hosts_[r]->set_pstate(cpu_hosts_[r]->get_pstate() + 1);
    for (int g = 0; g < spec_.gpus_per_rank; ++g) {
      const int node_gpu = (r % spec_.ranks_per_node) * spec_.gpus_per_rank + g;
      sg4::Host* h = gpu_hosts_[static_cast<std::size_t>(r) * spec_.gpus_per_rank + g];
      if ((gpu == -1 || gpu == node_gpu) && h->get_pstate() + 1 < h->get_pstate_count())
        h->set_pstate(h->get_pstate() + 1);
    }
  }
}

std::vector<std::string> Platform::route_names(int from_rank, int to_rank, bool device) const {
  std::vector<sg4::Link*> links;
  zone_->route({from_rank, -1}, {to_rank, -1}, links, {0.0, device});
  std::vector<std::string> names;
  names.reserve(links.size());
  for (auto* l : links)
    names.push_back(l->get_name());
  return names;
}

std::size_t Platform::link_count() const {
  return zone_->link_count();
}

int Platform::nic_of(int rank, int peer) const {
  return zone_->nic_for(rank, peer);
}
void Platform::announce_flow(int from_rank, int to_rank, double bytes, bool device) const {
  zone_->announce_flow(from_rank, to_rank, bytes, device);
}
double Platform::query_route(int from_rank, int to_rank, std::vector<sg4::Link*>& links, bool device) const {
  double path_s = 0.0;
  zone_->set_querying(true, device);
  cpu(from_rank)->route_to(cpu(to_rank), links, &path_s);
  zone_->set_querying(false);
  return path_s;
}
} // namespace hplsim::sim
