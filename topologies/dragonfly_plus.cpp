#include "topologies/dragonfly_plus.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

#include "topologies/group_pairs.hpp"
#include "topologies/param_check.hpp"
#include "topologies/salt_hash.hpp"

namespace hplsim::topo {

namespace {

// Instances up to this many switches get their diameter by BFS over the Boost
// graph (as the dragonfly); larger ones from structural_diameter(), which tests
// check against BFS.
constexpr int bfs_diameter_max_switches = 256;

} // namespace

void DragonflyPlusParams::check() const {
  const std::string f = "dragonfly_plus.";
  require_at_least(f + "groups", groups, 1);
  require_at_least(f + "leaves_per_group", leaves_per_group, 1);
  require_at_least(f + "spines_per_group", spines_per_group, 1);
  require_at_least(f + "links_per_leaf_spine", links_per_leaf_spine, 1);
  require_at_least(f + "endpoint_ports_per_leaf", endpoint_ports_per_leaf, 1);
  // Shpiner et al. 2017, as Kim et al. 2008: every pair of groups is joined by at least one global link.
  require_at_least(f + "global_links_per_group_pair", global_links_per_group_pair, groups > 1 ? 1 : 0);
  require_at_least(f + "global_ports_per_spine", global_ports_per_spine, 0);
  // Shpiner et al. 2017: the global links of a group end on its spines; the
  // round-robin placement (header) gives the busiest spine this many.
  const std::int64_t needed = global_ports_needed();
  if (global_ports_per_spine < needed)
    throw std::invalid_argument(
        f + "global_ports_per_spine must be >= " + std::to_string(needed) +
        " (ceil((groups - 1) x global_links_per_group_pair / spines_per_group) = ceil(" +
        std::to_string(static_cast<std::int64_t>(groups - 1) * global_links_per_group_pair) + " / " +
        std::to_string(spines_per_group) + "): the busiest spine's share of its group's global links), got " +
        std::to_string(global_ports_per_spine));
  require_at_least(f + "nics_per_node", nics_per_node, 1);
  require_at_most(f + "nics_per_node", nics_per_node, endpoint_ports_per_leaf,
                  "dragonfly_plus.endpoint_ports_per_leaf: a node's NICs share one leaf");
  require_at_least(f + "nodes", nodes, 0);
  require_positive(f + "nic_bandwidth_bytes_per_s", nic_bandwidth_bytes_per_s);
  require_positive(f + "leaf_spine_link_bandwidth_bytes_per_s", leaf_spine_link_bandwidth_bytes_per_s);
  require_positive(f + "global_link_bandwidth_bytes_per_s", global_link_bandwidth_bytes_per_s);
  require_non_negative(f + "link_latency_s", link_latency_s);
  require_non_negative(f + "switch_latency_s", switch_latency_s);

  // Sizes must fit the int ids of Topology (checked in double: no overflow).
  const double g = groups;
  const double switches = g * (static_cast<double>(leaves_per_group) + spines_per_group);
  if (switches > INT_MAX)
    throw std::invalid_argument("dragonfly_plus.groups x (leaves_per_group + spines_per_group) must be <= " +
                                std::to_string(INT_MAX) + ", got " + std::to_string(switches));
  // groups x leaves_per_group <= INT_MAX now, so these products fit 64 bits.
  const std::int64_t leaves = static_cast<std::int64_t>(groups) * leaves_per_group;
  const std::int64_t ports = leaves * endpoint_ports_per_leaf;
  const std::int64_t nics_wanted = static_cast<std::int64_t>(nodes) * nics_per_node;
  if (nics_wanted > ports)
    throw std::invalid_argument("dragonfly_plus.nodes x dragonfly_plus.nics_per_node must be <= groups x "
                                "leaves_per_group x endpoint_ports_per_leaf = " +
                                std::to_string(ports) + " endpoint ports, got " + std::to_string(nodes) +
                                " x " + std::to_string(nics_per_node) + " = " + std::to_string(nics_wanted));
  const std::int64_t capacity = leaves * (endpoint_ports_per_leaf / nics_per_node);
  require_at_most(f + "nodes", nodes, capacity,
                  "whole nodes that fit: groups x leaves_per_group x floor(endpoint_ports_per_leaf / "
                  "nics_per_node)");
  const double nics_total = static_cast<double>(nodes == 0 ? capacity : nodes) * nics_per_node;
  const double links = nics_total + static_cast<double>(leaves) * spines_per_group * links_per_leaf_spine +
                       g * (g - 1) / 2 * global_links_per_group_pair;
  if (links > INT_MAX || switches + nics_total > INT_MAX)
    throw std::invalid_argument("dragonfly_plus: " + std::to_string(links) + " links must be <= " +
                                std::to_string(INT_MAX) + " (int link ids); reduce groups or ports");
}

std::int64_t DragonflyPlusParams::global_ports_needed() const {
  const std::int64_t ends = static_cast<std::int64_t>(groups - 1) * global_links_per_group_pair;
  return (ends + spines_per_group - 1) / spines_per_group;
}

DragonflyPlusTopology::DragonflyPlusTopology(const DragonflyPlusParams& params) : p_(params) {
  p_.check();
  per_group_ = p_.leaves_per_group + p_.spines_per_group;
  switches_ = p_.groups * per_group_;
  nodes_per_leaf_ = p_.endpoint_ports_per_leaf / p_.nics_per_node;
  nodes_ = p_.nodes == 0 ? p_.groups * p_.leaves_per_group * nodes_per_leaf_ : p_.nodes;
  build_links();
  graph_ = build_network_graph(switches_ + nodes_, links_);
  if (!is_connected(graph_))
    throw std::logic_error("dragonfly_plus: built graph is not connected (" + describe() + ")");
}

void DragonflyPlusTopology::build_links() {
  const int leaves = p_.leaves_per_group;
  const int spines = p_.spines_per_group;
  const int lps = p_.links_per_leaf_spine;
  const int h = p_.global_links_per_group_pair;
  leaf_base_ = nodes_ * p_.nics_per_node;
  global_base_ = leaf_base_ + p_.groups * leaves * spines * lps;
  const std::int64_t global_count = static_cast<std::int64_t>(p_.groups) * (p_.groups - 1) / 2 * h;
  links_.reserve(static_cast<std::size_t>(global_base_ + global_count));
  for (int n = 0; n < nodes_; ++n)
    for (int i = 0; i < p_.nics_per_node; ++i)
      links_.push_back(
          {LinkKind::Nic, nic_switch(n, i), switches_ + n, p_.nic_bandwidth_bytes_per_s, p_.link_latency_s});
  for (int g = 0; g < p_.groups; ++g)
    for (int l = 0; l < leaves; ++l)
      for (int j = 0; j < spines; ++j)
        for (int c = 0; c < lps; ++c)
          links_.push_back({LinkKind::Leaf, g * per_group_ + l, g * per_group_ + leaves + j,
                            p_.leaf_spine_link_bandwidth_bytes_per_s, p_.link_latency_s});
  for (int g1 = 0; g1 < p_.groups; ++g1)
    for (int g2 = g1 + 1; g2 < p_.groups; ++g2)
      for (int p = 0; p < h; ++p)
        links_.push_back({LinkKind::Global, global_link_spine(g1, g2, p), global_link_spine(g2, g1, p),
                          p_.global_link_bandwidth_bytes_per_s, p_.link_latency_s});
}

std::string DragonflyPlusTopology::describe() const {
  return "DragonFly+ (Shpiner et al. 2017): " + std::to_string(p_.groups) + " groups x (" +
         std::to_string(p_.leaves_per_group) + " leaves + " + std::to_string(p_.spines_per_group) +
         " spines), " + std::to_string(p_.links_per_leaf_spine) + " links per leaf-spine pair, " +
         std::to_string(p_.global_links_per_group_pair) + " global links per group pair, " +
         std::to_string(nodes_) + " nodes x " + std::to_string(p_.nics_per_node) + " NICs";
}

int DragonflyPlusTopology::nic_link(int node, int nic) const {
  if (node < 0 || node >= nodes_ || nic < 0 || nic >= p_.nics_per_node)
    throw std::out_of_range("dragonfly_plus: no NIC " + std::to_string(nic) + " of node " +
                            std::to_string(node));
  return node * p_.nics_per_node + nic;
}

int DragonflyPlusTopology::nic_switch(int node, int nic) const {
  if (node < 0 || node >= nodes_ || nic < 0 || nic >= p_.nics_per_node)
    throw std::out_of_range("dragonfly_plus: no NIC " + std::to_string(nic) + " of node " +
                            std::to_string(node));
  const int leaf = node / nodes_per_leaf_; // over all groups
  return (leaf / p_.leaves_per_group) * per_group_ + leaf % p_.leaves_per_group;
}

void DragonflyPlusTopology::check_switch(int switch_id, const char* what) const {
  if (switch_id < 0 || switch_id >= switches_)
    throw std::out_of_range(std::string("dragonfly_plus: ") + what + " switch " + std::to_string(switch_id) +
                            " outside [0, " + std::to_string(switches_) + ")");
}

int DragonflyPlusTopology::leaf_spine_link(int leaf, int spine, int parallel) const {
  const int g = group_of(leaf);
  const int l = leaf - g * per_group_;
  const int j = spine - g * per_group_ - p_.leaves_per_group;
  return leaf_base_ + ((g * p_.leaves_per_group + l) * p_.spines_per_group + j) * p_.links_per_leaf_spine +
         parallel;
}

int DragonflyPlusTopology::global_link(int group_a, int group_b, int parallel) const {
  const int g1 = std::min(group_a, group_b);
  const int g2 = std::max(group_a, group_b);
  return global_base_ +
         static_cast<int>(pair_index(g1, g2, p_.groups) * p_.global_links_per_group_pair + parallel);
}

int DragonflyPlusTopology::end_index(int group, int peer, int parallel) const {
  const int rank = peer < group ? peer : peer - 1;
  return rank * p_.global_links_per_group_pair + parallel;
}

int DragonflyPlusTopology::end_cable(int end) const {
  return (end / p_.spines_per_group) % p_.links_per_leaf_spine;
}

int DragonflyPlusTopology::global_link_spine(int group, int peer, int parallel) const {
  return group * per_group_ + p_.leaves_per_group + end_index(group, peer, parallel) % p_.spines_per_group;
}

void DragonflyPlusTopology::append_hop(int from, int to, int cable, std::vector<Hop>& out) const {
  const bool up = is_leaf(from);
  out.push_back({up ? leaf_spine_link(from, to, cable) : leaf_spine_link(to, from, cable), up});
}

void DragonflyPlusTopology::append_intra(int from, int to, int middle, int cable,
                                         std::vector<Hop>& out) const {
  if (from == to) return;
  if (is_leaf(from) != is_leaf(to)) {
    append_hop(from, to, cable, out);
    return;
  }
  append_hop(from, middle, cable, out);
  append_hop(middle, to, cable, out);
}

int DragonflyPlusTopology::hops_to_end(int sw, int peer, int parallel) const {
  if (is_leaf(sw)) return 1;
  return global_link_spine(group_of(sw), peer, parallel) == sw ? 0 : 2;
}

int DragonflyPlusTopology::link_hops(int src, int peer, int dst, int parallel) const {
  return hops_to_end(src, peer, parallel) + (dst < 0 ? 0 : hops_to_end(dst, group_of(src), parallel));
}

int DragonflyPlusTopology::shortest_link_count(int src, int peer, int dst) const {
  const int h = p_.global_links_per_group_pair;
  if (is_leaf(src) && (dst < 0 || is_leaf(dst))) return h; // every link takes the same hops
  int best = INT_MAX;
  int count = 0;
  for (int p = 0; p < h; ++p) {
    const int hops = link_hops(src, peer, dst, p);
    if (hops < best) {
      best = hops;
      count = 0;
    }
    if (hops == best) ++count;
  }
  return count;
}

int DragonflyPlusTopology::shortest_link(int src, int peer, int dst, int rank) const {
  if (is_leaf(src) && (dst < 0 || is_leaf(dst))) return rank;
  const int h = p_.global_links_per_group_pair;
  int best = INT_MAX;
  for (int p = 0; p < h; ++p)
    best = std::min(best, link_hops(src, peer, dst, p));
  for (int p = 0; p < h; ++p)
    if (link_hops(src, peer, dst, p) == best && rank-- == 0) return p;
  throw std::logic_error("dragonfly_plus: no shortest link of that rank");
}

int DragonflyPlusTopology::append_to_group(int src, int to_group, int parallel, std::vector<Hop>& out) const {
  const int group = group_of(src);
  const int end = end_index(group, to_group, parallel);
  const int detour_leaf = group * per_group_ + end % p_.leaves_per_group;
  append_intra(src, global_link_spine(group, to_group, parallel), detour_leaf, end_cable(end), out);
  // a is the spine of the lower-numbered group of a global link (build_links()).
  out.push_back({global_link(group, to_group, parallel), group < to_group});
  return global_link_spine(to_group, group, parallel);
}

void DragonflyPlusTopology::append_minimal_across(int src, int dst, int parallel,
                                                  std::vector<Hop>& out) const {
  const int gd = group_of(dst);
  const int entry = append_to_group(src, gd, parallel, out);
  const int end = end_index(gd, group_of(src), parallel);
  const int detour_leaf = gd * per_group_ + end % p_.leaves_per_group;
  append_intra(entry, dst, detour_leaf, end_cable(end), out);
}

void DragonflyPlusTopology::append_valiant(int src, int dst, int intermediate_rank, SaltHash& hash,
                                           std::vector<Hop>& out) const {
  const int gd = group_of(dst);
  const int gi = skip_two(intermediate_rank, group_of(src), gd);
  const int first = shortest_link(src, gi, -1, hash.pick(shortest_link_count(src, gi, -1)));
  const int entry = append_to_group(src, gi, first, out);
  const int second = shortest_link(entry, gd, dst, hash.pick(shortest_link_count(entry, gd, dst)));
  append_minimal_across(entry, dst, second, out);
}

void DragonflyPlusTopology::route(int src_switch, int dst_switch, Routing routing, std::uint64_t salt,
                                  std::vector<Hop>& out) const {
  check_switch(src_switch, "source");
  check_switch(dst_switch, "destination");
  if (src_switch == dst_switch) return;
  SaltHash hash(salt, src_switch, dst_switch);
  const int gs = group_of(src_switch);
  const int gd = group_of(dst_switch);
  if (routing == Routing::Valiant && gs != gd && p_.groups > 2) {
    const int rank = hash.pick(p_.groups - 2);
    append_valiant(src_switch, dst_switch, rank, hash, out);
    return;
  }
  // Minimal, Adaptive (resolved by the caller), and Valiant without an intermediate group.
  if (gs == gd) {
    const bool src_leaf = is_leaf(src_switch);
    const int middles = src_leaf ? p_.spines_per_group : p_.leaves_per_group;
    const int middle = gs * per_group_ + (src_leaf ? p_.leaves_per_group : 0) + hash.pick(middles);
    const int cable = hash.pick(p_.links_per_leaf_spine);
    append_intra(src_switch, dst_switch, middle, cable, out);
    return;
  }
  const int count = shortest_link_count(src_switch, gd, dst_switch);
  append_minimal_across(src_switch, dst_switch, shortest_link(src_switch, gd, dst_switch, hash.pick(count)),
                        out);
}

void DragonflyPlusTopology::minimal_candidates(int src_switch, int dst_switch,
                                               std::vector<std::vector<Hop>>& out) const {
  check_switch(src_switch, "source");
  check_switch(dst_switch, "destination");
  const int gs = group_of(src_switch);
  const int gd = group_of(dst_switch);
  if (src_switch == dst_switch) {
    out.emplace_back();
    return;
  }
  if (gs != gd) {
    const int count = shortest_link_count(src_switch, gd, dst_switch);
    for (int rank = 0; rank < count; ++rank) {
      out.emplace_back();
      append_minimal_across(src_switch, dst_switch, shortest_link(src_switch, gd, dst_switch, rank),
                            out.back());
    }
    return;
  }
  const bool src_leaf = is_leaf(src_switch);
  // Leaf <-> spine: one hop, no middle switch (one "middle" in the loop below).
  const int middles = src_leaf != is_leaf(dst_switch) ? 1
                      : src_leaf                      ? p_.spines_per_group
                                                      : p_.leaves_per_group;
  const int first_middle = gs * per_group_ + (src_leaf ? p_.leaves_per_group : 0);
  for (int m = first_middle; m < first_middle + middles; ++m)
    for (int cable = 0; cable < p_.links_per_leaf_spine; ++cable) {
      out.emplace_back();
      append_intra(src_switch, dst_switch, m, cable, out.back());
    }
}

void DragonflyPlusTopology::valiant_candidates(int src_switch, int dst_switch, int count, std::uint64_t salt,
                                               std::vector<std::vector<Hop>>& out) const {
  check_switch(src_switch, "source");
  check_switch(dst_switch, "destination");
  if (src_switch == dst_switch || group_of(src_switch) == group_of(dst_switch) || p_.groups <= 2) return;
  SaltHash hash(salt, src_switch, dst_switch);
  const int intermediates = p_.groups - 2;
  const int first_rank = hash.pick(intermediates);
  const int n = std::min(count, intermediates);
  for (int c = 0; c < n; ++c) {
    out.emplace_back();
    append_valiant(src_switch, dst_switch, (first_rank + c) % intermediates, hash, out.back());
  }
}

int DragonflyPlusTopology::structural_diameter() const {
  const int leaves = p_.leaves_per_group;
  const int spines = p_.spines_per_group;
  const int g_count = p_.groups;
  // One group: the complete bipartite leaf/spine graph of the fat tree.
  if (g_count == 1) return leaves == 1 && spines == 1 ? 1 : 2;
  // A leaf touches only its group's spines, so a path through a leaf is
  // spine -> leaf -> spine inside one group (2 hops), and a leaf is 1 hop
  // farther from a switch outside its group than the nearest spine of its
  // group. Leaf to leaf: 2 inside a group, 3 across (up, global, down).
  // Spines are numbered q = group * S + index here; global neighbours in CSR form.
  const int count = g_count * spines;
  auto spine_of = [&](int sw) { return group_of(sw) * spines + sw % per_group_ - leaves; };
  std::vector<int> first(static_cast<std::size_t>(count) + 1, 0);
  for (std::size_t i = static_cast<std::size_t>(global_base_); i < links_.size(); ++i) {
    ++first[static_cast<std::size_t>(spine_of(links_[i].a)) + 1];
    ++first[static_cast<std::size_t>(spine_of(links_[i].b)) + 1];
  }
  for (std::size_t q = 0; q < static_cast<std::size_t>(count); ++q)
    first[q + 1] += first[q];
  std::vector<int> neighbour(static_cast<std::size_t>(first.back()));
  std::vector<int> fill(first.begin(), first.end() - 1);
  for (std::size_t i = static_cast<std::size_t>(global_base_); i < links_.size(); ++i) {
    const int a = spine_of(links_[i].a);
    const int b = spine_of(links_[i].b);
    neighbour[static_cast<std::size_t>(fill[static_cast<std::size_t>(a)]++)] = b;
    neighbour[static_cast<std::size_t>(fill[static_cast<std::size_t>(b)]++)] = a;
  }
  // Dial's buckets (moves cost 1 over a global link, 2 through a leaf): the
  // first spine of a group taken out of the buckets is its nearest, so each
  // group's leaf moves are expanded once.
  std::vector<int> dist(static_cast<std::size_t>(count));
  std::vector<char> expanded(static_cast<std::size_t>(g_count));
  std::vector<int> nearest(static_cast<std::size_t>(g_count));
  std::vector<std::vector<int>> bucket;
  int diameter = 3;
  for (int source = 0; source < count; ++source) {
    std::fill(dist.begin(), dist.end(), INT_MAX);
    std::fill(expanded.begin(), expanded.end(), 0);
    bucket.clear();
    auto relax = [&](int q, int d) {
      if (d >= dist[static_cast<std::size_t>(q)]) return;
      dist[static_cast<std::size_t>(q)] = d;
      if (bucket.size() <= static_cast<std::size_t>(d)) bucket.resize(static_cast<std::size_t>(d) + 1);
      bucket[static_cast<std::size_t>(d)].push_back(q);
    };
    relax(source, 0);
    for (std::size_t d = 0; d < bucket.size(); ++d)
      for (std::size_t i = 0; i < bucket[d].size(); ++i) {
        const int q = bucket[d][i];
        if (dist[static_cast<std::size_t>(q)] != static_cast<int>(d)) continue;
        for (int k = first[static_cast<std::size_t>(q)]; k < first[static_cast<std::size_t>(q) + 1]; ++k)
          relax(neighbour[static_cast<std::size_t>(k)], static_cast<int>(d) + 1);
        const int g = q / spines;
        if (expanded[static_cast<std::size_t>(g)] != 0) continue;
        expanded[static_cast<std::size_t>(g)] = 1;
        for (int j = 0; j < spines; ++j)
          relax(g * spines + j, static_cast<int>(d) + 2);
      }
    std::fill(nearest.begin(), nearest.end(), INT_MAX);
    for (int q = 0; q < count; ++q) {
      const int d = dist[static_cast<std::size_t>(q)];
      if (d == INT_MAX) return -1;
      diameter = std::max(diameter, d);
      nearest[static_cast<std::size_t>(q / spines)] =
          std::min(nearest[static_cast<std::size_t>(q / spines)], d);
    }
    for (int d : nearest) // a leaf of that group to the source spine
      diameter = std::max(diameter, d + 1);
  }
  return diameter;
}

Metrics DragonflyPlusTopology::metrics() const {
  Metrics m{};
  m.nodes = nodes_;
  m.nics = static_cast<std::int64_t>(nodes_) * p_.nics_per_node;
  m.switches = switches_;
  m.links = static_cast<std::int64_t>(links_.size());
  double injection = 0.0;
  for (int i = 0; i < leaf_base_; ++i) // the NIC links, one direction each
    injection += links_[static_cast<std::size_t>(i)].bandwidth_bytes_per_s;
  m.injection_bandwidth_bytes_per_s = injection;
  if (p_.groups > 1) {
    // Group-level cut, as the dragonfly's (topologies/dragonfly.cpp).
    m.bisection_bandwidth_bytes_per_s = group_cut_bandwidth_bytes_per_s(
        p_.groups, p_.global_links_per_group_pair, p_.global_link_bandwidth_bytes_per_s);
  } else {
    // The fat tree's cut (topologies/fat_tree.cpp): half the leaves' uplinks.
    const double half_leaves = static_cast<double>(p_.leaves_per_group / 2);
    m.bisection_bandwidth_bytes_per_s = half_leaves * p_.spines_per_group * p_.links_per_leaf_spine *
                                        p_.leaf_spine_link_bandwidth_bytes_per_s * 2.0;
  }
  m.diameter_switch_hops = switches_ <= bfs_diameter_max_switches
                               ? switch_diameter_bfs(graph_, links_, switches_)
                               : structural_diameter();
  return m;
}

std::string DragonflyPlusTopology::to_dot() const {
  return network_graph_dot(graph_, links_, switches_);
}

std::unique_ptr<Topology> make_dragonfly_plus(const DragonflyPlusParams& params) {
  return std::make_unique<DragonflyPlusTopology>(params);
}

} // namespace hplsim::topo
