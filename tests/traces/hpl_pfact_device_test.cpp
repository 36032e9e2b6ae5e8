// The panel factored on the GPU (traces/hpl_pfact_device.hpp) and the step
// pieces each HPL code picks (traces/hpl_code.hpp).
#include "traces/hpl_pfact_device.hpp"

#include <gtest/gtest.h>

#include "pattern_util.hpp"
#include "traces/hpl_code.hpp"
#include "traces/hpl_generator.hpp"
#include "traces/schedule_validator.hpp"

using namespace hplsim::traces;
using namespace hplsim::traces::test;

namespace {

// A small GPU run (N 2000, NB 32, 3 x 4, look-ahead) of the given code.
HplConfig gpu_config(HplCode code) {
  HplConfig c;
  c.n = 2000;
  c.nb = 32;
  c.p = 3;
  c.q = 4;
  c.nbmin = 4;
  c.depth = 1;
  c.gpu = true;
  c.code = code;
  return c;
}

struct OwnerOps {
  int cpu_computes = 0, gpu_pfact = 0, d2h = 0, h2d = 0, device_sends = 0, host_sends = 0;
  int first_pfact = -1, u2_gemm = -1;
};

// Step 3's ops on rank (0, 0), the owner of panel 4 (column 4 % 4 = 0).
OwnerOps owner_ops(const HplConfig& c) {
  const HplScheduleGenerator g(c);
  StepSchedule s;
  g.step(3, s);
  const RankProgram* owner = program_of(s, g.grid().rank(0, 0));
  OwnerOps o;
  if (owner == nullptr) return o;
  for (int i = 0; i < owner->ops_size(); ++i) {
    const Op& op = owner->ops(i);
    if (op.has_compute()) {
      const Compute& x = op.compute();
      if (x.resource() == CPU) ++o.cpu_computes;
      if (x.phase() == PFACT && x.kernel() == KERNEL_PFACT_COLUMN && x.resource() == GPU) {
        ++o.gpu_pfact;
        if (o.first_pfact < 0) o.first_pfact = i;
      }
      if (o.u2_gemm < 0 && x.kernel() == KERNEL_GEMM && x.phase() == GEMM && x.has_async_tag()) o.u2_gemm = i;
    }
    if (op.has_copy() && op.copy().phase() == PFACT) ++(op.copy().direction() == Copy::D2H ? o.d2h : o.h2d);
    if (op.has_send() && op.send().phase() == PFACT) ++(op.send().device() ? o.device_sends : o.host_sends);
  }
  return o;
}

} // namespace

TEST(HplPfactDevice, Rochpl7FactorsOnTheGpuBeforeTheUpdateWithAFlagRoundTripPerColumn) {
  const OwnerOps o = owner_ops(gpu_config(HplCode::Rochpl7));
  EXPECT_EQ(o.cpu_computes, 0); // nothing of the panel on the CPU cores
  EXPECT_EQ(o.gpu_pfact, 32);   // one leaf-kernel call per panel column (jb = 32)
  EXPECT_EQ(o.d2h, 32);         // P = 3 > 1: one candidate D2H per column
  EXPECT_EQ(o.h2d, 32);         // and the winner back
  EXPECT_GT(o.host_sends, 0);   // HPL_pdmxswp from host buffers
  EXPECT_EQ(o.device_sends, 0);
  ASSERT_GE(o.u2_gemm, 0);
  EXPECT_LT(o.first_pfact, o.u2_gemm); // serialized: the panel before U2 on the compute stream
}

TEST(HplPfactDevice, NvidiaFactorsBesideTheUpdateWithDeviceInitiatedPivots) {
  const OwnerOps o = owner_ops(gpu_config(HplCode::Nvidia));
  EXPECT_EQ(o.cpu_computes, 0);
  EXPECT_EQ(o.gpu_pfact, 32);
  EXPECT_EQ(o.d2h + o.h2d, 0);  // no host round trip
  EXPECT_GT(o.device_sends, 0); // NVSHMEM: GPU-initiated, device buffers
  EXPECT_EQ(o.host_sends, 0);
  ASSERT_GE(o.u2_gemm, 0);
  EXPECT_GT(o.first_pfact, o.u2_gemm); // beside U2: launched after it
}

TEST(HplPfactDevice, Rochpl6KeepsTheCpuPanelAndItsCopies) {
  const OwnerOps o = owner_ops(gpu_config(HplCode::Rochpl6));
  EXPECT_EQ(o.gpu_pfact, 0);
  EXPECT_GT(o.cpu_computes, 0);
}

TEST(HplPfactDevice, EveryGpuCodeGivesAConsistentDeadlockFreeRun) {
  // Both depths, both swap families, on P = 3 (a non-power-of-two pivot exchange).
  for (HplCode code : {HplCode::Rochpl7, HplCode::Nvidia})
    for (int depth : {0, 1})
      for (auto swap : {HplConfig::Swap::BinaryExchange, HplConfig::Swap::SpreadRoll}) {
        HplConfig c = gpu_config(code);
        c.n = 400;
        c.depth = depth;
        c.swap = swap;
        const HplScheduleGenerator g(c);
        std::vector<StepSchedule> steps(static_cast<std::size_t>(g.steps() + 1));
        std::vector<const StepSchedule*> window;
        for (std::int64_t k = 0; k <= g.steps(); ++k) {
          g.step(k, steps[static_cast<std::size_t>(k)]);
        }
        for (const auto& s : steps)
          window.push_back(&s);
        ValidationOptions opt;
        opt.tags_within_step = true;
        const ValidationReport r = validate_schedule(g.grid().size(), window, opt);
        EXPECT_TRUE(r.ok()) << code_facts(code).name << " depth " << depth << ": " << r.summary();
      }
}

TEST(HplPfactDevice, FastModesCollectivePanelIsOneOpThatKnowsItIsOnTheGpu) {
  // Fast mode's collective panel factorization of a GPU panel: the owner's
  // whole part is one Exchange op whose shape says where it runs and whether
  // the code brackets each exchange with flag copies.
  for (HplCode code : {HplCode::Rochpl7, HplCode::Nvidia}) {
    HplConfig c = gpu_config(code);
    c.pivot_collective = true;
    c.panel_collective = true;
    const OwnerOps o = owner_ops(c);
    EXPECT_EQ(o.gpu_pfact + o.d2h + o.h2d + o.host_sends + o.device_sends, 0) << code_facts(code).name;
    const HplScheduleGenerator g(c);
    StepSchedule s;
    g.step(3, s);
    const RankProgram* owner = program_of(s, g.grid().rank(0, 0));
    ASSERT_NE(owner, nullptr);
    int panels = 0;
    for (const Op& op : owner->ops())
      if (op.has_exchange() && op.exchange().has_panel()) {
        ++panels;
        EXPECT_TRUE(op.exchange().panel().device());
        EXPECT_EQ(op.exchange().panel().host_flag(), code == HplCode::Rochpl7);
        EXPECT_EQ(op.exchange().jb(), 32);
      }
    EXPECT_EQ(panels, 1) << code_facts(code).name;
  }
}

TEST(HplCode, IgnoredLinesAreTheOnesTheCodeDoesNotRead) {
  const std::vector<std::string> set = {"pfact", "nbmin", "bcast", "swap", "depth"};
  EXPECT_TRUE(ignored_lines(HplCode::Rochpl7, set).empty());
  EXPECT_EQ(ignored_lines(HplCode::Nvidia, set),
            (std::vector<std::string>{"pfact", "nbmin", "bcast", "depth"}));
  EXPECT_THROW(ignored_lines(HplCode::Netlib23, {"bcats"}), std::invalid_argument);
}

TEST(HplCode, AGpuCodeNeedsTheGpuPieces) {
  HplConfig c = gpu_config(HplCode::Rochpl7);
  c.gpu = false;
  EXPECT_THROW(HplScheduleGenerator{c}, std::invalid_argument);
}
