#pragma once
// Fast mode's collective swap roll (traces::Exchange with a SwapRoll; docs/fast-mode.md, "12. Collective
// swap roll"): what the replay needs to price HPL_rollT's P - 1 ring steps of one row swap without sending
// them: every member's roll pattern, and how many rolls share each of the nodes' links.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/engine/exchange_network.hpp"
#include "traces/comm_pattern.hpp"
#include "traces/hpl_swap.hpp"

namespace hplsim::sim {

/// Every member's part of HPL_rollT (index = member = process row) for the
/// row swap of `ncols` local columns with this layout, the steps whose two
/// messages are both empty left out (the replay of messages sends nothing
/// for them, and both members of such a step agree it is empty).
std::vector<traces::Pattern> swap_roll_patterns(const traces::SwapLayout& layout, std::int64_t ncols);

/// GPU-aware MPI's device path as the replay charges it to a message whose
/// buffers are in GPU memory (Send.device): its sender's software time
/// before it starts, and a cap on its rate (0: none).
struct DeviceBuffers {
  double overhead_s = 0.0;
  double rate_cap_bytes_per_s = 0.0;
};

/// Prices collective swap rolls and keeps them up to date as others start.
///
/// Every step of a roll is an exchange between two ring neighbours, the
/// i-th exchange of a member with a neighbour matching the neighbour's i-th
/// with it (MPI's order between two ranks). With P even a step pairs the
/// positions at the same step; with P odd the two positions that meet across
/// the ring's end do so one step apart. The exchanges are priced in waves, an
/// exchange's wave being one more than the later wave of the two members'
/// previous exchanges (with P even, wave k + 1 is step k). An exchange ends
/// one message time after the later of the two got there, the message time being the slower direction's
/// latency on its route plus its bytes over the route's most shared link. Pairs of one step that start
/// together share the links they have in common. A node's own links (NIC, shared memory, UPI:
/// Route::node_link) are also shared with every other roll that holds them at the message's start: a roll
/// holds a node link from its first member's arrival until the last member that uses the link is done. When a
/// roll is priced, the rolls already priced that hold one of its node links beyond `now` are priced again
/// from `now` on (their steps that started before `now` stay as they were), so that two overlapping rolls
/// slow each other down whichever came first; their members' completion times move in place (live()). The
/// fabric's links keep the round's own load: adaptive routing spreads the rolls beyond the minimal routes a
/// route query returns (docs/fast-mode.md, "12. Collective swap roll", measures both choices).
class SwapRollPricer {
public:
  /// How many layouts' matchings a pricer keeps, the least recently used
  /// dropped: a few panels (look-ahead) where the owner columns roll, up to
  /// 12 in a fault window, whose whole process row rolls the panels of
  /// several steps in turn (aurora-hpl-sc24-flaps; keeping 4 matched most of
  /// that window's rolls afresh, docs/benchmarks.md).
  static constexpr std::size_t kLayoutsKept = 16;

  /// Times are shared with the members, who may read them again after
  /// sleeping until them (a later roll can move them on).
  using Live = std::shared_ptr<const std::vector<double>>;

  /// Prices a new roll of `ncols` columns with this layout, member m
  /// entering at arrival_s[m] (none later than `now_s`), on the routes
  /// `network.route(m, peer)`; re-prices the rolls it overlaps. Returns the
  /// members' completion times. With `device` set the rows travel from and
  /// to GPU memory: every message takes the overhead and keeps under the cap.
  Live price(const traces::SwapLayout& layout, std::int64_t ncols, const std::vector<double>& arrival_s,
             ExchangeNetwork& network, double now_s, const DeviceBuffers& device = {});

private:
  struct DenseRoute {
    double path_s = 0.0;
    bool within_node = false;
    bool repeats_link = false;                    // a link appears twice on it
    std::uint32_t first = 0, count = 0;           // into links_
    std::uint32_t node_first = 0, node_count = 0; // its node links, into node_links_
    double min_bandwidth = 0.0;                   // its slowest link's bandwidth
    // Whether it shares a link with `reverse`, the route back (cached for the last one asked).
    mutable const DenseRoute* reverse = nullptr;
    mutable bool shares_with_reverse = false;
    // A cache of the protocol terms of the last message size priced on it: a
    // member's steps toward one neighbour mostly carry equal row counts.
    mutable std::int64_t terms_bytes = -1;
    mutable double terms_latency_s = 0.0, terms_factor = 1.0;
  };
  /// The route's protocol terms for `bytes` (ExchangeNetwork::latency_s, bandwidth_factor).
  static void protocol_terms(const DenseRoute& d, std::int64_t bytes, const ExchangeNetwork& network,
                             double& latency_s, double& factor);
  struct Hold {
    std::uint64_t roll;
    double start_s, end_s;
  };
  /// What pricing a message reads of a link, apart from LinkInfo: a link is
  /// visited for every message that crosses it.
  struct LinkLoad {
    double bandwidth = 0.0;
    std::uint32_t round_stamp = 0;
    int round = 0;
    bool held = false; // a node link some roll holds (LinkInfo::holds not empty)
  };
  struct LinkInfo {
    bool known = false; // filled from the first route that crosses it
    bool node = false;
    std::uint32_t hold_stamp = 0;
    double hold_until_s = 0.0;
    std::vector<Hold> holds; // node links: the rolls that hold it
  };
  /// One exchange of the roll: member a's step with member b's (a < b).
  struct Exchange {
    int a = 0, b = 0;
    std::int64_t a_to_b_bytes = 0, b_to_a_bytes = 0;
    const DenseRoute *a_to_b = nullptr, *b_to_a = nullptr;
    // Each direction's protocol terms for its bytes (ExchangeNetwork::latency_s, bandwidth_factor).
    double a_to_b_latency_s = 0.0, b_to_a_latency_s = 0.0;
    double a_to_b_factor = 1.0, b_to_a_factor = 1.0;
  };
  struct Roll {
    traces::SwapLayout layout;
    std::int64_t ncols = 0;
    double rate_cap_bytes_per_s = 0.0; // DeviceBuffers' (0: none)
    std::vector<double> arrival_s;
    std::vector<Exchange> exchanges;              // in wave order
    std::vector<std::uint32_t> wave_begin;        // into exchanges, one past the last wave at the end
    std::vector<double> pair_start_s, pair_end_s; // per exchange, NaN: not priced yet
    std::shared_ptr<std::vector<double>> done_s;
    std::vector<const DenseRoute*> to_prev, to_next;
    std::vector<int> prev, next;
    std::vector<int> rank_of;              // per member: its rank (the noise on its cores)
    std::vector<std::uint32_t> node_links; // dense indices of the node links it holds
    double first_s = 0.0, end_s = 0.0;
  };
  /// A layout's exchanges in wave order, their bytes for one column (a
  /// roll's are `ncols` times these: HPL_rollT sends whole rows) and which
  /// neighbour each member faces (0: next, 1: prev): what match() finds,
  /// which depends on the layout alone. The columns of a process row roll
  /// the same layout (one panel's pivots), so it is matched once.
  struct Template {
    int p = 0;
    std::vector<int> ipmap;
    std::vector<std::int64_t> segment_begin;
    struct Step {
      int a = 0, b = 0;
      std::int64_t a_to_b_bytes = 0, b_to_a_bytes = 0; // for one column
      std::uint8_t a_side = 0, b_side = 0;
    };
    std::vector<Step> steps;
    std::vector<std::uint32_t> wave_begin;
  };
  const DenseRoute& dense(const ExchangeNetwork::Route& r);
  /// The layout's template, matched on first use (the latest few are kept).
  const Template& layout_template(Roll& roll);
  /// Matches the members' steps into exchanges and orders them in waves.
  void match(Roll& roll, Template& into);
  void run(std::uint64_t id, Roll& roll, const ExchangeNetwork& network, double freeze_before_s);
  /// Groups wave_.pairs by start (wave_.order, wave_.group_begin).
  void group_by_start();
  int holders_at(const LinkInfo& l, std::uint64_t self, double t_s) const;

  /// The bandwidth a message gets on a route whose links no other message of
  /// its round crosses: its slowest link's, or less on a node link other
  /// rolls hold at `start_s` (the rate run() finds with every round count 1).
  double lone_rate(const DenseRoute& d, std::uint64_t self, double start_s) const;
  /// Whether two routes have a link in common.
  bool share_a_link(const DenseRoute& a, const DenseRoute& b) const;

  std::vector<LinkInfo> info_;            // by Route::link_id
  std::vector<LinkLoad> load_;            // by Route::link_id
  std::vector<std::uint32_t> links_;      // dense routes' link indices, concatenated
  std::vector<std::uint32_t> node_links_; // dense routes' node link indices, concatenated
  std::unordered_map<const ExchangeNetwork::Route*, DenseRoute> dense_;
  std::map<std::uint64_t, Roll> rolls_; // by pricing order
  // Rolls that ended, kept with their vectors' storage for the next ones (a
  // roll of P = 162 holds ~13k exchanges: allocating them afresh for each of
  // a window's ~450 rolls faulted in new pages every time).
  std::vector<std::map<std::uint64_t, Roll>::node_type> spare_;
  std::uint64_t next_id_ = 0;
  std::uint32_t stamp_ = 0;
  traces::Pattern spread_, roll_;
  std::vector<Template> templates_;    // the latest layouts', the most recently used last
  std::vector<traces::PeerMsg> steps_; // scratch: member-major, P - 1 steps each
  struct Matched {                     // match()'s exchange with its two steps and wave
    Template::Step x;
    std::uint32_t ka = 0, kb = 0, wave = 0;
  };
  struct Pair { // run()'s exchange of the wave in progress, with its start
    double start_s;
    std::uint32_t e;
  };
  struct {
    std::vector<Pair> pairs;
    std::vector<std::uint64_t> slot_key;    // open addressing: a start's bits
    std::vector<std::int32_t> slot_group;   // its group, -1: empty
    std::vector<std::uint32_t> group_of;    // per pair
    std::vector<std::uint32_t> group_begin; // into order
    std::vector<std::uint32_t> order;       // pairs grouped
    std::vector<std::uint32_t> next;        // scratch: each group's next place in order
  } wave_;
  struct {
    std::vector<std::vector<std::uint32_t>> toward; // per (member, side): its steps
    std::vector<Matched> found;
    std::vector<std::uint32_t> id_of, cursor, last_wave;
  } scratch_;
};

} // namespace hplsim::sim
