// A study's items split across MPI ranks (sim/distributed/world.hpp): the
// world of one process and the packing of answers. The job itself is run
// under mpirun by tests/sim/cli/mpi_test.cpp.
#include "sim/distributed/world.hpp"

#include <gtest/gtest.h>

namespace hplsim::sim {
namespace {

TEST(World, WithoutALauncherTheWorldIsOneProcessThatOwnsEveryItem) {
  const World& w = World::current();
  EXPECT_EQ(w.size(), 1);
  EXPECT_TRUE(w.is_root());
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_TRUE(w.owns(i));
  const auto all = w.gather("abc");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0], "abc");
}

TEST(World, PackedItemsUnpackAsTheyWere) {
  const std::vector<std::pair<std::size_t, std::string>> items = {
      {3, "three"}, {0, std::string("\0x\0", 3)}, {7, ""}};
  EXPECT_EQ(unpack_items(pack_items(items)), items);
  EXPECT_TRUE(unpack_items("").empty());
  // A cut answer is an error, not a silent loss.
  const std::string packed = pack_items(items);
  EXPECT_THROW(unpack_items(packed.substr(0, packed.size() - 1)), std::runtime_error);
}

} // namespace
} // namespace hplsim::sim
