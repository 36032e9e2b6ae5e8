// Memory model: hand-computed footprints, the numroc share, the inverse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "models/memory_model.hpp"

namespace hm = hplsim::models;

namespace {

// A small uneven HPL case used by several tests: N 1000 = 15 blocks of 64 + 40.
hm::MemoryInputs small_hpl(hm::MatrixPlacement placement) {
  hm::MemoryInputs in;
  in.n = 1000;
  in.nb = 64;
  in.p = 2;
  in.q = 3;
  in.depth = 1;
  in.placement = placement;
  in.ranks_per_node = 6;
  in.device_memory_bytes = 1e9;
  if (placement == hm::MatrixPlacement::Host) in.host_memory_bytes_per_node = 1e9;
  return in;
}

// small-dragonfly's grid (scenarios/small-dragonfly.textproto: 48 nodes x 6
// ranks, 12 x 24, NB 256, depth 1) with Aurora's 128e9 B per GPU (the scenario
// sets no gpu_memory_bytes; its nodes are "Aurora-like").
hm::MemoryInputs small_dragonfly(std::int64_t n) {
  hm::MemoryInputs in;
  in.n = n;
  in.nb = 256;
  in.p = 12;
  in.q = 24;
  in.depth = 1;
  in.ranks_per_node = 6;
  in.device_memory_bytes = 128e9;
  return in;
}

} // namespace

TEST(MemoryModel, NumrocOnUnevenGrids) {
  // N 1000, NB 64: 15 whole blocks + a partial one of 40 rows.
  // P = 3: 15 = 3 x 5, no extra block: process 0 gets 5 x 64 + the partial 40.
  EXPECT_EQ(hm::numroc(1000, 64, 0, 3), 360);
  EXPECT_EQ(hm::numroc(1000, 64, 1, 3), 320);
  EXPECT_EQ(hm::numroc(1000, 64, 2, 3), 320);
  // P = 4: 15 = 4 x 3 + 3: processes 0..2 get 4 blocks (256), process 3 gets 3
  // blocks + the partial 40 (232).
  EXPECT_EQ(hm::numroc(1000, 64, 0, 4), 256);
  EXPECT_EQ(hm::numroc(1000, 64, 2, 4), 256);
  EXPECT_EQ(hm::numroc(1000, 64, 3, 4), 232);
  // P = 7: 15 = 7 x 2 + 1: process 0 gets 3 blocks (192), process 1 two + 40,
  // the others 2 blocks (128).
  EXPECT_EQ(hm::numroc(1000, 64, 0, 7), 192);
  EXPECT_EQ(hm::numroc(1000, 64, 1, 7), 168);
  EXPECT_EQ(hm::numroc(1000, 64, 6, 7), 128);
  // Aurora HPL (N 28,773,888 = 74,932 blocks of 384): 74,932 = 162 x 462 + 88
  // -> 463 x 384 = 177,792 rows; 74,932 = 342 x 219 + 34 -> 220 x 384 = 84,480.
  EXPECT_EQ(hm::numroc(28773888, 384, 0, 162), 177792);
  EXPECT_EQ(hm::numroc(28773888, 384, 161, 162), 462 * 384);
  EXPECT_EQ(hm::numroc(28773888, 384, 0, 342), 84480);
  // The shares always add up to N and never increase with the coordinate.
  for (std::int64_t n : {1, 63, 64, 65, 1000, 4097})
    for (std::int64_t nb : {1, 7, 64})
      for (int p : {1, 2, 3, 5, 8}) {
        std::int64_t sum = 0;
        for (int r = 0; r < p; ++r) {
          sum += hm::numroc(n, nb, r, p);
          if (r > 0) {
            EXPECT_LE(hm::numroc(n, nb, r, p), hm::numroc(n, nb, r - 1, p));
          }
        }
        EXPECT_EQ(sum, n) << n << " " << nb << " " << p;
      }
}

TEST(MemoryModel, LeadingDimensionIsHplPdtests) {
  // ((mp - 1) / 8) * 8 + 8, then + 8 while a power of two (HPL_pdtest.c).
  EXPECT_EQ(hm::hpl_leading_dimension(1000, 8), 1000); // 992 + 8
  EXPECT_EQ(hm::hpl_leading_dimension(1001, 8), 1008);
  EXPECT_EQ(hm::hpl_leading_dimension(512, 8), 520);   // 512 is a power of two
  EXPECT_EQ(hm::hpl_leading_dimension(1024, 8), 1032); // likewise
  EXPECT_EQ(hm::hpl_leading_dimension(0, 8), 24);      // max(1, 0) -> 8, 16: powers of two
  EXPECT_EQ(hm::hpl_leading_dimension(177792, 8), 177792);
}

TEST(MemoryModel, HplOnTheHostHandComputed) {
  const hm::MemoryFootprint f = hm::memory_footprint(small_hpl(hm::MatrixPlacement::Host));
  // Worst rank (0,0): mp = numroc(1000, 64, 0, 2) = 8 blocks = 512 (15 = 2 x 7 + 1);
  // nq = numroc(1000, 64, 0, 3) = 360; nq1 = numroc(1001, 64, 0, 3) = 320 + 41 = 361.
  EXPECT_EQ(f.rank.row, 0);
  EXPECT_EQ(f.rank.col, 0);
  EXPECT_EQ(f.local_rows, 512);
  EXPECT_EQ(f.local_cols, 360);
  // ld = 520 (512 is a power of two); matrix = 8 (8 + 521 x 361) = 8 x 188,089.
  EXPECT_EQ(f.per_rank_host.matrix, 1504712);
  // depth 1, Q = 3: 2 panels. WORK = 8 + 64^2 + 64 + 1 + 64 x 512 (L2) + 64 x 361 (U)
  // = 60,041 doubles; IWORK = 4 + 9 x 64 + 3 x 2 + max(128, 3) = 714 ints;
  // panel = 8 x 60,041 + 4 x 714 = 483,184 B; two: 966,368.
  EXPECT_EQ(f.live_panels, 2);
  EXPECT_EQ(f.per_rank_host.panels, 966368);
  // Mix, threshold 64: HPL_pdlaswp00T's W = 8 (8 + 64 (64 + 1)) = 33,344 B, more
  // than HPL_pdfact's 8 (8 + 2 (4 + 128)) = 2,176 B.
  EXPECT_EQ(f.per_rank_host.workspace, 33344);
  EXPECT_EQ(f.per_rank_host.total(), 2504424);
  EXPECT_EQ(f.per_node_host_bytes, 6 * 2504424);
  // Nothing on a GPU.
  EXPECT_EQ(f.per_device.total(), 0);
  EXPECT_EQ(f.per_node_device_bytes, 0);
  // 1e9 B per node less the 20% host headroom: 8e8 available.
  ASSERT_TRUE(f.available_per_node_host_bytes.has_value());
  EXPECT_DOUBLE_EQ(*f.available_per_node_host_bytes, 8e8);
  EXPECT_TRUE(f.fits);
}

TEST(MemoryModel, HplSwapVariantsOnTheHost) {
  hm::MemoryInputs in = small_hpl(hm::MatrixPlacement::Host);
  in.swap = hm::HplSwap::BinaryExchange; // W = 8 (8 + 64 (361 + 1)) = 185,408 B
  EXPECT_EQ(hm::memory_footprint(in).per_rank_host.workspace, 185408);
  in.swap = hm::HplSwap::SpreadRoll; // no W: HPL_pdfact's 2,176 B only
  EXPECT_EQ(hm::memory_footprint(in).per_rank_host.workspace, 2176);
  in.p = 1; // no row swaps between processes: no W either
  in.swap = hm::HplSwap::BinaryExchange;
  EXPECT_EQ(hm::memory_footprint(in).per_rank_host.workspace, 2176);
}

TEST(MemoryModel, HplOnAGpuHandComputed) {
  const hm::MemoryFootprint f = hm::memory_footprint(small_hpl(hm::MatrixPlacement::Device));
  // Matrix and panels as on the host (previous test).
  EXPECT_EQ(f.per_device.matrix, 1504712);
  EXPECT_EQ(f.per_device.panels, 966368);
  // rocHPL's dW = max(2 x 512, (360 + 64 + 256) x 64 = 43,520) doubles = 348,160 B.
  EXPECT_EQ(f.per_device.workspace, 348160);
  EXPECT_EQ(f.per_device.total(), 2819240);
  EXPECT_EQ(f.per_rank_device_bytes, 2819240);
  EXPECT_EQ(f.per_node_device_bytes, 6 * 2819240);
  // Host staging: the column of panels 8 x 520 x 64 = 266,240; the panels' pinned
  // twins 966,368; host W 8 x max(2 x 512 + 360, 43,520) = 348,160 + HPL_pdfact's 2,176.
  EXPECT_EQ(f.per_rank_host.matrix, 266240);
  EXPECT_EQ(f.per_rank_host.panels, 966368);
  EXPECT_EQ(f.per_rank_host.workspace, 350336);
  // 1e9 per GPU less 0.5%.
  EXPECT_DOUBLE_EQ(f.available_per_device_bytes, 1e9 * (1.0 - hm::kDefaultDeviceHeadroomFraction));
  EXPECT_FALSE(f.available_per_node_host_bytes.has_value());
  EXPECT_TRUE(f.fits);
  EXPECT_NE(f.explanation.find("not checked"), std::string::npos) << f.explanation;
}

TEST(MemoryModel, UnifiedMemoryCountsTheHostBuffersOnTheGpu) {
  // An APU: the host staging of HplOnAGpuHandComputed (266,240 + 966,368 +
  // 350,336 = 1,582,944 B) sits in the GPU's memory beside its 2,819,240 B.
  hm::MemoryInputs in = small_hpl(hm::MatrixPlacement::Device);
  in.unified_memory = true;
  in.device_memory_bytes = 4.5e6 / (1.0 - hm::kDefaultDeviceHeadroomFraction); // 4.5e6 available
  hm::MemoryFootprint f = hm::memory_footprint(in);
  EXPECT_TRUE(f.fits) << f.explanation; // 2,819,240 + 1,582,944 = 4,402,184 <= 4.5e6
  EXPECT_NE(f.explanation.find("unified"), std::string::npos) << f.explanation;
  in.device_memory_bytes = 4.40e6; // 4,378,000 available < 4,402,184
  f = hm::memory_footprint(in);
  EXPECT_FALSE(f.fits) << f.explanation;
  in.unified_memory = false; // the GPU alone holds 2,819,240 B
  EXPECT_TRUE(hm::memory_footprint(in).fits);
}

TEST(MemoryModel, OnePanelWithoutLookAheadOrWithOneProcessColumn) {
  hm::MemoryInputs in = small_hpl(hm::MatrixPlacement::Host);
  in.depth = 0; // HPL_pdgesv0: one panel of 483,184 B (HplOnTheHostHandComputed)
  EXPECT_EQ(hm::memory_footprint(in).live_panels, 1);
  EXPECT_EQ(hm::memory_footprint(in).per_rank_host.panels, 483184);
  in.depth = 1;
  in.q = 1; // HPL_pdgesv0 again; L2 stays in A, U is JB x (nq1 - JB):
  // nq1 = 1001, WORK = 8 + 4096 + 64 + 1 + 64 x 937 = 64,137 doubles; IWORK 714 ints.
  const hm::MemoryFootprint f = hm::memory_footprint(in);
  EXPECT_EQ(f.live_panels, 1);
  EXPECT_EQ(f.per_rank_host.panels, 8 * 64137 + 4 * 714);
}

TEST(MemoryModel, MxpOnThreeGpusPerRankHandComputed) {
  hm::MemoryInputs in;
  in.layout = hm::MemoryLayout::HplMxp;
  in.n = 4096;
  in.nb = 512;
  in.p = 2;
  in.q = 2;
  in.matrix_element_bytes = 2; // BF16
  in.panel_element_bytes = 2;
  in.gpus_per_rank = 3;
  in.ranks_per_node = 2;
  in.device_memory_bytes = 1e8;
  const hm::MemoryFootprint f = hm::memory_footprint(in);
  // 8 blocks: mp = nq = 4 x 512 = 2048. The first GPU has ceil(2048 / 3) = 683 columns.
  EXPECT_EQ(f.local_rows, 2048);
  EXPECT_EQ(f.local_cols, 2048);
  // pitch(2048 BF16) = ((4096 + 767) / 1024) x 1024 + 256 = 4352 B; matrix 4352 x 683.
  EXPECT_EQ(f.per_device.matrix, 2972416);
  // 2 panels x (L 512 x 4352 + U 512 x pitch(683) = 512 x 2304) + diagonal
  // 512^2 x (4 + 2 + 2) = 6,815,744 + 2,097,152.
  EXPECT_EQ(f.per_device.panels, 8912896);
  // FP64 vectors: 8 (6 x 2048 + 2048 + 512^2 + 512) = 8 x 276,992.
  EXPECT_EQ(f.per_device.workspace, 2215936);
  EXPECT_EQ(f.per_device.total(), 14101248);
  // GPU 1 has 683 columns too, GPU 2 682 (same pitch 2304): 4352 x 683 + 8,912,896
  // and 4352 x 682 + 8,912,896, no FP64 vectors.
  EXPECT_EQ(f.per_rank_device_bytes, 14101248 + 11885312 + 11880960);
  EXPECT_EQ(f.per_node_device_bytes, 2 * (14101248 + 11885312 + 11880960));
  // Host-staged panels: 2 x 2 B x 512 x (2048 + 2048) + the FP32 diagonal 4 x 512^2.
  EXPECT_EQ(f.per_rank_host.total(), 9437184);
  in.host_staged_messages = false;
  EXPECT_EQ(hm::memory_footprint(in).per_rank_host.total(), 0);
}

TEST(MemoryModel, DefaultRankIsTheWorstRank) {
  for (hm::MemoryLayout layout : {hm::MemoryLayout::Hpl, hm::MemoryLayout::HplMxp}) {
    hm::MemoryInputs in;
    in.layout = layout;
    in.n = 1000;
    in.nb = 64;
    in.p = 3;
    in.q = 5;
    in.device_memory_bytes = 1e9;
    const std::int64_t worst = hm::memory_footprint(in).per_device.total();
    std::int64_t largest = 0;
    for (int r = 0; r < in.p; ++r)
      for (int c = 0; c < in.q; ++c) {
        in.rank = hm::ProcessCoord{r, c};
        largest = std::max(largest, hm::memory_footprint(in).per_device.total());
      }
    EXPECT_EQ(worst, largest);
  }
}

TEST(MemoryModel, SmallDragonflyThreeMillionDoesNotFit) {
  // The example: 288 GPUs of 128e9 B cannot hold N = 3,000,000:
  // 3e6^2 x 8 B / 288 = 250 GB per GPU on average.
  const hm::MemoryFootprint f = hm::memory_footprint(small_dragonfly(3000000));
  // 11,718 whole blocks of 256 (+ 192): 11,718 = 12 x 976 + 6 -> 977 x 256 = 250,112
  // rows; 11,718 = 24 x 488 + 6 -> 489 x 256 = 125,184 columns. ld = 250,112 (a
  // multiple of 8, not a power of two): matrix = 8 (8 + 250,113 x 125,185).
  EXPECT_EQ(f.local_rows, 250112);
  EXPECT_EQ(f.local_cols, 125184);
  EXPECT_EQ(f.per_device.matrix, 250483167304);
  // Panels: WORK = 8 + 65,536 + 256 + 1 + 256 x 250,112 + 256 x 125,184 (nq1 =
  // numroc(3,000,001) = 125,184) = 96,141,577 doubles; IWORK = 4 + 2,304 + 36 +
  // 512 = 2,856 ints; two panels 2 x (769,132,616 + 11,424). dW = 8 x (125,184 +
  // 256 + 256) x 256 = 257,425,408.
  EXPECT_EQ(f.per_device.panels, 1538288080);
  EXPECT_EQ(f.per_device.workspace, 257425408);
  EXPECT_EQ(f.per_device.total(), 252278880792); // 252.28 GB
  EXPECT_DOUBLE_EQ(f.available_per_device_bytes, 128e9 * 0.995);
  EXPECT_FALSE(f.fits);
  EXPECT_NE(f.explanation.find("N = 3,000,000"), std::string::npos) << f.explanation;
  EXPECT_NE(f.explanation.find("P x Q = 12 x 24"), std::string::npos) << f.explanation;
  EXPECT_NE(f.explanation.find("252.28 GB"), std::string::npos) << f.explanation;
  EXPECT_NE(f.explanation.find("127.36 GB available"), std::string::npos) << f.explanation;
  EXPECT_NE(f.explanation.find("does NOT fit"), std::string::npos) << f.explanation;
  // The scenario's own N 12,288 fits easily.
  EXPECT_TRUE(hm::memory_footprint(small_dragonfly(12288)).fits);
}

TEST(MemoryModel, InverseIsConsistentWithTheForwardModel) {
  std::vector<hm::MemoryInputs> cases;
  cases.push_back(small_dragonfly(1));
  cases.push_back(small_hpl(hm::MatrixPlacement::Host));
  cases.push_back(small_hpl(hm::MatrixPlacement::Device));
  hm::MemoryInputs mxp;
  mxp.layout = hm::MemoryLayout::HplMxp;
  mxp.nb = 1536;
  mxp.p = 152;
  mxp.q = 125;
  mxp.matrix_element_bytes = 2;
  mxp.panel_element_bytes = 2;
  mxp.gpus_per_rank = 3;
  mxp.ranks_per_node = 2;
  mxp.device_memory_bytes = 128e9;
  cases.push_back(mxp);
  hm::MemoryInputs one_gpu = small_dragonfly(1);
  one_gpu.p = one_gpu.q = 1;
  cases.push_back(one_gpu);
  for (hm::MemoryInputs in : cases) {
    const std::int64_t n = hm::largest_fitting_n(in);
    ASSERT_GT(n, 0);
    EXPECT_EQ(n % in.nb, 0);
    in.n = n;
    EXPECT_TRUE(hm::memory_footprint(in).fits) << hm::memory_footprint(in).explanation;
    in.n = n + in.nb;
    EXPECT_FALSE(hm::memory_footprint(in).fits) << hm::memory_footprint(in).explanation;
  }
  // One GPU of 128e9 B: the matrix alone bounds N by sqrt(128e9 x 0.995 / 8) = 126,174.
  const std::int64_t n1 = hm::largest_fitting_n(one_gpu);
  EXPECT_LE(n1, 126174);
  EXPECT_GT(n1, 126174 - 2000); // panels and scratch take a few NB columns' worth
}

TEST(MemoryModel, InverseWithAMemoryFraction) {
  const hm::MemoryInputs in = small_dragonfly(1);
  const std::int64_t n90 = hm::largest_fitting_n(in, 0.9);
  const std::int64_t n50 = hm::largest_fitting_n(in, 0.5);
  EXPECT_LT(n50, n90);
  EXPECT_LT(n90, hm::largest_fitting_n(in));
  hm::MemoryInputs m = in;
  m.device_headroom_fraction = 0.5;
  m.n = n50;
  EXPECT_TRUE(hm::memory_footprint(m).fits);
  m.n = n50 + m.nb;
  EXPECT_FALSE(hm::memory_footprint(m).fits);
  EXPECT_THROW(hm::largest_fitting_n(in, 0.0), std::invalid_argument);
  EXPECT_THROW(hm::largest_fitting_n(in, 1.5), std::invalid_argument);
  // Not even N = NB fits a 1 MB GPU.
  hm::MemoryInputs tiny = in;
  tiny.device_memory_bytes = 1e6;
  EXPECT_EQ(hm::largest_fitting_n(tiny), 0);
}

TEST(MemoryModel, HostStagingIsCheckedWhenTheHostMemoryIsGiven) {
  hm::MemoryInputs in = small_hpl(hm::MatrixPlacement::Device);
  // 6 ranks x 1,582,944 B of staging (HplOnAGpuHandComputed) = 9,497,664 B > 80% of 1e7.
  in.host_memory_bytes_per_node = 1e7;
  hm::MemoryFootprint f = hm::memory_footprint(in);
  EXPECT_EQ(f.per_node_host_bytes, 9497664);
  EXPECT_FALSE(f.fits);
  EXPECT_NE(f.explanation.find("does NOT fit"), std::string::npos) << f.explanation;
  in.host_memory_bytes_per_node = 1.2e7; // 9.6e6 available
  EXPECT_TRUE(hm::memory_footprint(in).fits);
}

TEST(MemoryModel, RejectsBadInputs) {
  hm::MemoryInputs ok = small_hpl(hm::MatrixPlacement::Device);
  EXPECT_NO_THROW(hm::memory_footprint(ok));
  auto rejects = [&](auto change) {
    hm::MemoryInputs in = ok;
    change(in);
    EXPECT_THROW(hm::memory_footprint(in), std::invalid_argument);
  };
  rejects([](hm::MemoryInputs& in) { in.n = 0; });
  rejects([](hm::MemoryInputs& in) { in.nb = 0; });
  rejects([](hm::MemoryInputs& in) { in.p = 0; });
  rejects([](hm::MemoryInputs& in) { in.rank = hm::ProcessCoord{2, 0}; });
  rejects([](hm::MemoryInputs& in) { in.rank = hm::ProcessCoord{0, -1}; });
  rejects([](hm::MemoryInputs& in) { in.depth = -1; });
  rejects([](hm::MemoryInputs& in) { in.matrix_element_bytes = 0; });
  rejects([](hm::MemoryInputs& in) { in.gpus_per_rank = 3; }); // HPL: one GPU per rank
  rejects([](hm::MemoryInputs& in) { in.device_headroom_fraction = 1.0; });
  rejects([](hm::MemoryInputs& in) { in.device_memory_bytes = 0.0; });
  rejects([](hm::MemoryInputs& in) { in.placement = hm::MatrixPlacement::Host; }); // no host memory
}

TEST(MemoryModel, AuroraSc24RunsFitAndTenPercentLargerDoNot) {
  // scenarios/aurora-hpl-sc24.textproto as typed inputs: HPL, N 28,773,888, NB 384,
  // 162 x 342, depth 1, 6 ranks per node (one per GPU), 128e9 B per GPU.
  hm::MemoryInputs hpl = small_dragonfly(28773888);
  hpl.nb = 384;
  hpl.p = 162;
  hpl.q = 342;
  hm::MemoryFootprint f = hm::memory_footprint(hpl);
  // 177,792 x 84,480 (NumrocOnUnevenGrids); ld = 177,792: matrix 8 (8 + 177,793 x 84,481).
  EXPECT_EQ(f.per_device.matrix, 120161043528);
  // WORK = 8 + 384^2 + 384 + 1 + 384 x 177,792 + 384 x 84,480 = 100,860,297 doubles,
  // IWORK = 4 + 3,456 + 486 + 768 = 4,714 ints: 2 x (806,882,376 + 18,856).
  EXPECT_EQ(f.per_device.panels, 1613802464);
  // dW = 8 x (84,480 + 384 + 256) x 384.
  EXPECT_EQ(f.per_device.workspace, 261488640);
  EXPECT_EQ(f.per_device.total(), 122036334632); // 95.8% of 127.36e9
  EXPECT_TRUE(f.fits) << f.explanation;
  hpl.n = 31651277; // 1.1 N: 147.37 GB
  EXPECT_FALSE(hm::memory_footprint(hpl).fits);

  // scenarios/aurora-mxp-sc24.textproto: HPL-MxP, N 57,693,696 = 37,561 blocks of
  // 1,536, 152 x 125, 2 ranks per node x 3 GPUs, BF16.
  hm::MemoryInputs mxp = hpl;
  mxp.layout = hm::MemoryLayout::HplMxp;
  mxp.n = 57693696;
  mxp.nb = 1536;
  mxp.p = 152;
  mxp.q = 125;
  mxp.matrix_element_bytes = 2;
  mxp.panel_element_bytes = 2;
  mxp.gpus_per_rank = 3;
  mxp.ranks_per_node = 2;
  f = hm::memory_footprint(mxp);
  // 37,561 = 152 x 247 + 17 -> 248 x 1,536 = 380,928 rows; = 125 x 300 + 61 -> 301 x
  // 1,536 = 462,336 columns, 154,112 on each GPU. pitch(380,928 BF16) = 744 x 1024 +
  // 256 = 762,112 B: matrix 762,112 x 154,112.
  EXPECT_EQ(f.local_rows, 380928);
  EXPECT_EQ(f.local_cols, 462336);
  EXPECT_EQ(f.per_device.matrix, 117450604544);
  // 2 x 1,536 x (762,112 + pitch(154,112) = 308,480) + 1,536^2 x 8.
  EXPECT_EQ(f.per_device.panels, 3307732992);
  // 8 (6 x 380,928 + 462,336 + 1,536^2 + 1,536).
  EXPECT_EQ(f.per_device.workspace, 40869888);
  EXPECT_TRUE(f.fits) << f.explanation; // 120.80 GB, 94.8% of 127.36e9
  mxp.n = 63463066;                     // 1.1 N: 145.32 GB
  EXPECT_FALSE(hm::memory_footprint(mxp).fits);
  // rocHPL-MxP's FP32 matrix would not fit: 238.21 GB per GPU.
  mxp.n = 57693696;
  mxp.matrix_element_bytes = 4;
  EXPECT_FALSE(hm::memory_footprint(mxp).fits);
}
