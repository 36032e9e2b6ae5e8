// The edit distance and the nearest name behind every "did you mean".
#include "sim/support/suggest.hpp"

#include <gtest/gtest.h>

namespace hplsim::sim {
namespace {

TEST(Suggest, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  // Hand-counted: kitten -> sitting is the textbook example (2 substitutions, 1 insertion).
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("trials", "trails"), 2u); // a transposition is two substitutions
  EXPECT_EQ(edit_distance("NB", "nb"), 0u);         // case-insensitive
}

TEST(Suggest, ClosestNameFindsTheNearCandidate) {
  const std::vector<std::string> flags = {"--trials", "--jobs", "--seed", "--strategies"};
  EXPECT_EQ(closest_name("--trails", flags), std::optional<std::string>("--trials"));
  EXPECT_EQ(closest_name("--job", flags), std::optional<std::string>("--jobs"));
}

TEST(Suggest, ClosestNameStaysQuietWhenNothingIsNearOrTheNameExists) {
  const std::vector<std::string> fields = {"node", "topology", "name"};
  EXPECT_EQ(closest_name("completely_different", fields), std::nullopt);
  EXPECT_EQ(closest_name("node", fields), std::nullopt);
  EXPECT_EQ(closest_name("x", {}), std::nullopt);
  // A short name allows one edit only: "nd" -> "node" is two.
  EXPECT_EQ(closest_name("nd", fields), std::nullopt);
}

TEST(Suggest, ATieOrTheDashesAloneGiveNoGuess) {
  // "--X" is one edit from --N, --P and --Q alike: no guess rather than an arbitrary one.
  EXPECT_EQ(closest_name("--X", {"--N", "--P", "--Q", "--trials"}), std::nullopt);
  // The limit counts the name, not its dashes: "--nb" (2 letters) allows one edit, to "--NB" none is needed
  // case-insensitively, and "--nbb" is one from "--NB".
  EXPECT_EQ(closest_name("--nbb", {"--NB", "--trials"}), std::optional<std::string>("--NB"));
  // "--node" is one edit from --nodes and --mode alike; --nodes completes what was typed.
  EXPECT_EQ(closest_name("--node", {"--mode", "--nodes"}), std::optional<std::string>("--nodes"));
}

} // namespace
} // namespace hplsim::sim
