#include "sim/engine/pivot_exchange.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Link.hpp>

#include "models/noise.hpp"
#include "models/protocol_model.hpp"
#include "sim/engine/swap_roll.hpp"
#include "traces/hpl_pfact.hpp"

namespace hplsim::sim {

std::vector<traces::Pattern> pivot_exchange_patterns(int size, int root, std::int64_t jb) {
  std::vector<traces::Pattern> patterns(static_cast<std::size_t>(std::max(size, 0)));
  for (int m = 0; m < size; ++m)
    traces::pivot_exchange_pattern(m, root, size, jb, patterns[static_cast<std::size_t>(m)]);
  return patterns;
}

PricedPatterns price_patterns(const std::vector<traces::Pattern>& patterns, ExchangeNetwork& network) {
  PricedPatterns out;
  out.members.resize(patterns.size());
  const auto direction = [&](int from, int to, std::int64_t bytes) {
    PricedPatterns::Direction d;
    if (bytes <= 0) return d;
    const ExchangeNetwork::Route& r = network.route(from, to);
    if (r.link_id.size() != r.links.size())
      throw std::logic_error("pivot exchange: a route without its link ids");
    d.route = &r;
    d.latency_s = network.latency_s(r.path_s, bytes, r.within_node);
    d.bandwidth_factor = network.bandwidth_factor(bytes, r.within_node);
    d.first = static_cast<std::uint32_t>(out.links.size());
    d.count = static_cast<std::uint32_t>(r.links.size());
    for (std::size_t i = 0; i < r.links.size(); ++i)
      out.links.emplace_back(r.link_id[i], r.links[i].second);
    return d;
  };
  for (std::size_t m = 0; m < patterns.size(); ++m) {
    const int me = static_cast<int>(m);
    auto& msgs = out.members[m];
    msgs.reserve(patterns[m].size());
    for (const traces::PeerMsg& p : patterns[m])
      msgs.push_back({p.peer, p.send_bytes, p.recv_bytes, direction(me, p.peer, p.send_bytes),
                      direction(p.peer, me, p.recv_bytes)});
  }
  return out;
}

std::vector<double> pivot_exchange_completion_s(const std::vector<traces::Pattern>& patterns,
                                                ExchangeNetwork& network,
                                                const std::vector<double>* start_s) {
  if (patterns.size() <= 1) return start_s != nullptr ? *start_s : std::vector<double>(patterns.size(), 0.0);
  return pivot_exchange_completion_s(price_patterns(patterns, network), start_s);
}

std::vector<double> pivot_exchange_completion_s(const PricedPatterns& priced,
                                                const std::vector<double>* start_s) {
  const auto& patterns = priced.members;
  const int size = static_cast<int>(patterns.size());
  std::vector<double> t = start_s != nullptr ? *start_s : std::vector<double>(patterns.size(), 0.0);
  if (size <= 1) return t;
  using Msg = PricedPatterns::Message;
  // Scratch kept between calls: a panel replays jb exchanges of the same members.
  static thread_local std::vector<std::size_t> pc;
  static thread_local std::vector<char> queued;
  pc.assign(t.size(), 0);
  queued.assign(t.size(), 0);
  const auto current = [&](int m) -> const Msg* {
    const auto& p = patterns[static_cast<std::size_t>(m)];
    const std::size_t i = pc[static_cast<std::size_t>(m)];
    return i < p.size() ? &p[i] : nullptr;
  };
  // Pairs whose two members are at their common message, earliest start
  // first; pairs that start together form a round and share links.
  struct Pair {
    double start_s;
    int a, b;
    bool operator>(const Pair& o) const { return std::tie(start_s, a, b) > std::tie(o.start_s, o.a, o.b); }
  };
  // A min-heap on (start_s, a, b), as std::priority_queue keeps it, in storage kept between calls.
  static thread_local std::vector<Pair> ready;
  ready.clear();
  const std::greater<> later;
  const auto offer = [&](int a) {
    const Msg* ma = current(a);
    if (ma == nullptr) return;
    const int b = ma->peer;
    const Msg* mb = current(b);
    if (mb == nullptr || mb->peer != a || queued[static_cast<std::size_t>(a)] ||
        queued[static_cast<std::size_t>(b)])
      return;
    queued[static_cast<std::size_t>(a)] = queued[static_cast<std::size_t>(b)] = 1;
    ready.push_back({std::max(t[static_cast<std::size_t>(a)], t[static_cast<std::size_t>(b)]), std::min(a, b),
                     std::max(a, b)});
    std::push_heap(ready.begin(), ready.end(), later);
  };
  const auto offer_pair = [&](int a) {
    offer(a);
    if (const Msg* ma = current(a)) offer(ma->peer);
  };
  for (int m = 0; m < size; ++m)
    offer(m);
  static thread_local std::vector<Pair> batch;
  // Messages of the round per link (Route::link_id), reset after each round.
  static thread_local std::vector<int> load;
  static thread_local std::vector<std::uint32_t> loaded;
  const auto* const links = priced.links.data();
  // The pair's messages as member a sees them: a -> b, then b -> a.
  const auto each_message = [&](const Pair& x, const auto& visit) {
    const Msg& m = *current(x.a);
    if (m.send_bytes > 0) visit(m.send, m.send_bytes);
    if (m.recv_bytes > 0) visit(m.recv, m.recv_bytes);
  };
  while (!ready.empty()) {
    batch.clear();
    const double first_s = ready.front().start_s;
    while (!ready.empty() && ready.front().start_s <= first_s) {
      std::pop_heap(ready.begin(), ready.end(), later);
      batch.push_back(ready.back());
      ready.pop_back();
      queued[static_cast<std::size_t>(batch.back().a)] = queued[static_cast<std::size_t>(batch.back().b)] = 0;
    }
    for (const std::uint32_t id : loaded)
      load[id] = 0;
    loaded.clear();
    for (const Pair& x : batch)
      each_message(x, [&](const PricedPatterns::Direction& d, std::int64_t) {
        for (std::uint32_t i = d.first; i < d.first + d.count; ++i) {
          const std::uint32_t id = links[i].first;
          if (id >= load.size()) load.resize(id + 1, 0);
          if (load[id]++ == 0) loaded.push_back(id);
        }
      });
    for (const Pair& x : batch) {
      double seconds = 0.0;
      each_message(x, [&](const PricedPatterns::Direction& d, std::int64_t bytes) {
        double rate = std::numeric_limits<double>::infinity();
        for (std::uint32_t i = d.first; i < d.first + d.count; ++i)
          rate = std::min(rate, links[i].second / load[links[i].first]);
        rate *= d.bandwidth_factor;
        const double transfer_s = std::isfinite(rate) && rate > 0.0 ? static_cast<double>(bytes) / rate : 0.0;
        seconds = std::max(seconds, d.latency_s + transfer_s);
      });
      t[static_cast<std::size_t>(x.a)] = t[static_cast<std::size_t>(x.b)] = x.start_s + seconds;
      ++pc[static_cast<std::size_t>(x.a)];
      ++pc[static_cast<std::size_t>(x.b)];
    }
    for (const Pair& x : batch) {
      offer_pair(x.a);
      offer_pair(x.b);
    }
  }
  for (int m = 0; m < size; ++m)
    if (current(m) != nullptr)
      throw std::logic_error("pivot exchange: member " + std::to_string(m) + " of " + std::to_string(size) +
                             " is left waiting for member " + std::to_string(current(m)->peer));
  return t;
}

// The replay's machine: routes between the members' hosts, the protocol
// model's corrections as install_protocol (sim/engine/engine_setup.cpp) applies them.
class PivotExchanges::Network final : public ExchangeNetwork {
public:
  Network(PivotExchanges& owner, int base, int stride, bool device = false)
      : owner_(owner), base_(base), stride_(stride), device_(device) {}
  const Route& route(int from, int to) override {
    if (members_ == nullptr) {
      // Bases and strides are ranks (below 2^31): bit 63 tells a device column from a host one.
      const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(base_)) << 32) |
                                static_cast<std::uint32_t>(stride_) | (device_ ? std::uint64_t{1} << 63 : 0);
      members_ = &owner_.column_routes_[key];
    }
    const auto f = static_cast<std::size_t>(from);
    if (f >= members_->size()) members_->resize(f + 1);
    auto& known = (*members_)[f];
    for (const auto& [peer, r] : known)
      if (peer == to) return *r;
    const Route& r = owner_.rank_route(base_ + from * stride_, base_ + to * stride_, device_);
    known.emplace_back(to, &r);
    return r;
  }
  double latency_s(double path_s, std::int64_t bytes, bool within_node) const override {
    const models::ProtocolModel* pm = owner_.protocol_;
    return pm == nullptr || (within_node && !pm->prices_intra_node())
               ? path_s
               : pm->message_latency_s(path_s, static_cast<double>(bytes));
  }
  double bandwidth_factor(std::int64_t bytes, bool within_node) const override {
    const models::ProtocolModel* pm = owner_.protocol_;
    return pm == nullptr || (within_node && !pm->prices_intra_node())
               ? 1.0
               : pm->bandwidth_factor(static_cast<double>(bytes));
  }
  bool noisy() const override { return owner_.noise_ != nullptr; }
  int rank_of(int member) const override { return base_ + member * stride_; }
  double rank_noise_delay_s(int rank, int threads, double start_s, double work_s) const override {
    return owner_.noise_ == nullptr ? 0.0 : owner_.noise_->rank_delay_s(rank, threads, start_s, work_s);
  }
  double message_cpu_s(std::int64_t send_bytes, std::int64_t recv_bytes) const override {
    return owner_.message_cpu_s(send_bytes, recv_bytes);
  }

private:
  PivotExchanges& owner_;
  int base_, stride_;
  bool device_;                                     // the members' buffers are in GPU memory
  PivotExchanges::MemberRoutes* members_ = nullptr; // this column's in column_routes_, once asked
};

// Folded-away members (NaN) are taken to arrive with the first active one:
// phantoms are "as ready" as their active peers.
static void arrive_with_the_first(std::vector<double>& arrival_s) {
  double first_s = std::numeric_limits<double>::infinity();
  for (const double a : arrival_s)
    if (!std::isnan(a)) first_s = std::min(first_s, a);
  for (double& a : arrival_s)
    if (std::isnan(a)) a = first_s;
}

PivotExchanges::LinkSeen& PivotExchanges::LinkTable::find(const void* link, bool& added) {
  // Open addressing, linear probing, at most half full: a lookup reads one
  // slot or a few neighbours, where std::unordered_map read a bucket and a node.
  if (2 * (count_ + 1) > slots_.size()) {
    std::vector<Slot> old(std::max<std::size_t>(1024, 2 * slots_.size()));
    old.swap(slots_);
    for (const Slot& o : old)
      if (o.link != nullptr) slot_of(o.link) = o;
  }
  Slot& slot = slot_of(link);
  added = slot.link == nullptr;
  if (added) {
    slot.link = link;
    ++count_;
  }
  return slot.seen;
}

PivotExchanges::LinkTable::Slot& PivotExchanges::LinkTable::slot_of(const void* link) {
  const std::size_t mask = slots_.size() - 1;
  // Fibonacci hashing of the address (its low bits are alignment).
  std::size_t i =
      static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(link) * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
  while (slots_[i].link != nullptr && slots_[i].link != link)
    i = (i + 1) & mask;
  return slots_[i];
}

const ExchangeNetwork::Route& PivotExchanges::rank_route(int a, int b, bool device) {
  // Ranks are below 2^31: bit 63 tells a device route from a host one.
  const std::uint64_t key = (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b) |
                            (device ? std::uint64_t{1} << 63 : 0);
  const auto [it, added] = routes_.try_emplace(key);
  if (!added) return it->second;
  try {
    std::vector<sg4::Link*> links;
    ExchangeNetwork::Route& r = it->second;
    r.path_s = platform_.query_route(a, b, links, device);
    r.within_node = platform_.node_of(a) == platform_.node_of(b);
    for (sg4::Link* l : links) {
      r.links.emplace_back(l, l->get_bandwidth());
      bool first_seen = false;
      LinkSeen& seen = link_ids_.find(l, first_seen);
      if (first_seen) {
        seen.id = link_ids_.size() - 1;
        // The fabric's links are named after their topology kind (MachineZone::create_links).
        const std::string_view name = l->get_cname();
        const bool fabric = name.starts_with("local") || name.starts_with("global") ||
                            name.starts_with("leaf") || name.starts_with("spine");
        seen.node_link = fabric ? 0 : 1;
      }
      r.node_link.push_back(seen.node_link);
      r.link_id.push_back(seen.id);
    }
    return r;
  } catch (...) {
    routes_.erase(it);
    throw;
  }
}

std::vector<double> PivotExchanges::replay_roll(const traces::Exchange& x, std::vector<double>& arrival_s) {
  arrive_with_the_first(arrival_s);
  const traces::SwapRoll& s = x.roll();
  const auto key = std::make_tuple(s.row_begin(), x.jb(), x.root_member());
  auto it = roll_layouts_.find(key);
  if (it == roll_layouts_.end()) {
    // As many of the latest as the pricer keeps matched.
    if (roll_layouts_.size() >= SwapRollPricer::kLayoutsKept) roll_layouts_.erase(roll_layouts_.begin());
    it = roll_layouts_
             .emplace(key, traces::make_swap_layout(s.row_begin(), s.n(), s.nb(), x.jb(), x.size(),
                                                    x.root_member()))
             .first;
  }
  Network column(*this, x.base(), x.stride(), s.device());
  last_roll_ = roll_pricer_.price(it->second, s.ncols(), arrival_s, column, sg4::Engine::get_clock(),
                                  s.device() ? device_ : DeviceBuffers{});
  return *last_roll_;
}

double PivotExchanges::roll_done_s(int rank) const {
  const auto it = rolls_of_.find(rank);
  if (it == rolls_of_.end())
    throw std::logic_error("swap roll: rank " + std::to_string(rank) + " has no roll");
  return (*it->second.first)[static_cast<std::size_t>(it->second.second)];
}

PivotExchanges::PivotExchanges(const Platform& platform, const models::ProtocolModel* protocol,
                               const std::vector<bool>* active_ranks, const models::NoiseModel* noise,
                               const DeviceBuffers& device)
    : platform_(platform), protocol_(protocol), active_(active_ranks), noise_(noise), device_(device) {}

double PivotExchanges::message_cpu_s(std::int64_t send_bytes, std::int64_t recv_bytes) const {
  if (protocol_ == nullptr) return 0.0;
  return (send_bytes > 0 ? protocol_->send_overhead_s(static_cast<double>(send_bytes)) : 0.0) +
         (recv_bytes > 0 ? protocol_->recv_overhead_s(static_cast<double>(recv_bytes)) : 0.0);
}

// Under noise, a member enters the exchange once its CPU work before it
// (`work_s` on its `threads` panel cores, from t) and its messages' overheads
// on its main core are done, each stretched by the detours of those cores;
// the overheads' own time stays in the message times. A folded-away member
// (NaN) works as the earliest active member does, from when it does, on its
// own cores.
void PivotExchanges::noisy_entries(const traces::Exchange& x, std::vector<double>& enter,
                                   const std::vector<double>& from_s, const std::vector<double>& work_s,
                                   int threads) {
  if (noise_ == nullptr) return;
  std::size_t first = enter.size();
  for (std::size_t m = 0; m < enter.size(); ++m)
    if (!std::isnan(enter[m]) && (first == enter.size() || from_s[m] < from_s[first])) first = m;
  if (first == enter.size()) return;
  const Network column(*this, x.base(), x.stride());
  for (std::size_t m = 0; m < enter.size(); ++m) {
    const bool phantom = std::isnan(enter[m]);
    const double from = phantom ? from_s[first] : from_s[m];
    const double work = phantom ? work_s[first] : work_s[m];
    const int member = static_cast<int>(m);
    const int rank = column.rank_of(member);
    double t = from + work + (work > 0.0 ? noise_->rank_delay_s(rank, threads, from, work) : 0.0);
    // The overheads on the main core; with none, a detour in progress there still holds the member.
    const double o = m < member_cpu_s_.size() ? member_cpu_s_[m] : 0.0;
    t += noise_->rank_delay_s(rank, 1, t, o);
    enter[m] = t;
  }
}

void PivotExchanges::use_patterns(const traces::Exchange& x) {
  const auto key = std::make_tuple(x.size(), x.root_member(), x.jb());
  if (key != patterns_key_) {
    patterns_ = pivot_exchange_patterns(x.size(), x.root_member(), x.jb());
    patterns_key_ = key;
    member_cpu_s_.assign(patterns_.size(), 0.0);
    for (std::size_t m = 0; m < patterns_.size(); ++m)
      for (const traces::PeerMsg& msg : patterns_[m])
        member_cpu_s_[m] += message_cpu_s(msg.send_bytes, msg.recv_bytes);
  }
}

std::vector<double> PivotExchanges::replay(const traces::Exchange& x, std::vector<double>& arrival_s,
                                           bool entries_noisy) {
  use_patterns(x);
  if (!entries_noisy && noise_ != nullptr) {
    const std::vector<double> from = arrival_s;
    noisy_entries(x, arrival_s, from, std::vector<double>(from.size(), 0.0), 1);
  }
  arrive_with_the_first(arrival_s);
  const auto column = std::make_tuple(x.base(), x.stride(), patterns_key_);
  auto it = std::find_if(priced_.begin(), priced_.end(), [&](const auto& p) { return p.first == column; });
  if (it == priced_.end()) {
    // One entry per panel (its owner column and diagonal row), reused by the panel's jb exchanges;
    // look-ahead keeps two panels in flight, so a few entries would do: 16 bound the memory.
    constexpr std::size_t kKept = 16;
    if (priced_.size() >= kKept) priced_.erase(priced_.begin());
    Network network(*this, x.base(), x.stride());
    priced_.emplace_back(column, price_patterns(patterns_, network));
    it = priced_.end() - 1;
  }
  return pivot_exchange_completion_s(it->second, &arrival_s);
}

// A collective (Exchange.collective_from_column): completes for every member
// when its last member is done.
static void complete_together(std::vector<double>& done_s) {
  double last_s = -std::numeric_limits<double>::infinity();
  for (const double d : done_s)
    last_s = std::max(last_s, d);
  for (double& d : done_s)
    d = last_s;
}

std::vector<double> PivotExchanges::replay_panel(const traces::Exchange& x,
                                                 const std::vector<double>& arrival_s,
                                                 const std::vector<PanelPart>& parts) {
  const std::size_t size = arrival_s.size();
  const std::size_t exchanges = static_cast<std::size_t>(x.jb());
  std::vector<double> t = arrival_s; // NaN for folded-away members
  std::vector<double> enter(size);
  bool cpu = false;
  for (std::size_t m = 0; m < size; ++m)
    if (!std::isnan(t[m])) {
      const PanelPart& p = parts[m];
      if (p.before_s.size() != exchanges + 1 || (!p.beside_s.empty() && p.beside_s.size() != exchanges))
        throw std::logic_error("panel collective: member " + std::to_string(m) + " has " +
                               std::to_string(p.before_s.size()) + " segments for " +
                               std::to_string(exchanges) + " exchanges");
      cpu = cpu || p.cpu();
    }
  // The replay makes one only for an active noise, which stretches CPU work alone.
  const bool noisy = noise_ != nullptr && cpu;
  std::vector<double> work(noisy ? size : 0);
  if (noisy) use_patterns(x);
  for (std::size_t j = 0; j < exchanges; ++j) {
    for (std::size_t m = 0; m < size; ++m)
      enter[m] = std::isnan(t[m]) ? t[m] : t[m] + parts[m].before_s[j];
    if (noisy) {
      for (std::size_t m = 0; m < size; ++m)
        work[m] = std::isnan(t[m]) ? 0.0 : parts[m].before_s[j];
      noisy_entries(x, enter, t, work, noise_->layout().threads_per_rank);
    }
    std::vector<double> done = replay(x, enter, noisy); // fills the phantoms' NaN in `enter`
    if (x.has_collective_from_column() && static_cast<std::int64_t>(j) >= x.collective_from_column())
      complete_together(done);
    for (std::size_t m = 0; m < size; ++m)
      if (!std::isnan(t[m])) {
        const PanelPart& p = parts[m];
        t[m] = done[m] + p.after_exchange_s;
        if (!p.beside_s.empty()) t[m] = std::max(t[m], enter[m] + p.beside_s[j]);
      }
  }
  const Network column(*this, x.base(), x.stride());
  for (std::size_t m = 0; m < size; ++m)
    if (!std::isnan(t[m])) {
      const double work_s = parts[m].before_s[exchanges];
      t[m] += work_s + (noisy && work_s > 0.0
                            ? noise_->rank_delay_s(column.rank_of(static_cast<int>(m)),
                                                   noise_->layout().threads_per_rank, t[m], work_s)
                            : 0.0);
    }
  return t;
}

int PivotExchanges::active_members(const traces::Exchange& x) {
  if (active_ == nullptr) return x.size();
  const auto key = std::make_pair(x.base(), x.stride());
  auto it = active_count_.find(key);
  if (it != active_count_.end()) return it->second;
  int n = 0;
  for (int m = 0; m < x.size(); ++m)
    n += (*active_)[static_cast<std::size_t>(x.base() + m * x.stride())] ? 1 : 0;
  return active_count_.emplace(key, n).first->second;
}

double PivotExchanges::meet(int rank, const traces::Exchange& x, std::size_t pos, int seq,
                            const PanelPart* part) {
  const int member = traces::Communicator{x.base(), x.stride(), x.size()}.member_of(rank);
  if (member < 0)
    throw std::runtime_error("schedule: rank " + std::to_string(rank) + " is not a member of its exchange");
  const double now = sg4::Engine::get_clock();
  const int expected = active_members(x);
  const bool panel = x.has_panel();
  if (panel && part == nullptr)
    throw std::logic_error("panel collective: rank " + std::to_string(rank) + " brought no part");
  const auto complete = [&](std::vector<double>& arrival, const std::vector<PanelPart>& parts) {
    if (panel) return replay_panel(x, arrival, parts);
    if (x.has_roll()) return replay_roll(x, arrival);
    std::vector<double> done = replay(x, arrival);
    if (x.has_collective_from_column() && x.collective_from_column() <= 0) complete_together(done);
    return done;
  };
  if (expected <= 1) {
    std::vector<double> arrival(static_cast<std::size_t>(x.size()), std::nan(""));
    arrival[static_cast<std::size_t>(member)] = now;
    std::vector<PanelPart> alone(panel ? arrival.size() : 0);
    if (panel) alone[static_cast<std::size_t>(member)] = *part;
    const double done_s = complete(arrival, alone)[static_cast<std::size_t>(member)];
    if (x.has_roll()) rolls_of_[rank] = {last_roll_, member};
    return done_s;
  }
  const auto key = std::make_tuple(x.base(), x.stride(), pos, seq);
  auto it = meetings_.find(key);
  if (it == meetings_.end()) {
    auto m = std::make_shared<Meeting>();
    m->barrier = sg4::Barrier::create(static_cast<unsigned>(expected));
    m->arrival_s.assign(static_cast<std::size_t>(x.size()), std::nan(""));
    if (panel) m->parts.resize(static_cast<std::size_t>(x.size()));
    it = meetings_.emplace(key, std::move(m)).first;
  }
  const std::shared_ptr<Meeting> meeting = it->second;
  meeting->arrival_s[static_cast<std::size_t>(member)] = now;
  if (panel) meeting->parts[static_cast<std::size_t>(member)] = *part;
  if (++meeting->arrived == expected) {
    meeting->done_s = complete(meeting->arrival_s, meeting->parts);
    if (x.has_roll()) meeting->roll = last_roll_;
    meetings_.erase(it);
  }
  meeting->barrier->wait();
  if (x.has_roll()) rolls_of_[rank] = {meeting->roll, member};
  return meeting->done_s[static_cast<std::size_t>(member)];
}

} // namespace hplsim::sim
