// The owner column's panel parts priced once per distinct part (sim/engine/panel_kernels.hpp)
// against each member's part listed and priced on its own.
#include "sim/engine/panel_kernels.hpp"

#include <utility>

#include <gtest/gtest.h>

#include "traces/grid.hpp"

namespace hplsim::sim {
namespace {

models::KernelCalibration cpu_kernels() {
  // Three compute-bound CPU records at different rates, with the launch
  // overhead that makes a kernel of no work cost something (numbers
  // arbitrary: the tests compare ways of pricing the same shapes).
  models::KernelCalibration c;
  for (const auto& [name, peak] : {std::pair{"cpu.gemm.fp64", 2e12}, std::pair{"cpu.trsm.fp64", 1e12},
                                   std::pair{"cpu.pfact.fp64", 0.5e12}}) {
    models::KernelParams* p = c.add_kernels();
    p->set_name(name);
    p->set_peak_flops_per_s(peak);
    p->set_max_efficiency(0.8);
    p->set_half_efficiency_size(96);
    p->set_launch_overhead_s(2e-6);
  }
  return c;
}

TEST(PanelKernels, AMembersPartIsItsOwnKernelsPricedInOrder) {
  // P = 6, NB 64, N 1000, the panel of step 3: every member's part from the
  // shared pricer equals its own work list priced kernel by kernel, and the
  // members with equal local rows get the very same part (one listing).
  const models::KernelModels models(cpu_kernels());
  models::CpuThreading threading;
  threading.threads = 4;
  threading.serial_fraction = 0.1;
  PanelKernels shared(models, threading);
  const traces::PanelGeometry g{1000, 64, 192, 64, 6, 3};
  traces::HplConfig cfg;
  cfg.nbmin = 4;
  cfg.ndiv = 2;
  const std::vector<PanelKernel>* off_diagonal = nullptr;
  for (int row = 0; row < 6; ++row) {
    std::vector<std::int64_t> rows;
    traces::panel_local_rows(row, g, rows);
    const std::vector<PanelKernel>& part = shared.of(rows, g, cfg);
    std::vector<traces::PanelWork> work;
    traces::panel_factorization_work(row, g, cfg, work);
    std::vector<PanelKernel> expected;
    for (const traces::PanelWork& w : work) {
      if (w.exchange) {
        expected.push_back({true, 0.0});
        continue;
      }
      const double s = models.seconds({w.kernel, traces::CPU, traces::FP64, w.m, w.n, w.k}, threading);
      if (s > 0.0) expected.push_back({false, s});
    }
    ASSERT_EQ(part.size(), expected.size()) << row;
    int exchanges = 0;
    for (std::size_t i = 0; i < part.size(); ++i) {
      EXPECT_EQ(part[i].exchange, expected[i].exchange) << row << " " << i;
      EXPECT_EQ(part[i].seconds, expected[i].seconds) << row << " " << i; // the same arithmetic: to the bit
      exchanges += part[i].exchange ? 1 : 0;
    }
    EXPECT_EQ(exchanges, 64) << row; // one pivot exchange per panel column
    if (row == 3) continue;          // the diagonal row has a part of its own
    if (off_diagonal == nullptr) off_diagonal = &part;
    EXPECT_EQ(&part, off_diagonal) << row; // rows 0, 1, 2, 4, 5 hold 128 rows each: one part
  }
}

TEST(PanelKernels, APartIsKeptApartByItsRecursionAndOutlivesNoLaterListing) {
  // The same rows under another recursion (left-looking, or NBMIN 8) are another part;
  // past 16 parts the kept ones are dropped and a part asked again is listed
  // again, equal to the first listing.
  const models::KernelModels models(cpu_kernels());
  PanelKernels shared(models, models::CpuThreading{});
  const traces::PanelGeometry g{1000, 64, 192, 64, 6, 3};
  std::vector<std::int64_t> rows;
  traces::panel_local_rows(0, g, rows);
  traces::HplConfig right;
  right.nbmin = 4;
  right.ndiv = 4; // four chunks per level (with two, the three variants list the same kernels)
  traces::HplConfig left = right;
  left.pfact = traces::HplConfig::Pfact::Left;
  traces::HplConfig coarse = right;
  coarse.nbmin = 8;
  const std::vector<PanelKernel> first = shared.of(rows, g, right);
  const std::vector<PanelKernel>& other = shared.of(rows, g, left);
  const std::vector<PanelKernel>& fewer = shared.of(rows, g, coarse);
  const auto seconds = [](const std::vector<PanelKernel>& part) {
    double s = 0.0;
    for (const PanelKernel& k : part)
      s += k.seconds;
    return s;
  };
  // Left-looking brings a chunk up to date (TRSM done x 16, GEMM rows x 16 x done) before factoring
  // it, right-looking updates what is right of it after (TRSM 16 x rest, GEMM rows x rest x 16).
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(other.empty());
  bool same = other.size() == first.size();
  for (std::size_t i = 0; same && i < first.size(); ++i)
    same = other[i].exchange == first[i].exchange && other[i].seconds == first[i].seconds;
  EXPECT_FALSE(same);
  EXPECT_GT(seconds(other), 0.0);
  EXPECT_LT(fewer.size(), first.size()); // wider base cases: fewer recursion levels
  for (int n = 0; n < 20; ++n) {         // other rows: past the 16 kept parts
    std::vector<std::int64_t> more(rows.size(), 200 + n);
    EXPECT_FALSE(shared.of(more, g, right).empty());
  }
  const std::vector<PanelKernel>& again = shared.of(rows, g, right);
  ASSERT_EQ(again.size(), first.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(again[i].exchange, first[i].exchange);
    EXPECT_EQ(again[i].seconds, first[i].seconds);
  }
}

} // namespace
} // namespace hplsim::sim
