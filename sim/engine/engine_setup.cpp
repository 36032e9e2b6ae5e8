#include "sim/engine/engine_setup.hpp"

#include "sim/engine/asan_fibers.hpp"
#include "sim/engine/platform.hpp"

#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include <xbt/log.h>

#include <simgrid/Exception.hpp>

#include <simgrid/kernel/resource/NetworkModelIntf.hpp>

namespace hplsim::sim {

namespace sg4 = simgrid::s4u;

void allow_flow_rate_caps(double device_message_rate_bytes_per_s) {
  // SimGrid bounds a flow by min(its own rate, TCP-gamma / (2 x latency)), and
  // with TCP-gamma 0 that is 0, "no bound", which drops a per-message rate cap.
  // 1e30 B is no window bound either, but SimGrid's solver with finite bounds
  // shares some flows differently (measured: the 16-node switch slice with
  // MISPLACED NICs, 2175.2 -> 2161.6 TF/s), so only runs whose device path has
  // a rate cap use it (docs/aurora.md).
  if (device_message_rate_bytes_per_s > 0.0)
    sg4::Engine::get_instance()->set_config("network/TCP-gamma:1e30");
}

namespace {
void reset_aggregate_flows();
} // namespace

bool run_unless_killed(const std::function<void()>& work) {
  try {
    work();
    return true;
  } catch (const simgrid::ForcefulKillException&) {
    return false;
  }
}

std::unique_ptr<sg4::Engine> create_engine() {
  xbt_log_control_set("root.thresh:critical");
  char arg0[] = "hplsim";
#if HPLSIM_ASAN
  // AddressSanitizer cannot follow SimGrid's raw context switches (Debian's
  // SimGrid has no ASan fiber annotations). With ucontext, every switch is a
  // swapcontext call, which sim/engine/asan_fibers.cpp annotates for ASan, so
  // an exception on an actor's stack (an abort, the kill at a deadlock) is
  // cleaned up after as on any stack. (Thread contexts would hang: fast mode
  // forks window processes from inside a simulation.) The factory is chosen
  // when the engine starts, so on its command line.
  annotate_actor_stacks_for_asan();
  char factory[] = "--cfg=contexts/factory:ucontext";
  char* argv[] = {arg0, factory, nullptr};
#else
  char* argv[] = {arg0, nullptr};
#endif
  int argc = static_cast<int>(std::size(argv)) - 1;
  auto engine = std::make_unique<sg4::Engine>(&argc, argv);
  reset_aggregate_flows();
  // CM02: plain max-min sharing with no built-in TCP factors; hplsim's protocol
  // model (models/protocol_model.hpp) supplies the per-size corrections.
  engine->set_config("network/model:CM02");
  // Cross-traffic couples every flow to its reverse path at 5% and costs ~50x
  // at scale (docs/simgrid-measurements.md, "Cross-traffic"); HPL's messages are one-way bulk transfers.
  engine->set_config("network/crosstraffic:0");
  // No TCP window bound: HPC fabrics are not TCP (docs/simgrid-measurements.md, "Network models").
  engine->set_config("network/TCP-gamma:0");
  engine->set_config("contexts/stack-size:64");
  engine->set_config("contexts/guard-size:0");
  return engine;
}

namespace {
// Node-level flows announced and not started yet, by (src, dst, flow bytes).
// Each start consumes one: the latency callback, which SimGrid 3.32 calls
// after the bandwidth one for every comm it starts
// (NetworkCm02Model::comm_action_set_bounds).
struct AggregateKey {
  const sg4::Host* src;
  const sg4::Host* dst;
  double flow_bytes;
  bool operator<(const AggregateKey& o) const {
    const std::less<const sg4::Host*> before;
    if (src != o.src) return before(src, o.src);
    if (dst != o.dst) return before(dst, o.dst);
    return flow_bytes < o.flow_bytes;
  }
};
struct Announced {
  double message_bytes = 0.0;
  int pending = 0; // announced, not started yet
};
// One engine per process (create_engine): the registry and the flag are the engine's.
std::map<AggregateKey, Announced> announced_flows;
const models::ProtocolModel* installed = nullptr; // install_protocol's

// The bytes the protocol prices a transfer of `flow_bytes` at; `starting`: it starts now.
double priced_bytes(double flow_bytes, const sg4::Host* src, const sg4::Host* dst, bool starting) {
  if (announced_flows.empty()) return flow_bytes;
  const auto it = announced_flows.find({src, dst, flow_bytes});
  if (it == announced_flows.end()) return flow_bytes;
  const double message_bytes = it->second.message_bytes;
  if (starting && --it->second.pending == 0) announced_flows.erase(it);
  return message_bytes;
}
} // namespace

void announce_aggregate_flow(const sg4::Host* src, const sg4::Host* dst, double flow_bytes,
                             double message_bytes) {
  if (installed == nullptr) return;
  auto [it, fresh] = announced_flows.try_emplace({src, dst, flow_bytes}, Announced{message_bytes, 0});
  if (!fresh && it->second.message_bytes != message_bytes)
    throw std::logic_error("node-level flow of " + std::to_string(flow_bytes) +
                           " bytes announced as messages of " + std::to_string(message_bytes) + " and of " +
                           std::to_string(it->second.message_bytes) + " bytes at once");
  ++it->second.pending;
}

namespace {
void reset_aggregate_flows() {
  announced_flows.clear();
  installed = nullptr;
}
} // namespace

double transfer_latency_s(double path_latency_s, double bytes) {
  // Effective latency L*lf(b) + o_s + o_r + rendezvous(b): the software
  // overheads and the rendezvous handshake are added to the path latency
  // (docs/departures.md: why overheads are latency, not CPU time).
  if (installed == nullptr) return path_latency_s;
  if (path_latency_s <= 0.0) return 0.0;
  return installed->message_latency_s(path_latency_s, bytes);
}

double transfer_bandwidth_factor(double bytes) {
  return installed == nullptr ? 1.0 : installed->bandwidth_factor(bytes);
}

std::size_t aggregate_flows_not_started() {
  std::size_t n = 0;
  for (const auto& [key, a] : announced_flows)
    n += static_cast<std::size_t>(a.pending);
  return n;
}

void install_protocol(const models::ProtocolModel& protocol, const Platform* platform) {
  installed = &protocol;
  auto* model = sg4::Engine::get_instance()->get_netzone_root()->get_network_model();
  const models::ProtocolModel* pm = &protocol;
  // Which node each host is on, when intra-node messages are left to their links.
  auto node_of = std::make_shared<std::unordered_map<const sg4::Host*, int>>();
  if (!protocol.prices_intra_node() && platform != nullptr)
    for (int r = 0; r < platform->ranks(); ++r)
      (*node_of)[platform->cpu(r)] = platform->node_of(r);
  const auto same_node = [node_of](const sg4::Host* a, const sg4::Host* b) {
    if (node_of->empty()) return false;
    const auto ia = node_of->find(a), ib = node_of->find(b);
    return ia != node_of->end() && ib != node_of->end() && ia->second == ib->second;
  };
  model->set_lat_factor_cb([pm, same_node](double flow_bytes, const sg4::Host* src, const sg4::Host* dst,
                                           const std::vector<sg4::Link*>& links,
                                           const std::unordered_set<sg4::NetZone*>&) {
    const double size = priced_bytes(flow_bytes, src, dst, true);
    if (same_node(src, dst)) return 1.0;
    double path_latency_s = 0.0;
    for (const auto* l : links)
      path_latency_s += l->get_latency();
    if (path_latency_s <= 0.0) return pm->latency_factor(size);
    return transfer_latency_s(path_latency_s, size) / path_latency_s;
  });
  model->set_bw_factor_cb([same_node](double flow_bytes, const sg4::Host* src, const sg4::Host* dst,
                                      const std::vector<sg4::Link*>&,
                                      const std::unordered_set<sg4::NetZone*>&) {
    return same_node(src, dst) ? 1.0 : transfer_bandwidth_factor(priced_bytes(flow_bytes, src, dst, false));
  });
}

} // namespace hplsim::sim
