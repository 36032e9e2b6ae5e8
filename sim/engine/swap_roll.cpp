#include "sim/engine/swap_roll.hpp"

#include <algorithm>

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

double swap_roll_busy_share(RollBusy& busy, const void* link, double first_s, int round_load) {
  const auto it = busy.find(link);
  if (it == busy.end()) return round_load;
  std::erase_if(it->second, [first_s](double end_s) { return end_s <= first_s; });
  return std::max(static_cast<double>(round_load), 1.0 + static_cast<double>(it->second.size()));
}

void swap_roll_hold(RollBusy& busy, const std::vector<traces::Pattern>& patterns, ExchangeNetwork& column,
                    const std::vector<double>& done_s) {
  std::unordered_map<const void*, double> until;
  for (std::size_t m = 0; m < patterns.size(); ++m)
    for (const traces::PeerMsg& msg : patterns[m]) {
      const ExchangeNetwork::Route& r = column.route(static_cast<int>(m), msg.peer);
      for (std::size_t i = 0; i < r.links.size() && i < r.node_link.size(); ++i)
        if (r.node_link[i] != 0) {
          double& end_s = until[r.links[i].first];
          end_s = std::max(end_s, done_s[m]);
        }
    }
  for (const auto& [link, end_s] : until)
    busy[link].push_back(end_s);
}

} // namespace hplsim::sim
