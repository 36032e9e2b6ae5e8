#pragma once
// Test helpers: walk a route hop by hop over Topology::links().
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "topologies/topology.hpp"

namespace hplsim::topo::testing {

/// Success when `hops` leads from switch `src` to switch `dst`: each hop's link
/// is a switch-to-switch link whose tail (a if forward, else b) is the current
/// switch; the walk moves to its head and ends on `dst`.
inline ::testing::AssertionResult walks_from_to(const Topology& topology, int src, int dst,
                                                const std::vector<Hop>& hops) {
  const auto& links = topology.links();
  int at = src;
  for (std::size_t i = 0; i < hops.size(); ++i) {
    const Hop& hop = hops[i];
    if (hop.link < 0 || hop.link >= static_cast<int>(links.size()))
      return ::testing::AssertionFailure() << "hop " << i << ": link " << hop.link << " out of range";
    const LinkInfo& link = links[static_cast<std::size_t>(hop.link)];
    if (link.kind == LinkKind::Nic)
      return ::testing::AssertionFailure() << "hop " << i << ": NIC link " << hop.link;
    const int from = hop.forward ? link.a : link.b;
    const int to = hop.forward ? link.b : link.a;
    if (from != at)
      return ::testing::AssertionFailure()
             << "hop " << i << ": link " << hop.link << " leaves " << from << ", walk is at " << at;
    at = to;
  }
  if (at != dst)
    return ::testing::AssertionFailure() << "walk from " << src << " ends at " << at << ", not " << dst;
  return ::testing::AssertionSuccess();
}

inline int count_kind(const Topology& topology, const std::vector<Hop>& hops, LinkKind kind) {
  int n = 0;
  for (const Hop& hop : hops)
    if (topology.links()[static_cast<std::size_t>(hop.link)].kind == kind) ++n;
  return n;
}

/// Runs `fn`, expects std::invalid_argument whose message contains `field`.
template <class Fn>::testing::AssertionResult rejects(Fn fn, const std::string& field) {
  try {
    fn();
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find(field) == std::string::npos)
      return ::testing::AssertionFailure() << "message does not name " << field << ": " << e.what();
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "no std::invalid_argument thrown (expected one naming " << field << ")";
}

} // namespace hplsim::topo::testing
