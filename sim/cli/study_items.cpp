#include "sim/cli/study_items.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/distributed/world.hpp"
#include "sim/support/child_process.hpp"

namespace hplsim::sim {

std::optional<std::vector<std::string>> run_study_items(std::size_t count, int workers,
                                                        const std::function<std::string(std::size_t)>& work,
                                                        const std::function<void(std::size_t)>& done,
                                                        const std::function<double(std::size_t)>& cost) {
  const World& world = World::current();
  std::vector<std::size_t> mine;
  for (std::size_t i = 0; i < count; ++i)
    if (world.owns(i)) mine.push_back(i);
  if (cost)
    std::stable_sort(mine.begin(), mine.end(),
                     [&cost](std::size_t a, std::size_t b) { return cost(a) > cost(b); });
  std::vector<std::pair<std::size_t, std::string>> answers;
  run_in_children(
      mine.size(), workers, [&](std::size_t at) { return work(mine[at]); },
      [&](std::size_t at, const std::string& answer) {
        answers.emplace_back(mine[at], answer);
        if (done) done(mine[at]);
      });
  const std::vector<std::string> gathered = world.gather(pack_items(answers));
  if (!world.is_root()) return std::nullopt;
  std::vector<std::string> all(count);
  std::vector<bool> have(count, false);
  for (const std::string& packed : gathered)
    for (auto& [index, answer] : unpack_items(packed)) {
      if (index >= count || have[index]) throw std::runtime_error("study: an item's answer is malformed");
      all[index] = std::move(answer);
      have[index] = true;
    }
  for (const bool h : have)
    if (!h) throw std::runtime_error("study: an item's answer is missing");
  return all;
}

} // namespace hplsim::sim
