// What a process holds (sim/support/process_memory.hpp): smaps_rollup's fields
// and the anonymous pages shared at least.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "sim/support/process_memory.hpp"

namespace hplsim::sim {
namespace {

// /proc/self/smaps_rollup as Linux 6.1 writes it (a fork child's, trimmed).
const std::string kRollup =
    "5584cb866000-7ffe37934000 ---p 00000000 00:00 0                          [rollup]\n"
    "Rss:               10240 kB\n"
    "Pss:                4096 kB\n"
    "Pss_Anon:           3072 kB\n"
    "Shared_Clean:       2048 kB\n"
    "Shared_Dirty:       6144 kB\n"
    "Private_Clean:       512 kB\n"
    "Private_Dirty:      1536 kB\n"
    "Anonymous:          7168 kB\n"
    "Swap:                  0 kB\n";

TEST(ProcessMemory, ParsesTheRollupsFields) {
  const std::optional<MemoryRollup> m = parse_memory_rollup(kRollup);
  ASSERT_TRUE(m);
  EXPECT_NEAR(m->rss_bytes, 10240.0 * 1024, 0.0);
  EXPECT_NEAR(m->shared_bytes, 8192.0 * 1024, 0.0);  // 2048 + 6144 kB
  EXPECT_NEAR(m->private_bytes, 2048.0 * 1024, 0.0); // 512 + 1536 kB
  EXPECT_NEAR(m->anonymous_bytes, 7168.0 * 1024, 0.0);
  // 7168 kB anonymous, of which at most the 2048 kB private: 5120 kB shared.
  EXPECT_NEAR(m->shared_anonymous_bytes(), 5120.0 * 1024, 0.0);
}

TEST(ProcessMemory, SharedAnonymousIsNeverNegative) {
  MemoryRollup m;
  m.anonymous_bytes = 1024.0;
  m.private_bytes = 4096.0; // private file pages besides the anonymous ones
  EXPECT_NEAR(m.shared_anonymous_bytes(), 0.0, 0.0);
}

TEST(ProcessMemory, ARollupMissingAFieldIsNone) {
  std::string text = kRollup;
  text.erase(text.find("Anonymous:"));
  EXPECT_FALSE(parse_memory_rollup(text));
  EXPECT_FALSE(parse_memory_rollup(""));
}

TEST(ProcessMemory, ThisProcesssRollup) {
  const std::optional<MemoryRollup> m = memory_rollup();
  if (!m) GTEST_SKIP() << "/proc/self/smaps_rollup not readable here";
  EXPECT_GT(m->rss_bytes, 0.0);
  EXPECT_LE(m->shared_bytes + m->private_bytes, m->rss_bytes + 1.0);
  EXPECT_GT(page_size_bytes(), 0.0);
}

} // namespace
} // namespace hplsim::sim
