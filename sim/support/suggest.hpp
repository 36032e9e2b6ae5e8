#pragma once
// "Did you mean ...?" for a misspelled name (a flag, a --set path, a scenario
// field): the candidate nearest to what was typed by edit distance, when it
// is near enough to be the name the user meant.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hplsim::sim {

/// Levenshtein distance between `a` and `b` (insertions, deletions and
/// substitutions each cost 1), compared case-insensitively.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate nearest to `typed` when it is within a third of the typed
/// length (at least 1, at most 3 edits); of equally near ones, the one that
/// completes what was typed, else none. No
/// suggestion for an exact match or when nothing is near.
std::optional<std::string> closest_name(std::string_view typed, const std::vector<std::string>& candidates);

} // namespace hplsim::sim
