#include "topologies/dragonfly.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

#include "topologies/group_pairs.hpp"
#include "topologies/param_check.hpp"
#include "topologies/salt_hash.hpp"

namespace hplsim::topo {

namespace {

// Instances up to this many switches get their diameter by BFS over the
// Boost graph (<= 256 searches of <= ~33k switch edges); larger ones from the
// structure (structural_diameter()), which tests check against BFS.
constexpr int bfs_diameter_max_switches = 256;

} // namespace

void DragonflyParams::check() const {
  const std::string f = "dragonfly.";
  require_at_least(f + "groups", groups, 1);
  require_at_least(f + "switches_per_group", switches_per_group, 1);
  require_at_least(f + "endpoint_ports_per_switch", endpoint_ports_per_switch, 1);
  // Kim et al. 2008: every pair of groups is joined by at least one global channel.
  require_at_least(f + "global_links_per_group_pair", global_links_per_group_pair, groups > 1 ? 1 : 0);
  require_at_least(f + "switches_per_node", switches_per_node, 1);
  require_at_most(f + "switches_per_node", switches_per_node, switches_per_group,
                  "dragonfly.switches_per_group");
  if (switches_per_group % switches_per_node != 0)
    throw std::invalid_argument("dragonfly.switches_per_group must be a multiple of "
                                "dragonfly.switches_per_node (" +
                                std::to_string(switches_per_node) + "), got " +
                                std::to_string(switches_per_group));
  require_at_least(f + "nics_per_node", nics_per_node, 1);
  if (nics_per_node % switches_per_node != 0)
    throw std::invalid_argument(
        "dragonfly.nics_per_node must be a multiple of dragonfly.switches_per_node (" +
        std::to_string(switches_per_node) + "), got " + std::to_string(nics_per_node));
  require_at_most(f + "nics_per_node", nics_per_node,
                  static_cast<std::int64_t>(switches_per_node) * endpoint_ports_per_switch,
                  "switches_per_node x endpoint_ports_per_switch: a node's NICs must fit its switches");
  require_at_least(f + "nodes", nodes, 0);
  require_positive(f + "local_link_bandwidth_bytes_per_s", local_link_bandwidth_bytes_per_s);
  require_positive(f + "global_link_bandwidth_bytes_per_s", global_link_bandwidth_bytes_per_s);
  require_positive(f + "nic_bandwidth_bytes_per_s", nic_bandwidth_bytes_per_s);
  require_non_negative(f + "link_latency_s", link_latency_s);
  require_non_negative(f + "switch_latency_s", switch_latency_s);

  // Sizes must fit the int ids of Topology (checked in double: no overflow).
  const double g = groups;
  const double a = switches_per_group;
  const double switches = g * a;
  if (switches > INT_MAX)
    throw std::invalid_argument(
        "dragonfly.groups x dragonfly.switches_per_group must be <= " + std::to_string(INT_MAX) + ", got " +
        std::to_string(groups) + " x " + std::to_string(switches_per_group));
  const std::int64_t ports =
      static_cast<std::int64_t>(groups) * switches_per_group * endpoint_ports_per_switch;
  const std::int64_t nics_wanted = static_cast<std::int64_t>(nodes) * nics_per_node;
  if (nics_wanted > ports)
    throw std::invalid_argument(
        "dragonfly.nodes x dragonfly.nics_per_node must be <= groups x switches_per_group x "
        "endpoint_ports_per_switch = " +
        std::to_string(ports) + " endpoint ports, got " + std::to_string(nodes) + " x " +
        std::to_string(nics_per_node) + " = " + std::to_string(nics_wanted));
  require_at_most(f + "nodes", nodes, groups * nodes_per_group(),
                  "whole nodes that fit: groups x nodes_per_group, each node's NICs on its block of "
                  "switches_per_node switches");
  const double nics_total =
      static_cast<double>(nodes == 0 ? groups * nodes_per_group() : nodes) * nics_per_node;
  const double links = nics_total + g * a * (a - 1) / 2 + g * (g - 1) / 2 * global_links_per_group_pair;
  if (links > INT_MAX || switches + nics_total > INT_MAX)
    throw std::invalid_argument("dragonfly: " + std::to_string(links) + " links must be <= " +
                                std::to_string(INT_MAX) + " (int link ids); reduce groups or ports");
}

std::int64_t DragonflyParams::nodes_per_group() const {
  const std::int64_t blocks = switches_per_group / switches_per_node;
  const std::int64_t nics_per_switch_per_node = nics_per_node / switches_per_node;
  return blocks * (endpoint_ports_per_switch / nics_per_switch_per_node);
}

DragonflyTopology::DragonflyTopology(const DragonflyParams& params) : p_(params) {
  p_.check();
  switches_ = p_.groups * p_.switches_per_group;
  nodes_ = p_.nodes == 0 ? static_cast<int>(p_.groups * p_.nodes_per_group()) : p_.nodes;
  build_links();
  graph_ = build_network_graph(switches_ + nodes_, links_);
  if (!is_connected(graph_))
    throw std::logic_error("dragonfly: built graph is not connected (" + describe() + ")");
  diameter_ = switches_ <= bfs_diameter_max_switches ? switch_diameter_bfs(graph_, links_, switches_)
                                                     : structural_diameter();
}

void DragonflyTopology::build_links() {
  const int a = p_.switches_per_group;
  const int g_count = p_.groups;
  const int h = p_.global_links_per_group_pair;
  local_links_per_group_ = a * (a - 1) / 2;
  local_base_ = nodes_ * p_.nics_per_node;
  global_base_ = local_base_ + g_count * local_links_per_group_;
  const std::int64_t global_count = static_cast<std::int64_t>(g_count) * (g_count - 1) / 2 * h;
  links_.reserve(static_cast<std::size_t>(global_base_ + global_count));
  for (int n = 0; n < nodes_; ++n)
    for (int i = 0; i < p_.nics_per_node; ++i)
      links_.push_back(
          {LinkKind::Nic, nic_switch(n, i), switches_ + n, p_.nic_bandwidth_bytes_per_s, p_.link_latency_s});
  for (int g = 0; g < g_count; ++g)
    for (int i = 0; i < a; ++i)
      for (int j = i + 1; j < a; ++j)
        links_.push_back(
            {LinkKind::Local, g * a + i, g * a + j, p_.local_link_bandwidth_bytes_per_s, p_.link_latency_s});
  for (int g1 = 0; g1 < g_count; ++g1)
    for (int g2 = g1 + 1; g2 < g_count; ++g2)
      for (int p = 0; p < h; ++p)
        links_.push_back({LinkKind::Global, global_link_switch(g1, g2, p), global_link_switch(g2, g1, p),
                          p_.global_link_bandwidth_bytes_per_s, p_.link_latency_s});
}

std::string DragonflyTopology::describe() const {
  return "1-D dragonfly (Kim et al. 2008): " + std::to_string(p_.groups) + " groups x " +
         std::to_string(p_.switches_per_group) + " switches, " +
         std::to_string(p_.global_links_per_group_pair) + " global links per group pair, " +
         std::to_string(nodes_) + " nodes x " + std::to_string(p_.nics_per_node) + " NICs over " +
         std::to_string(p_.switches_per_node) + " switches each";
}

int DragonflyTopology::nic_link(int node, int nic) const {
  if (node < 0 || node >= nodes_ || nic < 0 || nic >= p_.nics_per_node)
    throw std::out_of_range("dragonfly: no NIC " + std::to_string(nic) + " of node " + std::to_string(node));
  return node * p_.nics_per_node + nic;
}

int DragonflyTopology::nic_switch(int node, int nic) const {
  if (node < 0 || node >= nodes_ || nic < 0 || nic >= p_.nics_per_node)
    throw std::out_of_range("dragonfly: no NIC " + std::to_string(nic) + " of node " + std::to_string(node));
  const int spn = p_.switches_per_node;
  const int per_group = static_cast<int>(p_.nodes_per_group());
  const int per_block = p_.endpoint_ports_per_switch / (p_.nics_per_node / spn);
  const int group = node / per_group;
  const int block = (node % per_group) / per_block;
  return group * p_.switches_per_group + block * spn + nic % spn;
}

void DragonflyTopology::check_switch(int switch_id, const char* what) const {
  if (switch_id < 0 || switch_id >= switches_)
    throw std::out_of_range(std::string("dragonfly: ") + what + " switch " + std::to_string(switch_id) +
                            " outside [0, " + std::to_string(switches_) + ")");
}

int DragonflyTopology::local_link(int switch_a, int switch_b) const {
  const int a = p_.switches_per_group;
  const int g = group_of(switch_a);
  const int i = std::min(switch_a, switch_b) - g * a;
  const int j = std::max(switch_a, switch_b) - g * a;
  return local_base_ + g * local_links_per_group_ + static_cast<int>(pair_index(i, j, a));
}

int DragonflyTopology::global_link(int group_a, int group_b, int parallel) const {
  const int g1 = std::min(group_a, group_b);
  const int g2 = std::max(group_a, group_b);
  return global_base_ +
         static_cast<int>(pair_index(g1, g2, p_.groups) * p_.global_links_per_group_pair + parallel);
}

int DragonflyTopology::global_link_switch(int group, int peer, int parallel) const {
  const std::int64_t rank = peer < group ? peer : peer - 1;
  const std::int64_t end = rank * p_.global_links_per_group_pair + parallel;
  return group * p_.switches_per_group + static_cast<int>(end % p_.switches_per_group);
}

void DragonflyTopology::append_local(int from, int to, std::vector<Hop>& out) const {
  if (from == to) return;
  // a is the lower-numbered switch of a local link (build_links()).
  out.push_back({local_link(from, to), from < to});
}

int DragonflyTopology::append_to_group(int from, int to_group, int parallel, std::vector<Hop>& out) const {
  const int group = group_of(from);
  const int exit = global_link_switch(group, to_group, parallel);
  append_local(from, exit, out);
  // a is the switch of the lower-numbered group of a global link (build_links()).
  out.push_back({global_link(group, to_group, parallel), group < to_group});
  return global_link_switch(to_group, group, parallel);
}

void DragonflyTopology::append_minimal(int src, int dst, int parallel, std::vector<Hop>& out) const {
  if (src == dst) return;
  if (group_of(src) == group_of(dst)) {
    append_local(src, dst, out);
    return;
  }
  const int entry = append_to_group(src, group_of(dst), parallel, out);
  append_local(entry, dst, out);
}

void DragonflyTopology::append_valiant(int src, int dst, int intermediate_rank, SaltHash& hash,
                                       std::vector<Hop>& out) const {
  const int gs = group_of(src);
  const int gd = group_of(dst);
  if (gs == gd) {
    const int base = gs * p_.switches_per_group;
    const int middle = base + skip_two(intermediate_rank, src - base, dst - base);
    append_local(src, middle, out);
    append_local(middle, dst, out);
    return;
  }
  const int gi = skip_two(intermediate_rank, gs, gd);
  const int h = p_.global_links_per_group_pair;
  const int first = hash.pick(h);
  const int second = hash.pick(h);
  const int entry = append_to_group(src, gi, first, out);
  append_minimal(entry, dst, second, out);
}

void DragonflyTopology::route(int src_switch, int dst_switch, Routing routing, std::uint64_t salt,
                              std::vector<Hop>& out) const {
  check_switch(src_switch, "source");
  check_switch(dst_switch, "destination");
  if (src_switch == dst_switch) return;
  SaltHash hash(salt, src_switch, dst_switch);
  const bool same_group = group_of(src_switch) == group_of(dst_switch);
  if (routing == Routing::Valiant) {
    const int intermediates = same_group ? p_.switches_per_group - 2 : p_.groups - 2;
    if (intermediates > 0) {
      const int rank = hash.pick(intermediates);
      append_valiant(src_switch, dst_switch, rank, hash, out);
      return;
    }
  }
  // Minimal, Adaptive (resolved by the caller), and Valiant without an intermediate.
  const int parallel = same_group ? 0 : hash.pick(p_.global_links_per_group_pair);
  append_minimal(src_switch, dst_switch, parallel, out);
}

void DragonflyTopology::minimal_candidates(int src_switch, int dst_switch,
                                           std::vector<std::vector<Hop>>& out) const {
  check_switch(src_switch, "source");
  check_switch(dst_switch, "destination");
  const bool alternatives = group_of(src_switch) != group_of(dst_switch);
  const int count = alternatives ? p_.global_links_per_group_pair : 1;
  for (int parallel = 0; parallel < count; ++parallel) {
    out.emplace_back();
    append_minimal(src_switch, dst_switch, parallel, out.back());
  }
}

void DragonflyTopology::valiant_candidates(int src_switch, int dst_switch, int count, std::uint64_t salt,
                                           std::vector<std::vector<Hop>>& out) const {
  check_switch(src_switch, "source");
  check_switch(dst_switch, "destination");
  if (src_switch == dst_switch) return;
  const bool same_group = group_of(src_switch) == group_of(dst_switch);
  const int intermediates = same_group ? p_.switches_per_group - 2 : p_.groups - 2;
  if (intermediates <= 0) return;
  SaltHash hash(salt, src_switch, dst_switch);
  const int first_rank = hash.pick(intermediates);
  const int n = std::min(count, intermediates);
  for (int c = 0; c < n; ++c) {
    out.emplace_back();
    append_valiant(src_switch, dst_switch, (first_rank + c) % intermediates, hash, out.back());
  }
}

int DragonflyTopology::structural_diameter() const {
  const int a = p_.switches_per_group;
  const int g_count = p_.groups;
  if (switches_ == 1) return 0;
  if (g_count == 1 || a == 1) return 1; // one all-to-all group, or single-switch groups joined all-to-all
  // Every cross-group pair is within local + global + local = 3 hops (one
  // global link joins every group pair). Is every pair within 2?
  // Largest degree: a - 1 local links + ceil((G - 1) h / a) global ends.
  const std::int64_t ends = static_cast<std::int64_t>(g_count - 1) * p_.global_links_per_group_pair;
  const double degree = (a - 1) + static_cast<double>((ends + a - 1) / a);
  // Moore bound: within 2 hops a switch reaches at most 1 + d + d (d - 1) switches.
  if (1.0 + degree * degree < switches_) return 3;
  // Few, densely linked switches: count the switches within 2 hops of each,
  // neighbours listed from the arrangement (no graph).
  auto neighbours = [&](int s, std::vector<int>& out) {
    out.clear();
    const int g = group_of(s);
    const int local = s - g * a;
    for (int j = 0; j < a; ++j)
      if (j != local) out.push_back(g * a + j);
    for (std::int64_t end = local; end < ends; end += a) {
      const int rank = static_cast<int>(end / p_.global_links_per_group_pair);
      const int parallel = static_cast<int>(end % p_.global_links_per_group_pair);
      const int peer = rank < g ? rank : rank + 1;
      out.push_back(global_link_switch(peer, g, parallel));
    }
  };
  std::vector<int> stamp(static_cast<std::size_t>(switches_), -1);
  std::vector<int> first;
  std::vector<int> second;
  bool all_adjacent = true;
  for (int s = 0; s < switches_; ++s) {
    int reached = 0;
    auto mark = [&](int v) {
      if (stamp[static_cast<std::size_t>(v)] != s) {
        stamp[static_cast<std::size_t>(v)] = s;
        ++reached;
      }
    };
    mark(s);
    neighbours(s, first);
    for (int v : first)
      mark(v);
    if (reached < switches_) all_adjacent = false;
    for (int v : first) {
      neighbours(v, second);
      for (int w : second)
        mark(w);
    }
    if (reached < switches_) return 3;
  }
  return all_adjacent ? 1 : 2;
}

Metrics DragonflyTopology::metrics() const {
  Metrics m{};
  m.nodes = nodes_;
  m.nics = static_cast<std::int64_t>(nodes_) * p_.nics_per_node;
  m.switches = switches_;
  m.links = static_cast<std::int64_t>(links_.size());
  double injection = 0.0;
  for (int i = 0; i < local_base_; ++i) // the NIC links, one direction each
    injection += links_[static_cast<std::size_t>(i)].bandwidth_bytes_per_s;
  m.injection_bandwidth_bytes_per_s = injection;
  if (p_.groups > 1) {
    // Group-level cut as the Aurora figure counts it (Aurora paper, arXiv 2604.09517: 0.69 PB/s;
    // 83 x 83 x 2 links x 25 GB/s x 2 = 0.689 PB/s [D], docs/sources.md).
    m.bisection_bandwidth_bytes_per_s = group_cut_bandwidth_bytes_per_s(
        p_.groups, p_.global_links_per_group_pair, p_.global_link_bandwidth_bytes_per_s);
  } else if (p_.switches_per_group == 1) {
    // One switch holds every node: the cut between two halves of the nodes
    // is their NIC links (the switch's crossbar joins them).
    m.bisection_bandwidth_bytes_per_s =
        static_cast<double>(nodes_ / 2) * p_.nics_per_node * p_.nic_bandwidth_bytes_per_s * 2.0;
  } else {
    const double half = static_cast<double>(p_.switches_per_group / 2);
    const double other = p_.switches_per_group - half;
    m.bisection_bandwidth_bytes_per_s = half * other * p_.local_link_bandwidth_bytes_per_s * 2.0;
  }
  m.diameter_switch_hops = diameter_;
  return m;
}

std::string DragonflyTopology::to_dot() const {
  return network_graph_dot(graph_, links_, switches_);
}

std::unique_ptr<Topology> make_dragonfly(const DragonflyParams& params) {
  return std::make_unique<DragonflyTopology>(params);
}

} // namespace hplsim::topo
