#pragma once
// Machine network graph: switches, NIC links and switch-to-switch links, with
// routing and the whole-machine figures (injection / bisection bandwidth,
// diameter). Built with Boost.Graph; knows nothing about SimGrid (sim/ exports
// it) or about HPL.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hplsim::topo {

enum class LinkKind {
  Nic,    // node NIC <-> its switch (every topology)
  Local,  // dragonfly: switch <-> switch inside a group
  Global, // dragonfly: switch <-> switch of another group
  Leaf,   // fat tree: leaf switch <-> spine switch (a = leaf, b = spine)
  Spine,  // fat tree: spine <-> core, for trees of three levels (unused by the two-level tree)
};
const char* to_string(LinkKind kind);

/// One full-duplex cable. `a` and `b` are vertex ids: switches are vertices
/// [0, switch_count), nodes are vertices [switch_count, switch_count + node_count).
/// A Nic link has a = switch, b = node vertex.
struct LinkInfo {
  LinkKind kind;
  int a;
  int b;
  double bandwidth_bytes_per_s; // per direction
  double latency_s;
};

/// A link traversed in one direction: forward = from `a` to `b`.
struct Hop {
  int link;
  bool forward;
  bool operator==(const Hop&) const = default;
};

enum class Routing { Minimal, Valiant, Adaptive };

struct Metrics {
  std::int64_t nodes;
  std::int64_t nics;
  std::int64_t switches;
  std::int64_t links;                     // cables, all kinds
  double injection_bandwidth_bytes_per_s; // sum of all NIC link bandwidths, one direction
  double bisection_bandwidth_bytes_per_s; // the topology's standard cut, both directions
  /// Graph diameter of the switch-to-switch graph: the largest, over all switch
  /// pairs, of the fewest switch-to-switch links joining them. Minimal routing
  /// takes at most 3 such links on a dragonfly (local, global, local) and 2 on a
  /// fat tree. It can be longer than the diameter on small dragonflies (e.g.
  /// 2 groups x 2 switches, 2 links per pair: diameter 2), because it picks the
  /// parallel global link by salt rather than by length and never detours over
  /// two global links.
  int diameter_switch_hops;
};

/// Human-readable summary: counts, bandwidths in PB/s and TB/s, diameter. Several lines.
std::string metrics_text(const Metrics& metrics);

class Topology {
public:
  virtual ~Topology() = default;
  virtual std::string describe() const = 0; // one line, for `hplsim topo`
  virtual int node_count() const = 0;
  virtual int nics_per_node() const = 0;
  virtual int switch_count() const = 0;
  virtual const std::vector<LinkInfo>& links() const = 0;
  /// Latency of one traversal of a switch (seconds), on top of the links' own latency_s.
  virtual double switch_latency_s() const = 0;
  /// The NIC link (index into links()) of NIC `nic` of node `node`.
  /// Throws std::out_of_range for a node or NIC outside the machine.
  virtual int nic_link(int node, int nic) const = 0;
  /// The switch NIC `nic` of node `node` is plugged into.
  /// Throws std::out_of_range for a node or NIC outside the machine.
  virtual int nic_switch(int node, int nic) const = 0;
  /// Appends the switch-to-switch hops from `src_switch` to `dst_switch`
  /// (nothing when equal). `salt` picks among equivalent paths (parallel global
  /// links, Valiant intermediate group) deterministically. Adaptive routing is
  /// resolved by the caller (it needs link state: sim/engine/machine_zone.cpp); here it means Minimal.
  /// O(hops): no graph search. Throws std::out_of_range for a bad switch id.
  virtual void route(int src_switch, int dst_switch, Routing routing, std::uint64_t salt,
                     std::vector<Hop>& out) const = 0;
  /// For adaptive routing: appends to `out` every minimal path from
  /// `src_switch` to `dst_switch`, one per alternative (dragonfly: one per
  /// parallel global link of the group pair; fat tree: one per spine and
  /// parallel uplink). Always appends at least one path (an empty one when the
  /// switches are equal). Same order on every call.
  virtual void minimal_candidates(int src_switch, int dst_switch,
                                  std::vector<std::vector<Hop>>& out) const = 0;
  /// For adaptive routing: appends up to `count` non-minimal (Valiant) paths
  /// with distinct intermediates picked deterministically from `salt`; fewer
  /// (possibly none) when the topology has fewer intermediates. When it appends
  /// any, the first is the path route(src, dst, Routing::Valiant, salt) gives.
  virtual void valiant_candidates(int src_switch, int dst_switch, int count, std::uint64_t salt,
                                  std::vector<std::vector<Hop>>& out) const = 0;
  virtual Metrics metrics() const = 0;
  /// Graphviz dump for debugging.
  virtual std::string to_dot() const = 0;
};

} // namespace hplsim::topo
