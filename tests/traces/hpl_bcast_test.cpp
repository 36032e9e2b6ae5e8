// Panel broadcast patterns against hand-traced runs of HPL 2.3's src/comm/HPL_*.c.
#include "traces/hpl_bcast.hpp"

#include <gtest/gtest.h>

#include "pattern_util.hpp"

using namespace hplsim::traces;
using namespace hplsim::traces::test;

namespace {

std::vector<Msg> of(HplConfig::Bcast v, int me, int root, int size, std::int64_t len) {
  Pattern p;
  bcast_pattern(v, me, root, size, len, p);
  return flat(p);
}

constexpr std::int64_t kLen = 1000;       // doubles
constexpr std::int64_t kBytes = kLen * 8; // every ring message carries the whole panel

} // namespace

TEST(PanelLength, IsL2PlusL1PlusPivotsPlusInfo) {
  // HPL_pdpanel_init (Q > 1): len = ml2*JB + JB*JB + JB + 1; ml2 = 100, JB = 8:
  // 800 + 64 + 8 + 1 = 873 doubles.
  EXPECT_EQ(panel_length_doubles(100, 8), 873);
  EXPECT_EQ(panel_length_doubles(0, 8), 73);
}

TEST(OneRingBcast, PassesThePanelAlongTheRing) {
  // Q = 5, root 1: 1 -> 2 -> 3 -> 4 -> 0, each hop the whole panel.
  EXPECT_EQ(of(HplConfig::Bcast::OneRing, 1, 1, 5, kLen), (std::vector<Msg>{S(2, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::OneRing, 2, 1, 5, kLen), (std::vector<Msg>{R(1, kBytes), S(3, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::OneRing, 4, 1, 5, kLen), (std::vector<Msg>{R(3, kBytes), S(0, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::OneRing, 0, 1, 5, kLen), (std::vector<Msg>{R(4, kBytes)}));
}

TEST(OneRingModifiedBcast, ServesTheNextOwnerDirectly) {
  // HPL_1rinM, Q = 5, root 1: root -> 2 (next panel's owner, keeps it) and root -> 3;
  // then 3 -> 4 -> 0.
  EXPECT_EQ(of(HplConfig::Bcast::OneRingM, 1, 1, 5, kLen), (std::vector<Msg>{S(2, kBytes), S(3, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::OneRingM, 2, 1, 5, kLen), (std::vector<Msg>{R(1, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::OneRingM, 3, 1, 5, kLen), (std::vector<Msg>{R(1, kBytes), S(4, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::OneRingM, 4, 1, 5, kLen), (std::vector<Msg>{R(3, kBytes), S(0, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::OneRingM, 0, 1, 5, kLen), (std::vector<Msg>{R(4, kBytes)}));
}

TEST(TwoRingBcast, RunsTwoHalfRings) {
  // HPL_2ring, Q = 5, root 1: roo2 = root + (5+1)/2 = distance 3 = member 4.
  // Ring 1: 1 -> 2 -> 3 (stops before roo2); ring 2: 1 -> 4 -> 0.
  EXPECT_EQ(of(HplConfig::Bcast::TwoRing, 1, 1, 5, kLen), (std::vector<Msg>{S(2, kBytes), S(4, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRing, 2, 1, 5, kLen), (std::vector<Msg>{R(1, kBytes), S(3, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRing, 3, 1, 5, kLen), (std::vector<Msg>{R(2, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRing, 4, 1, 5, kLen), (std::vector<Msg>{R(1, kBytes), S(0, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRing, 0, 1, 5, kLen), (std::vector<Msg>{R(4, kBytes)}));
}

TEST(TwoRingModifiedBcast, ServesTheNextOwnerAndBothRingHeads) {
  // HPL_2rinM, Q = 8, root 0: roo2 = distance 4. Root -> 1 (keeps it), -> 2 and -> 4;
  // ring 1: 2 -> 3; ring 2: 4 -> 5 -> 6 -> 7.
  EXPECT_EQ(of(HplConfig::Bcast::TwoRingM, 0, 0, 8, kLen),
            (std::vector<Msg>{S(1, kBytes), S(2, kBytes), S(4, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRingM, 1, 0, 8, kLen), (std::vector<Msg>{R(0, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRingM, 2, 0, 8, kLen), (std::vector<Msg>{R(0, kBytes), S(3, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRingM, 3, 0, 8, kLen), (std::vector<Msg>{R(2, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRingM, 4, 0, 8, kLen), (std::vector<Msg>{R(0, kBytes), S(5, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRingM, 7, 0, 8, kLen), (std::vector<Msg>{R(6, kBytes)}));
  // Q = 5, root 1: roo2 = distance 3 (member 4); distance 2 (member 3) is roo2 - 1, so
  // the first ring is the single member 3: root -> 2, 3, 4; then 4 -> 0.
  EXPECT_EQ(of(HplConfig::Bcast::TwoRingM, 1, 1, 5, kLen),
            (std::vector<Msg>{S(2, kBytes), S(3, kBytes), S(4, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRingM, 3, 1, 5, kLen), (std::vector<Msg>{R(1, kBytes)}));
  EXPECT_EQ(of(HplConfig::Bcast::TwoRingM, 4, 1, 5, kLen), (std::vector<Msg>{R(1, kBytes), S(0, kBytes)}));
}

TEST(BlongBcast, ScattersThenRolls) {
  // HPL_blong, Q = 4, root 0, 10 doubles: count = 10/4 = 2; chunks (doubles)
  // c0 = 2, c1 = 2, c2 = 2, c3 = 4 (the last one takes the rest).
  // Scatter (top bit 2): 0 -> 2 chunks c2..c3 = 6 doubles (48 B); then 0 -> 1 c1 (16 B),
  // 2 -> 3 c3 (32 B). Roll, 3 Issend/Recv steps with alternating neighbours:
  //  k=0: 0<->1 (c0 / c1), 2<->3 (c2 / c3)
  //  k=1: 0<->3 (0 sends c0, gets c3), 1<->2 (c1 / c2)
  //  k=2: 0<->1 (0 sends c3, gets c2), 2<->3 (2 sends c1, gets c0)
  EXPECT_EQ(of(HplConfig::Bcast::Blong, 0, 0, 4, 10),
            (std::vector<Msg>{S(2, 48), S(1, 16), Y(1, 16, 16), Y(3, 16, 32), Y(1, 32, 16)}));
  EXPECT_EQ(of(HplConfig::Bcast::Blong, 1, 0, 4, 10),
            (std::vector<Msg>{R(0, 16), Y(0, 16, 16), Y(2, 16, 16), Y(0, 16, 32)}));
  EXPECT_EQ(of(HplConfig::Bcast::Blong, 2, 0, 4, 10),
            (std::vector<Msg>{R(0, 48), S(3, 32), Y(3, 16, 32), Y(1, 16, 16), Y(3, 16, 16)}));
  EXPECT_EQ(of(HplConfig::Bcast::Blong, 3, 0, 4, 10),
            (std::vector<Msg>{R(2, 32), Y(2, 32, 16), Y(0, 32, 16), Y(2, 16, 16)}));
}

TEST(BlongBcast, SendsEmptyMessagesWhenThePanelIsShorterThanTheRow) {
  // 3 doubles over Q = 4: count = max(3/4, 1) = 1; chunks 1, 1, 1, 0. The scatter's
  // 2 -> 3 part is chunk 3 = 0 doubles: HPL still sends (MPI_Ssend of count 0).
  const auto p2 = of(HplConfig::Bcast::Blong, 2, 0, 4, 3);
  ASSERT_GE(p2.size(), 2u);
  EXPECT_EQ(p2[0], R(0, 8)); // subtree {2, 3}: chunks 2 + 3 = 1 + 0 doubles
  EXPECT_EQ(p2[1], S(3, 0)); // chunk 3 alone: empty, still sent
}

TEST(BlongModifiedBcast, SendsWholePanelToNextOwnerThenScatterRollsAmongTheRest) {
  // HPL_blonM, Q = 4, root 0, 10 doubles: root -> 1 the whole panel (80 B); the
  // root and members 2, 3 (virtual 0, 1, 2) scatter + roll: count = 10/3 = 3,
  // chunks 3, 3, 4. Scatter (top bit 2): root -> v2 (member 3) chunk 2 (32 B),
  // root -> v1 (member 2) chunk 1 (24 B). Roll, 2 steps: k=0: v0<->v1 (c0/c1),
  // v2 -> v0 c2 and waits c0 from v0; k=1: v0<->v2 (c0 / c2), v1<->v2 (c1 / c2).
  EXPECT_EQ(of(HplConfig::Bcast::BlongM, 0, 0, 4, 10),
            (std::vector<Msg>{S(1, 80), S(3, 32), S(2, 24), Y(2, 24, 24), Y(3, 24, 32)}));
  EXPECT_EQ(of(HplConfig::Bcast::BlongM, 1, 0, 4, 10), (std::vector<Msg>{R(0, 80)}));
  EXPECT_EQ(of(HplConfig::Bcast::BlongM, 2, 0, 4, 10),
            (std::vector<Msg>{R(0, 24), Y(0, 24, 24), Y(3, 24, 32)}));
  EXPECT_EQ(of(HplConfig::Bcast::BlongM, 3, 0, 4, 10),
            (std::vector<Msg>{R(0, 32), Y(0, 32, 24), Y(2, 32, 24)}));
}

TEST(BcastPattern, IsEmptyForOneColumn) {
  for (auto v : {HplConfig::Bcast::OneRing, HplConfig::Bcast::Blong, HplConfig::Bcast::BlongM})
    EXPECT_TRUE(of(v, 0, 0, 1, kLen).empty());
}

TEST(BcastPattern, TwoColumnsIsOneMessageForEveryVariant) {
  // With Q = 2 every variant degenerates to root -> other (blong: one scatter message
  // of the other's chunk and one roll step).
  for (auto v : {HplConfig::Bcast::OneRing, HplConfig::Bcast::OneRingM, HplConfig::Bcast::TwoRing,
                 HplConfig::Bcast::TwoRingM, HplConfig::Bcast::BlongM}) {
    EXPECT_EQ(of(v, 0, 0, 2, kLen), (std::vector<Msg>{S(1, kBytes)})) << to_string(v);
    EXPECT_EQ(of(v, 1, 0, 2, kLen), (std::vector<Msg>{R(0, kBytes)})) << to_string(v);
  }
}
