#include "sim/engine/swap_roll.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

namespace hplsim::sim {

std::vector<traces::Pattern> swap_roll_patterns(const traces::SwapLayout& layout, std::int64_t ncols) {
  std::vector<traces::Pattern> patterns(static_cast<std::size_t>(layout.p));
  traces::Pattern spread, roll;
  for (int row = 0; row < layout.p; ++row) {
    spread.clear();
    roll.clear();
    traces::spread_roll_pattern(layout, row, ncols, spread, roll);
    traces::Pattern& mine = patterns[static_cast<std::size_t>(row)];
    mine.reserve(roll.size());
    for (const traces::PeerMsg& m : roll)
      if (m.send_bytes > 0 || m.recv_bytes > 0) mine.push_back(m);
  }
  return patterns;
}

const SwapRollPricer::DenseRoute& SwapRollPricer::dense(const ExchangeNetwork::Route& r) {
  auto it = dense_.find(&r);
  if (it != dense_.end()) return it->second;
  DenseRoute d;
  d.path_s = r.path_s;
  d.within_node = r.within_node;
  d.first = static_cast<std::uint32_t>(links_.size());
  if (r.link_id.size() != r.links.size()) throw std::logic_error("swap roll: a route without its link ids");
  d.node_first = static_cast<std::uint32_t>(node_links_.size());
  d.min_bandwidth = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < r.links.size(); ++i) {
    const std::uint32_t id = r.link_id[i];
    if (id >= info_.size()) {
      info_.resize(id + 1);
      load_.resize(id + 1);
    }
    LinkInfo& info = info_[id];
    if (!info.known) {
      info.known = true;
      load_[id].bandwidth = r.links[i].second;
      info.node = i < r.node_link.size() && r.node_link[i] != 0;
    }
    if (std::find(links_.begin() + d.first, links_.end(), id) != links_.end()) d.repeats_link = true;
    links_.push_back(id);
    if (info.node) node_links_.push_back(id);
    d.min_bandwidth = std::min(d.min_bandwidth, load_[id].bandwidth);
  }
  d.count = static_cast<std::uint32_t>(links_.size()) - d.first;
  d.node_count = static_cast<std::uint32_t>(node_links_.size()) - d.node_first;
  return dense_.emplace(&r, d).first->second;
}

bool SwapRollPricer::share_a_link(const DenseRoute& a, const DenseRoute& b) const {
  for (std::uint32_t i = a.first; i < a.first + a.count; ++i)
    for (std::uint32_t j = b.first; j < b.first + b.count; ++j)
      if (links_[i] == links_[j]) return true;
  return false;
}

double SwapRollPricer::lone_rate(const DenseRoute& d, std::uint64_t self, double start_s) const {
  // run()'s rule with every round count 1: min over the links of bandwidth /
  // share, share 1 or, on a held node link, 1 + its other holders (<= bandwidth).
  double rate = d.min_bandwidth;
  for (std::uint32_t j = d.node_first; j < d.node_first + d.node_count; ++j) {
    const LinkLoad& l = load_[node_links_[j]];
    if (l.held)
      rate =
          std::min(rate, l.bandwidth / std::max(1.0, 1.0 + holders_at(info_[node_links_[j]], self, start_s)));
  }
  return rate;
}

void SwapRollPricer::protocol_terms(const DenseRoute& d, std::int64_t bytes, const ExchangeNetwork& network,
                                    double& latency_s, double& factor) {
  if (bytes != d.terms_bytes) {
    d.terms_bytes = bytes;
    d.terms_latency_s = network.latency_s(d.path_s, bytes, d.within_node);
    d.terms_factor = network.bandwidth_factor(bytes, d.within_node);
  }
  latency_s = d.terms_latency_s;
  factor = d.terms_factor;
}

int SwapRollPricer::holders_at(const LinkInfo& l, std::uint64_t self, double t_s) const {
  int n = 0;
  for (const Hold& h : l.holds)
    if (h.roll != self && h.start_s <= t_s && t_s < h.end_s) ++n;
  return n;
}

const SwapRollPricer::Template& SwapRollPricer::layout_template(Roll& r) {
  const traces::SwapLayout& l = r.layout;
  for (auto it = templates_.begin(); it != templates_.end(); ++it)
    if (it->p == l.p && it->ipmap == l.ipmap && it->segment_begin == l.segment_begin) {
      std::rotate(it, it + 1, templates_.end()); // the most recently used last
      return templates_.back();
    }
  if (templates_.size() >= kLayoutsKept) templates_.erase(templates_.begin()); // the least recently used
  Template& t = templates_.emplace_back();
  t.p = l.p;
  t.ipmap = l.ipmap;
  t.segment_begin = l.segment_begin;
  match(r, t);
  return t;
}

void SwapRollPricer::match(Roll& r, Template& into) {
  const int p = r.layout.p;
  const auto pu = static_cast<std::size_t>(p), steps = pu - 1;
  steps_.resize(pu * steps);
  for (int m = 0; m < p; ++m) {
    spread_.clear();
    roll_.clear();
    traces::spread_roll_pattern(r.layout, m, 1, spread_, roll_); // one column's bytes
    if (roll_.size() != steps) throw std::logic_error("swap roll: a member without P - 1 steps");
    std::copy(roll_.begin(), roll_.end(),
              steps_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(m) * steps));
  }
  // A member's steps toward each of its two neighbours (side 0: next, 1:
  // prev; with P = 2 both are the other member, side 0).
  const auto side_of = [&](int m, int peer) {
    if (peer == r.next[static_cast<std::size_t>(m)]) return 0;
    if (peer == r.prev[static_cast<std::size_t>(m)]) return 1;
    throw std::logic_error("swap roll: a step between members that are not ring neighbours");
  };
  auto& toward = scratch_.toward;
  if (toward.size() < 2 * pu) toward.resize(2 * pu);
  for (std::size_t i = 0; i < 2 * pu; ++i)
    toward[i].clear();
  for (int m = 0; m < p; ++m)
    for (std::size_t k = 0; k < steps; ++k) {
      const int peer = steps_[static_cast<std::size_t>(m) * steps + k].peer;
      toward[2 * static_cast<std::size_t>(m) + static_cast<std::size_t>(side_of(m, peer))].push_back(
          static_cast<std::uint32_t>(k));
    }
  // The i-th step of a toward b is the i-th of b toward a.
  auto& found = scratch_.found;
  found.clear();
  constexpr auto kNone = std::numeric_limits<std::uint32_t>::max();
  auto& id_of = scratch_.id_of;
  id_of.assign(pu * steps, kNone);
  for (int a = 0; a < p; ++a)
    for (int side = 0; side < 2; ++side) {
      const auto& la = toward[2 * static_cast<std::size_t>(a) + static_cast<std::size_t>(side)];
      if (la.empty()) continue;
      const int b = side == 0 ? r.next[static_cast<std::size_t>(a)] : r.prev[static_cast<std::size_t>(a)];
      if (b <= a) continue; // matched from b's side
      const auto& lb = toward[2 * static_cast<std::size_t>(b) + static_cast<std::size_t>(side_of(b, a))];
      if (la.size() != lb.size()) throw std::logic_error("swap roll: the members of a step do not pair up");
      for (std::size_t i = 0; i < la.size(); ++i) {
        const traces::PeerMsg& ma = steps_[static_cast<std::size_t>(a) * steps + la[i]];
        const traces::PeerMsg& mb = steps_[static_cast<std::size_t>(b) * steps + lb[i]];
        if (ma.send_bytes != mb.recv_bytes || ma.recv_bytes != mb.send_bytes)
          throw std::logic_error("swap roll: the two sides of a step disagree on its bytes");
        Matched e;
        e.x = Template::Step{a,
                             b,
                             ma.send_bytes,
                             ma.recv_bytes,
                             static_cast<std::uint8_t>(side),
                             static_cast<std::uint8_t>(side_of(b, a))};
        e.ka = la[i];
        e.kb = lb[i];
        id_of[static_cast<std::size_t>(a) * steps + e.ka] =
            id_of[static_cast<std::size_t>(b) * steps + e.kb] = static_cast<std::uint32_t>(found.size());
        found.push_back(e);
      }
    }
  // Waves: an exchange can run once both members are done with their previous
  // ones (each member's steps in order, as its blocking SendRecvs are).
  auto& cursor = scratch_.cursor;
  auto& last_wave = scratch_.last_wave;
  cursor.assign(pu, 0);
  last_wave.assign(pu, 0);
  std::size_t placed = 0;
  while (placed < found.size()) {
    bool moved = false;
    for (int m = 0; m < p; ++m) {
      const auto mu = static_cast<std::size_t>(m);
      while (cursor[mu] < steps) {
        const std::uint32_t id = id_of[mu * steps + cursor[mu]];
        if (id == kNone) throw std::logic_error("swap roll: a step without its partner's");
        Matched& e = found[id];
        const auto au = static_cast<std::size_t>(e.x.a), bu = static_cast<std::size_t>(e.x.b);
        if (cursor[au] != e.ka || cursor[bu] != e.kb) break;
        e.wave = 1 + std::max(last_wave[au], last_wave[bu]);
        last_wave[au] = last_wave[bu] = e.wave;
        ++cursor[au];
        ++cursor[bu];
        ++placed;
        moved = true;
      }
    }
    if (!moved) throw std::logic_error("swap roll: the members' steps wait on each other");
  }
  // In wave order, within a wave in member order (found is in order of a; a
  // member is in one exchange of a wave at most): a counting sort.
  std::uint32_t waves = 0;
  for (const Matched& e : found)
    waves = std::max(waves, e.wave);
  into.wave_begin.assign(static_cast<std::size_t>(waves) + 1, 0);
  for (const Matched& e : found)
    ++into.wave_begin[e.wave]; // waves count from 1: slot w holds wave w's size, slot 0 none
  std::uint32_t at = 0;
  for (std::uint32_t& b : into.wave_begin) {
    const std::uint32_t n = b;
    b = at;
    at += n;
  }
  // wave_begin[w] is now where wave w starts (w >= 1), wave_begin[0] = 0.
  into.steps.resize(found.size());
  auto& next_slot = scratch_.cursor;
  next_slot.assign(into.wave_begin.begin(), into.wave_begin.end());
  for (const Matched& e : found)
    into.steps[next_slot[e.wave]++] = e.x;
  into.wave_begin.erase(into.wave_begin.begin()); // wave w (from 1) starts at wave_begin[w - 1]
  into.wave_begin.push_back(static_cast<std::uint32_t>(found.size()));
}

void SwapRollPricer::group_by_start() {
  // The pairs by their start, exactly equal starts together (a hash on the
  // start's bits; the groups in order of their first pair, the pairs of a
  // group in wave order).
  auto& w = wave_;
  const std::size_t n = w.pairs.size();
  std::size_t slots = 16;
  while (slots < 2 * n)
    slots *= 2;
  w.slot_group.assign(slots, -1);
  w.slot_key.resize(slots);
  w.group_of.resize(n);
  std::uint32_t groups = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t key = std::bit_cast<std::uint64_t>(w.pairs[i].start_s + 0.0); // -0.0 as 0.0
    std::size_t h = static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> 32) & (slots - 1);
    while (w.slot_group[h] >= 0 && w.slot_key[h] != key)
      h = (h + 1) & (slots - 1);
    if (w.slot_group[h] < 0) {
      w.slot_group[h] = static_cast<std::int32_t>(groups++);
      w.slot_key[h] = key;
    }
    w.group_of[i] = static_cast<std::uint32_t>(w.slot_group[h]);
  }
  w.group_begin.assign(groups + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
    ++w.group_begin[w.group_of[i] + 1];
  for (std::uint32_t g = 0; g < groups; ++g)
    w.group_begin[g + 1] += w.group_begin[g];
  w.order.resize(n);
  w.next.assign(w.group_begin.begin(), w.group_begin.end() - 1); // each group's next place
  for (std::size_t i = 0; i < n; ++i)
    w.order[w.next[w.group_of[i]]++] = static_cast<std::uint32_t>(i);
}

void SwapRollPricer::run(std::uint64_t id, Roll& r, const ExchangeNetwork& network, double freeze_before_s) {
  const int p = r.layout.p;
  const bool noisy = network.noisy();
  std::vector<double> t = r.arrival_s;
  auto& w = wave_;
  for (std::size_t wave = 0; wave + 1 < r.wave_begin.size(); ++wave) {
    w.pairs.clear();
    for (std::uint32_t e = r.wave_begin[wave]; e < r.wave_begin[wave + 1]; ++e) {
      const Exchange& x = r.exchanges[e];
      if (x.a_to_b_bytes <= 0 && x.b_to_a_bytes <= 0) continue; // sends nothing, waits for nobody
      const auto au = static_cast<std::size_t>(x.a), bu = static_cast<std::size_t>(x.b);
      if (r.pair_start_s[e] < freeze_before_s) { // it started before `now`: as it was
        t[au] = t[bu] = r.pair_end_s[e];
        continue;
      }
      double ta = t[au], tb = t[bu];
      if (noisy) { // each member's overheads of the step on its main core
        ta += network.rank_noise_delay_s(r.rank_of[au], 1, ta,
                                         network.message_cpu_s(x.a_to_b_bytes, x.b_to_a_bytes));
        tb += network.rank_noise_delay_s(r.rank_of[bu], 1, tb,
                                         network.message_cpu_s(x.b_to_a_bytes, x.a_to_b_bytes));
      }
      w.pairs.push_back({std::max(ta, tb), e});
    }
    if (w.pairs.empty()) continue;
    group_by_start();
    const auto each_message = [&](const Pair& x, const auto& visit) {
      const Exchange& e = r.exchanges[x.e];
      if (e.a_to_b_bytes > 0) visit(*e.a_to_b, e.a_to_b_bytes, e.a_to_b_latency_s, e.a_to_b_factor);
      if (e.b_to_a_bytes > 0) visit(*e.b_to_a, e.b_to_a_bytes, e.b_to_a_latency_s, e.b_to_a_factor);
    };
    const auto message_s = [&](double rate, std::int64_t bytes, double latency_s, double factor) {
      rate *= factor;
      if (r.rate_cap_bytes_per_s > 0.0) rate = std::min(rate, r.rate_cap_bytes_per_s);
      const double transfer_s = std::isfinite(rate) && rate > 0.0 ? static_cast<double>(bytes) / rate : 0.0;
      return latency_s + transfer_s;
    };
    const auto finish = [&](const Pair& x, double seconds) {
      const Exchange& e = r.exchanges[x.e];
      r.pair_start_s[x.e] = x.start_s;
      r.pair_end_s[x.e] = x.start_s + seconds;
      t[static_cast<std::size_t>(e.a)] = t[static_cast<std::size_t>(e.b)] = x.start_s + seconds;
    };
    // The rounds: the messages of the pairs that start together share the
    // links they have in common (the rounds are independent of each other).
    for (std::size_t g = 0; g + 1 < w.group_begin.size(); ++g) {
      const std::uint32_t g0 = w.group_begin[g], g1 = w.group_begin[g + 1];
      if (g1 == g0 + 1) { // a pair alone: a link's count is 1 unless both directions cross it
        const Pair& x = w.pairs[w.order[g0]];
        const Exchange& e = r.exchanges[x.e];
        const bool both = e.a_to_b_bytes > 0 && e.b_to_a_bytes > 0;
        bool lone = !(e.a_to_b_bytes > 0 && e.a_to_b->repeats_link) &&
                    !(e.b_to_a_bytes > 0 && e.b_to_a->repeats_link);
        if (lone && both) {
          if (e.a_to_b->reverse != e.b_to_a) {
            e.a_to_b->reverse = e.b_to_a;
            e.a_to_b->shares_with_reverse = share_a_link(*e.a_to_b, *e.b_to_a);
          }
          lone = !e.a_to_b->shares_with_reverse;
        }
        if (lone) {
          double seconds = 0.0;
          each_message(x, [&](const DenseRoute& d, std::int64_t bytes, double latency_s, double factor) {
            seconds = std::max(seconds, message_s(lone_rate(d, id, x.start_s), bytes, latency_s, factor));
          });
          finish(x, seconds);
          continue;
        }
      }
      ++stamp_;
      for (std::uint32_t i = g0; i < g1; ++i)
        each_message(w.pairs[w.order[i]], [&](const DenseRoute& d, std::int64_t, double, double) {
          for (std::uint32_t j = d.first; j < d.first + d.count; ++j) {
            LinkLoad& l = load_[links_[j]];
            if (l.round_stamp != stamp_) {
              l.round_stamp = stamp_;
              l.round = 0;
            }
            ++l.round;
          }
        });
      for (std::uint32_t i = g0; i < g1; ++i) {
        const Pair& x = w.pairs[w.order[i]];
        double seconds = 0.0;
        each_message(x, [&](const DenseRoute& d, std::int64_t bytes, double latency_s, double factor) {
          double rate = std::numeric_limits<double>::infinity();
          for (std::uint32_t j = d.first; j < d.first + d.count; ++j) {
            const LinkLoad& l = load_[links_[j]];
            double share = l.round;
            if (l.held) share = std::max(share, 1.0 + holders_at(info_[links_[j]], id, x.start_s));
            rate = std::min(rate, l.bandwidth / share);
          }
          seconds = std::max(seconds, message_s(rate, bytes, latency_s, factor));
        });
        finish(x, seconds);
      }
    }
  }
  *r.done_s = t;
  // The node links it holds, each until the last member that uses it is done.
  r.end_s = -std::numeric_limits<double>::infinity();
  for (const double d : t)
    r.end_s = std::max(r.end_s, d);
  ++stamp_;
  r.node_links.clear();
  for (int m = 0; m < p; ++m)
    for (const DenseRoute* d :
         {r.to_prev[static_cast<std::size_t>(m)], r.to_next[static_cast<std::size_t>(m)]})
      for (std::uint32_t j = d->first; j < d->first + d->count; ++j) {
        LinkInfo& l = info_[links_[j]];
        if (!l.node) continue;
        if (l.hold_stamp != stamp_) {
          l.hold_stamp = stamp_;
          l.hold_until_s = -std::numeric_limits<double>::infinity();
          r.node_links.push_back(links_[j]);
        }
        l.hold_until_s = std::max(l.hold_until_s, t[static_cast<std::size_t>(m)]);
      }
  for (const std::uint32_t i : r.node_links) {
    LinkInfo& l = info_[i];
    auto h = std::find_if(l.holds.begin(), l.holds.end(), [id](const Hold& x) { return x.roll == id; });
    if (h == l.holds.end()) {
      l.holds.push_back({id, r.first_s, l.hold_until_s});
      load_[i].held = true;
    } else
      h->end_s = l.hold_until_s;
  }
}

SwapRollPricer::Live SwapRollPricer::price(const traces::SwapLayout& layout, std::int64_t ncols,
                                           const std::vector<double>& arrival_s, ExchangeNetwork& network,
                                           double now_s, const DeviceBuffers& device) {
  // Rolls that ended by now can no longer change, nor slow anybody down from now on.
  for (auto it = rolls_.begin(); it != rolls_.end();) {
    if (it->second.end_s > now_s) {
      ++it;
      continue;
    }
    for (const std::uint32_t i : it->second.node_links)
      if (std::erase_if(info_[i].holds, [id = it->first](const Hold& h) { return h.roll == id; }) > 0)
        load_[i].held = !info_[i].holds.empty();
    const auto ended = it++;
    spare_.push_back(rolls_.extract(ended));
  }
  const std::uint64_t id = next_id_++;
  Roll* slot = nullptr;
  if (spare_.empty()) {
    slot = &rolls_[id];
  } else {
    auto node = std::move(spare_.back());
    spare_.pop_back();
    node.key() = id;
    slot = &rolls_.insert(std::move(node)).position->second;
  }
  Roll& r = *slot;
  r.layout = layout;
  r.ncols = ncols;
  r.rate_cap_bytes_per_s = device.rate_cap_bytes_per_s;
  r.arrival_s = arrival_s;
  r.done_s = std::make_shared<std::vector<double>>(arrival_s);
  const int p = layout.p;
  const auto pu = static_cast<std::size_t>(p);
  r.first_s = std::numeric_limits<double>::infinity();
  for (const double a : arrival_s)
    r.first_s = std::min(r.first_s, a);
  r.end_s = r.first_s;
  Live live = r.done_s;
  if (p <= 1) {
    spare_.push_back(rolls_.extract(id));
    return live;
  }
  r.to_prev.resize(pu);
  r.to_next.resize(pu);
  r.prev.resize(pu);
  r.next.resize(pu);
  r.rank_of.resize(pu);
  for (int m = 0; m < p; ++m) {
    const auto mu = static_cast<std::size_t>(m);
    r.rank_of[mu] = network.rank_of(m);
    const int pos = layout.ipmapm1[mu];
    r.prev[mu] = layout.ipmap[static_cast<std::size_t>((pos + p - 1) % p)];
    r.next[mu] = layout.ipmap[static_cast<std::size_t>((pos + 1) % p)];
    r.to_prev[mu] = &dense(network.route(m, r.prev[mu]));
    r.to_next[mu] = &dense(network.route(m, r.next[mu]));
  }
  if (ncols <= 0) throw std::logic_error("swap roll: a roll of no columns");
  // The template's exchanges on this roll's routes, with its columns' bytes.
  const Template& t = layout_template(r);
  r.wave_begin = t.wave_begin;
  r.exchanges.resize(t.steps.size());
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const Template::Step& s = t.steps[i];
    const auto au = static_cast<std::size_t>(s.a), bu = static_cast<std::size_t>(s.b);
    Exchange& e = r.exchanges[i];
    e = Exchange{s.a,
                 s.b,
                 s.a_to_b_bytes * ncols,
                 s.b_to_a_bytes * ncols,
                 s.a_side == 0 ? r.to_next[au] : r.to_prev[au],
                 s.b_side == 0 ? r.to_next[bu] : r.to_prev[bu]};
    if (e.a_to_b_bytes > 0) {
      protocol_terms(*e.a_to_b, e.a_to_b_bytes, network, e.a_to_b_latency_s, e.a_to_b_factor);
      e.a_to_b_latency_s += device.overhead_s;
    }
    if (e.b_to_a_bytes > 0) {
      protocol_terms(*e.b_to_a, e.b_to_a_bytes, network, e.b_to_a_latency_s, e.b_to_a_factor);
      e.b_to_a_latency_s += device.overhead_s;
    }
  }
  r.pair_start_s.assign(r.exchanges.size(), std::numeric_limits<double>::quiet_NaN());
  r.pair_end_s = r.pair_start_s;
  // NaN compares false: a new roll has no frozen step.
  run(id, r, network, -std::numeric_limits<double>::infinity());
  // The rolls it overlaps on a node link, from now on, in pricing order.
  std::vector<std::uint64_t> overlapped;
  for (const std::uint32_t i : r.node_links)
    for (const Hold& h : info_[i].holds)
      if (h.roll != id && h.end_s > now_s && h.start_s < r.end_s) overlapped.push_back(h.roll);
  std::sort(overlapped.begin(), overlapped.end());
  overlapped.erase(std::unique(overlapped.begin(), overlapped.end()), overlapped.end());
  for (const std::uint64_t other : overlapped)
    run(other, rolls_.at(other), network, now_s);
  return live;
}

} // namespace hplsim::sim
