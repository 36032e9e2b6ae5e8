#pragma once
// Fast mode's collective pivot exchange (traces::Exchange; docs/fast-mode.md, "collective pivot exchange"):
// when each member of a process column is done with HPL's max-loc exchange of one panel column (HPL_pdmxswp),
// from the members' arrival times, their message patterns and the time each message takes on its route.
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/engine/exchange_network.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/swap_roll.hpp"
#include "traces/comm_pattern.hpp"
#include "traces/hpl_swap.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::models {
class ProtocolModel;
class NoiseModel;
} // namespace hplsim::models

namespace hplsim::sim {

/// Every member's message pattern (traces::pivot_exchange_pattern, index =
/// member) of the pivot exchange of a column of `size` members whose diagonal
/// row is on member `root`, panel width `jb`.
std::vector<traces::Pattern> pivot_exchange_patterns(int size, int root, std::int64_t jb);

/// Completion time of every member (index = member) of an exchange of these
/// `patterns`, member m entering at (*start_s)[m] (all at 0 when null),
/// the patterns replayed as the replay runs messages:
/// a blocking send and its receive meet (rendezvous) and finish together one
/// message time after the later of the two got there; HPL_sdrv's exchange
/// (both directions at once) finishes after the slower direction. Messages
/// that start together share the links they have in common (max-min fair for
/// equal messages: each gets the link's bandwidth over their number), as the
/// binary exchange's rounds do on the fabric. Throws std::logic_error if the
/// patterns do not match up (a generator bug).
std::vector<double> pivot_exchange_completion_s(const std::vector<traces::Pattern>& patterns,
                                                ExchangeNetwork& network,
                                                const std::vector<double>* start_s = nullptr);

/// An exchange's patterns with every message's route and protocol terms
/// looked up once: a panel's jb exchanges share them. The route pointers
/// point into the ExchangeNetwork's routes and are valid as long as those
/// are (PivotExchanges keeps its routes for its whole life).
struct PricedPatterns {
  struct Direction {
    const ExchangeNetwork::Route* route = nullptr;
    double latency_s = 0.0;             ///< ExchangeNetwork::latency_s for the message's bytes
    double bandwidth_factor = 1.0;      ///< ExchangeNetwork::bandwidth_factor for them
    std::uint32_t first = 0, count = 0; ///< the route's links in `links`
  };
  /// Every priced route's links (Route::link_id, bandwidth in bytes/s), in
  /// order, contiguous: the exchanges read them for every message.
  std::vector<std::pair<std::uint32_t, double>> links;
  struct Message {
    int peer = 0;
    std::int64_t send_bytes = 0, recv_bytes = 0;
    Direction send, recv; ///< to the peer, from the peer
  };
  std::vector<std::vector<Message>> members; ///< index = member, its messages in order
};
PricedPatterns price_patterns(const std::vector<traces::Pattern>& patterns, ExchangeNetwork& network);
/// pivot_exchange_completion_s on patterns priced by price_patterns (the same times).
std::vector<double> pivot_exchange_completion_s(const PricedPatterns& priced,
                                                const std::vector<double>* start_s = nullptr);

/// A member's part of a collective panel factorization, timed from the
/// member's arrival and, after each exchange, from the point it resumes: its
/// work before each of the jb exchanges and after the last (before_s, jb + 1
/// values); for a panel on the GPU, how long the leaf kernel launched before
/// exchange j runs past the member's entry into it (beside_s, jb values; <= 0:
/// done by then) and the host-to-device flag copy after each exchange
/// (after_exchange_s). A member resumes when both are done.
struct PanelPart {
  std::vector<double> before_s;
  std::vector<double> beside_s; // empty: a CPU panel
  double after_exchange_s = 0.0;
  /// before_s is CPU work, which system noise stretches (a GPU panel has a beside_s per exchange).
  bool cpu() const { return beside_s.empty(); }
};

/// The replay's side of traces::Exchange, shared by the rank actors of one
/// replay: the column's active members meet (an s4u::Barrier), the last to
/// arrive replays the exchange from everybody's arrival time with
/// pivot_exchange_completion_s (a folded-away member is taken to arrive with
/// the first active one, as phantoms are "as ready" as their active peers),
/// priced with the members' routes (path latency scaled by the protocol model
/// as the network model scales it, plus bytes over the route's bottleneck),
/// and each member sleeps until its own completion. Flows of other ops that
/// share those links are not seen (docs/fast-mode.md, "collective pivot
/// exchange", for the measured difference).
class PivotExchanges {
public:
  /// `noise` (null: a quiet machine) stretches every member's CPU work: its
  /// panel segments on its panel cores, its messages' overheads on its main
  /// core, folded-away members' included (each on its own cores).
  /// `device`: what a message from GPU memory costs (a swap roll with
  /// SwapRoll.device set), as the replay charges it.
  PivotExchanges(const Platform& platform, const models::ProtocolModel* protocol,
                 const std::vector<bool>* active_ranks, const models::NoiseModel* noise = nullptr,
                 const DeviceBuffers& device = {});

  /// Called by `rank` (from its actor) at its `seq`-th exchange of step
  /// position `pos`; blocks until the active members have arrived and returns
  /// the (simulated) time at which this rank is done with the exchange.
  /// For a collective panel factorization (x.has_panel()), `part` is the
  /// rank's part (PanelPart): the exchanges are replayed in turn, member m
  /// entering exchange j when it has resumed after exchange j - 1 (or
  /// arrived) and done its work before exchange j; a folded-away member
  /// enters each with the first active one.
  double meet(int rank, const traces::Exchange& x, std::size_t pos, int seq, const PanelPart* part = nullptr);

  /// A swap roll's completion for `rank` as it stands now: a roll priced
  /// later that shares a node link with it may have moved it on
  /// (SwapRollPricer). The rank sleeps again until it when it has.
  double roll_done_s(int rank) const;

private:
  class Network;
  const ExchangeNetwork::Route& rank_route(int from_rank, int to_rank, bool device = false);
  std::vector<double> replay_roll(const traces::Exchange& x, std::vector<double>& arrival_s);
  int active_members(const traces::Exchange& x);
  std::vector<double> replay(const traces::Exchange& x, std::vector<double>& arrival_s,
                             bool entries_noisy = false);
  void use_patterns(const traces::Exchange& x);
  void noisy_entries(const traces::Exchange& x, std::vector<double>& enter, const std::vector<double>& from_s,
                     const std::vector<double>& work_s, int threads);
  double message_cpu_s(std::int64_t send_bytes, std::int64_t recv_bytes) const;
  std::vector<double> replay_panel(const traces::Exchange& x, const std::vector<double>& arrival_s,
                                   const std::vector<PanelPart>& parts);

  const Platform& platform_;
  const models::ProtocolModel* protocol_;
  const std::vector<bool>* active_;
  const models::NoiseModel* noise_;
  DeviceBuffers device_;
  std::vector<double> member_cpu_s_; // per member of patterns_: its messages' overheads
  std::unordered_map<std::uint64_t, ExchangeNetwork::Route> routes_; // by (from rank, to rank, device)
  // The routes a column's members asked for, per member (peer member, route
  // in routes_): a roll or a panel asks each of its members for a few peers,
  // found here without hashing the rank pair. By (base, stride, device).
  using MemberRoutes = std::vector<std::vector<std::pair<int, const ExchangeNetwork::Route*>>>;
  std::unordered_map<std::uint64_t, MemberRoutes> column_routes_;
  // Route::link_id and Route::node_link of the links seen so far, by address:
  // ids in the order the links are first seen.
  struct LinkSeen {
    std::uint32_t id = 0;
    char node_link = 0;
  };
  class LinkTable {
  public:
    /// The link's entry; `added`: it is new (its fields are to be set).
    LinkSeen& find(const void* link, bool& added);
    std::uint32_t size() const { return count_; }

  private:
    struct Slot {
      const void* link = nullptr;
      LinkSeen seen;
    };
    Slot& slot_of(const void* link);
    std::vector<Slot> slots_; // a power of two, at most half full
    std::uint32_t count_ = 0;
  };
  LinkTable link_ids_;
  std::map<std::pair<int, int>, int> active_count_;
  // The last panel's member patterns: the jb exchanges of a panel share them.
  std::tuple<int, int, std::int64_t> patterns_key_{-1, -1, -1}; // size, root, jb
  std::vector<traces::Pattern> patterns_;
  // Patterns priced on the routes of the latest columns, by (base, stride,
  // patterns_key_): the columns of a window's panels take turns.
  std::vector<std::pair<std::tuple<int, int, std::tuple<int, int, std::int64_t>>, PricedPatterns>> priced_;
  // Collective swap rolls: the swap layouts of the latest panels, by
  // (row_begin, jb, icurrow), and the node links the rolls priced so far hold.
  std::map<std::tuple<std::int64_t, std::int64_t, int>, traces::SwapLayout> roll_layouts_;
  SwapRollPricer roll_pricer_;
  SwapRollPricer::Live last_roll_;
  std::unordered_map<int, std::pair<SwapRollPricer::Live, int>>
      rolls_of_; // rank -> its latest roll, its member
  struct Meeting {
    sg4::BarrierPtr barrier;
    std::vector<double> arrival_s; // NaN until the member arrives (phantoms stay NaN)
    std::vector<PanelPart> parts;  // collective panel: per member (phantoms: empty)
    int arrived = 0;
    std::vector<double> done_s; // filled by the last to arrive
    SwapRollPricer::Live roll;  // a swap roll's live completion times
  };
  std::map<std::tuple<int, int, std::size_t, int>, std::shared_ptr<Meeting>> meetings_;
};

} // namespace hplsim::sim
