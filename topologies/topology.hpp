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

enum class LinkKind { Nic, Local, Global, Leaf, Spine };
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
  int diameter_switch_hops;               // max switch-to-switch links on a minimal route
};

class Topology {
public:
  virtual ~Topology() = default;
  virtual std::string describe() const = 0; // one line, for `hplsim topo`
  virtual int node_count() const = 0;
  virtual int nics_per_node() const = 0;
  virtual int switch_count() const = 0;
  virtual const std::vector<LinkInfo>& links() const = 0;
  /// The NIC link (index into links()) of NIC `nic` of node `node`.
  virtual int nic_link(int node, int nic) const = 0;
  /// The switch NIC `nic` of node `node` is plugged into.
  virtual int nic_switch(int node, int nic) const = 0;
  /// Appends the switch-to-switch hops from `src_switch` to `dst_switch`
  /// (nothing when equal). `salt` picks among equivalent paths (parallel global
  /// links, Valiant intermediate group) deterministically. Adaptive routing is
  /// resolved by the caller (it needs link state); here it means Minimal.
  virtual void route(int src_switch, int dst_switch, Routing routing, std::uint64_t salt,
                     std::vector<Hop>& out) const = 0;
  virtual Metrics metrics() const = 0;
  /// Graphviz dump for debugging.
  virtual std::string to_dot() const = 0;
};

} // namespace hplsim::topo
