#include "sim/support/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace hplsim::sim {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  // One row of the dynamic-programming table at a time.
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitution = diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_name(std::string_view typed, const std::vector<std::string>& candidates) {
  // The limit is on the name itself: a flag's leading dashes are not part of it.
  const std::size_t name_size = typed.size() - std::min(typed.find_first_not_of('-'), typed.size());
  const std::size_t limit = std::clamp<std::size_t>(name_size / 3, 1, 3);
  std::vector<std::string> best; // every candidate at the least distance
  std::size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    if (c == typed) return std::nullopt;
    const std::size_t d = edit_distance(typed, c);
    if (d < best_distance) {
      best_distance = d;
      best = {c};
    } else if (d == best_distance && !best.empty() && std::find(best.begin(), best.end(), c) == best.end()) {
      best.push_back(c);
    }
  }
  if (best.size() == 1) return best.front();
  // Equally near: the one that completes what was typed ("--node": --nodes,
  // not --mode); otherwise a guess between them would mislead.
  std::optional<std::string> completes;
  for (const std::string& c : best)
    if (c.size() > typed.size() && std::string_view(c).substr(0, typed.size()) == typed) {
      if (completes) return std::nullopt;
      completes = c;
    }
  return completes;
}

} // namespace hplsim::sim
