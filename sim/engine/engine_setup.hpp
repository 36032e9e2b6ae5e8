#pragma once
// The SimGrid engine as hplsim configures it: one per process (SimGrid allows
// no second), created before the platform is built.
#include <cstddef>
#include <functional>
#include <memory>

#include <simgrid/s4u.hpp>

#include "models/protocol_model.hpp"

namespace hplsim::sim {

class Platform;

/// Creates the process's SimGrid engine with hplsim's configuration (network
/// model, cross-traffic, TCP window, actor stacks; each setting's reason is at
/// its line).
std::unique_ptr<simgrid::s4u::Engine> create_engine();

/// Runs `work` on the calling actor. Returns false when SimGrid killed the
/// actor (at a deadlock it kills every actor) instead of letting the kill
/// unwind further: only for a process that ends without resuming the engine,
/// as a fast-mode window's own process does.
bool run_unless_killed(const std::function<void()>& work);

/// Lets per-flow rate caps (GPU-aware MPI's device path) bind when the replay
/// has one (device_message_rate_bytes_per_s > 0); call right after create_engine().
void allow_flow_rate_caps(double device_message_rate_bytes_per_s);

/// Installs the protocol model's latency/bandwidth corrections in SimGrid's
/// network model. `protocol` must outlive the simulation.
/// `platform` (may be null when the protocol prices intra-node messages too)
/// tells which messages stay on one node: with ProtocolParams.intra_node
/// false they keep their links' own latency and bandwidth.
void install_protocol(const models::ProtocolModel& protocol, const Platform* platform = nullptr);
/// How the network model prices a transfer of `bytes` between two hosts not
/// on one node, on a path of this latency, with the protocol installed (none:
/// the path's own): its latency, and the factor on its bandwidth. The installed
/// callbacks and the replay's private copy links (private_copy_link.hpp) both ask here.
double transfer_latency_s(double path_latency_s, double bytes);
double transfer_bandwidth_factor(double bytes);

/// Announces that a transfer of `flow_bytes` from `src` to `dst` about to
/// start stands for several concurrent messages of `message_bytes` each (a
/// node-level flow: sim/bench/osu_node_flows.hpp): the protocol model
/// installed by install_protocol prices it as one of them (its latency,
/// eager or rendezvous, its bandwidth factor) instead of as one message of
/// `flow_bytes`. The contract: start the transfer right after announcing it,
/// from the same actor, with at least 1 byte (SimGrid never starts an empty
/// host-to-host comm); another transfer with the same (src, dst, bytes) that
/// starts in between is priced as the announced messages, which is harmless
/// only when it is one of them. It relies on SimGrid 3.32 calling the
/// latency-factor callback once per started comm. With no protocol installed
/// it does nothing. Throws std::logic_error when the same flow is announced
/// with another message size while the first is still to start.
void announce_aggregate_flow(const simgrid::s4u::Host* src, const simgrid::s4u::Host* dst, double flow_bytes,
                             double message_bytes);
/// Announced flows not started yet (0 once the simulation has run: a
/// non-zero count is an announcement whose transfer never started).
std::size_t aggregate_flows_not_started();

} // namespace hplsim::sim
