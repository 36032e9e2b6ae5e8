// Variability: determinism, lognormal moments, exact degraded count, rates file.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <numeric>
#include <stdexcept>

#include "models/random_draws.hpp"
#include "models/random_streams.hpp"
#include "models/variability.hpp"
#include "test_files.hpp"

namespace hm = hplsim::models;

namespace {

hm::VariabilityParams params(double node_cv, double gpu_cv, double jitter_cv = 0.0) {
  hm::VariabilityParams p;
  p.set_node_rate_cv(node_cv);
  p.set_gpu_rate_cv(gpu_cv);
  p.set_kernel_jitter_cv(jitter_cv);
  return p;
}

struct Moments {
  double mean, cv;
};

Moments moments(const std::vector<double>& v) {
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  double ss = 0.0;
  for (double x : v)
    ss += (x - mean) * (x - mean);
  return {mean, std::sqrt(ss / static_cast<double>(v.size() - 1)) / mean};
}

} // namespace

TEST(Variability, SameSeedGivesSameFactors) {
  const hm::Variability a(params(0.05, 0.02), 500, 6, 42, "");
  const hm::Variability b(params(0.05, 0.02), 500, 6, 42, "");
  EXPECT_EQ(a.node_factors(), b.node_factors()); // bit-identical
  for (int n = 0; n < 500; n += 37)
    for (int g = 0; g < 6; ++g)
      EXPECT_EQ(a.gpu_factor(n, g), b.gpu_factor(n, g));
}

TEST(Variability, DifferentSeedGivesDifferentFactors) {
  const hm::Variability a(params(0.05, 0.0), 100, 0, 1, "");
  const hm::Variability b(params(0.05, 0.0), 100, 0, 2, "");
  EXPECT_NE(a.node_factors(), b.node_factors());
}

TEST(Variability, ZeroCvGivesNominalRates) {
  const hm::Variability v(params(0.0, 0.0), 10, 2, 7, "");
  for (int n = 0; n < 10; ++n) {
    EXPECT_EQ(v.node_factor(n), 1.0);
    EXPECT_EQ(v.gpu_factor(n, 1), 1.0);
  }
  EXPECT_FALSE(v.has_jitter());
}

TEST(Variability, NodeFactorsHaveMeanOneAndTheRequestedCv) {
  // 20,000 lognormal draws, cv 0.05: standard error of the mean 0.05/sqrt(2e4) =
  // 3.5e-4 (tolerance 2e-3, ~5 sigma); of the cv ~0.05/sqrt(4e4) = 2.5e-4 (tolerance 2.5e-3).
  const hm::Variability v(params(0.05, 0.0), 20000, 0, 3, "");
  const Moments m = moments(v.node_factors());
  EXPECT_NEAR(m.mean, 1.0, 2e-3);
  EXPECT_NEAR(m.cv, 0.05, 2.5e-3);
}

TEST(Variability, GpuFactorIncludesNodeFactor) {
  const hm::Variability v(params(0.1, 0.0), 50, 4, 5, "");
  for (int n = 0; n < 50; ++n)
    EXPECT_EQ(v.gpu_factor(n, 3), v.node_factor(n));
}

TEST(Variability, ChangingGpuCvLeavesNodeFactorsUnchanged) {
  // Separate streams for node and GPU draws.
  const hm::Variability a(params(0.05, 0.0), 100, 6, 9, "");
  const hm::Variability b(params(0.05, 0.3), 100, 6, 9, "");
  EXPECT_EQ(a.node_factors(), b.node_factors());
}

TEST(Variability, DegradedCountIsExactRoundOfFraction) {
  hm::VariabilityParams p = params(0.0, 0.0);
  p.set_degraded_fraction(0.013);
  p.set_degraded_rate_factor(0.5);
  const hm::Variability v(p, 1000, 0, 11, "");
  int degraded = 0;
  for (int n = 0; n < 1000; ++n) {
    if (v.is_degraded(n)) {
      ++degraded;
      EXPECT_EQ(v.node_factor(n), 0.5);
    } else {
      EXPECT_EQ(v.node_factor(n), 1.0);
    }
  }
  EXPECT_EQ(degraded, 13); // round(0.013 * 1000)
}

TEST(Variability, DegradedNodesDependOnSeed) {
  hm::VariabilityParams p = params(0.0, 0.0);
  p.set_degraded_fraction(0.1);
  p.set_degraded_rate_factor(0.5);
  const hm::Variability a(p, 100, 0, 1, ""), b(p, 100, 0, 2, ""), c(p, 100, 0, 1, "");
  EXPECT_NE(a.node_factors(), b.node_factors());
  EXPECT_EQ(a.node_factors(), c.node_factors());
}

TEST(Variability, JitterHasMeanOne) {
  const hm::Variability v(params(0.0, 0.0, 0.1), 1, 0, 1, "");
  ASSERT_TRUE(v.has_jitter());
  std::mt19937_64 rng(123);
  std::vector<double> draws;
  for (int i = 0; i < 20000; ++i)
    draws.push_back(v.kernel_jitter(rng));
  const Moments m = moments(draws);
  EXPECT_NEAR(m.mean, 1.0, 3e-3); // 0.1/sqrt(2e4) = 7e-4 standard error, ~4 sigma
  EXPECT_NEAR(m.cv, 0.1, 5e-3);
  for (double d : draws)
    EXPECT_GT(d, 0.0);
}

TEST(Variability, NoJitterDrawsNothing) {
  const hm::Variability v(params(0.0, 0.0, 0.0), 1, 0, 1, "");
  std::mt19937_64 rng(5), untouched(5);
  EXPECT_EQ(v.kernel_jitter(rng), 1.0);
  EXPECT_EQ(rng(), untouched());
}

TEST(Variability, ReadsNodeRatesFileRelativeToBaseDir) {
  const std::string path =
      hplsim::models::testing::write_scratch_file(".rates", "# measured\n1.0\n0.95  # slow\n\n1.02\n0.9\n");
  hm::VariabilityParams p;
  const std::filesystem::path full(path);
  p.set_node_rates_file(full.filename().string());
  const hm::Variability v(p, 3, 1, 1, full.parent_path().string());
  EXPECT_EQ(v.node_factor(1), 0.95);
  EXPECT_EQ(v.node_factor(2), 1.02); // the 4th factor is unused: 3 nodes
  EXPECT_EQ(v.gpu_factor(1, 0), 0.95);
}

TEST(Variability, RatesFileErrorNamesLine) {
  const std::string path = hplsim::models::testing::write_scratch_file(".rates", "1.0\n# c\nfast\n");
  hm::VariabilityParams p;
  p.set_node_rates_file(path);
  try {
    const hm::Variability v(p, 1, 0, 1, "");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":3:"), std::string::npos) << e.what();
  }
}

TEST(Variability, RatesFileRejectsNonPositiveFactor) {
  const std::string path = hplsim::models::testing::write_scratch_file(".rates", "1.0\n0\n");
  hm::VariabilityParams p;
  p.set_node_rates_file(path);
  EXPECT_THROW(hm::Variability(p, 2, 0, 1, ""), std::invalid_argument);
}

TEST(Variability, RatesFileRejectsTooFewFactors) {
  const std::string path = hplsim::models::testing::write_scratch_file(".rates", "1.0\n0.9\n");
  hm::VariabilityParams p;
  p.set_node_rates_file(path);
  EXPECT_THROW(hm::Variability(p, 3, 0, 1, ""), std::invalid_argument);
}

TEST(Variability, RatesFileExcludesNodeCv) {
  const std::string path = hplsim::models::testing::write_scratch_file(".rates", "1.0\n");
  hm::VariabilityParams p = params(0.05, 0.0);
  p.set_node_rates_file(path);
  EXPECT_THROW(hm::Variability(p, 1, 0, 1, ""), std::invalid_argument);
}

TEST(Variability, RejectsNegativeCv) {
  EXPECT_THROW(hm::Variability(params(-0.1, 0.0), 1, 0, 1, ""), std::invalid_argument);
}

TEST(Variability, RejectsDegradedFractionAboveOne) {
  hm::VariabilityParams p;
  p.set_degraded_fraction(1.5);
  p.set_degraded_rate_factor(0.5);
  EXPECT_THROW(hm::Variability(p, 1, 0, 1, ""), std::invalid_argument);
}

TEST(Variability, RejectsDegradedFractionWithoutFactor) {
  hm::VariabilityParams p;
  p.set_degraded_fraction(0.1);
  EXPECT_THROW(hm::Variability(p, 10, 0, 1, ""), std::invalid_argument);
}

TEST(Variability, RejectsDegradedFactorAboveOne) {
  hm::VariabilityParams p;
  p.set_degraded_fraction(0.1);
  p.set_degraded_rate_factor(1.5);
  EXPECT_THROW(hm::Variability(p, 10, 0, 1, ""), std::invalid_argument);
}

TEST(Variability, NodeIndexOutOfRange) {
  const hm::Variability v(params(0.0, 0.0), 4, 2, 1, "");
  EXPECT_THROW(v.node_factor(4), std::out_of_range);
  EXPECT_THROW(v.gpu_factor(0, 2), std::out_of_range);
}

TEST(RandomDraws, StandardNormalIsBoxMullerOfTwoDraws) {
  // Definition check: z = sqrt(-2 ln u1) cos(2 pi u2), u = ((x >> 11) + 1) / 2^53.
  std::mt19937_64 a(2024), b(2024);
  const double u1 = (static_cast<double>(b() >> 11) + 1.0) * 0x1.0p-53;
  const double u2 = (static_cast<double>(b() >> 11) + 1.0) * 0x1.0p-53;
  EXPECT_DOUBLE_EQ(hm::standard_normal(a),
                   std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2));
}

TEST(RandomDraws, StandardNormalMoments) {
  // 100,000 draws: mean within 0.015 (~5 standard errors of 0.0032), variance within 0.02.
  std::mt19937_64 rng(77);
  std::vector<double> z;
  for (int i = 0; i < 100000; ++i)
    z.push_back(hm::standard_normal(rng));
  const double mean = std::accumulate(z.begin(), z.end(), 0.0) / 1e5;
  double var = 0.0;
  for (double x : z)
    var += (x - mean) * (x - mean);
  EXPECT_NEAR(mean, 0.0, 0.015);
  EXPECT_NEAR(var / (1e5 - 1), 1.0, 0.02);
}

TEST(RandomDraws, UniformIndexStaysInRange) {
  std::mt19937_64 rng(1);
  std::vector<int> counts(7, 0);
  for (int i = 0; i < 7000; ++i)
    ++counts[hm::uniform_index(rng, 7)];
  for (int c : counts)
    EXPECT_NEAR(c, 1000, 150); // binomial sd ~ 29: 5 sigma
}

TEST(RandomDraws, KeyedLognormalHasMeanOneAndTheRequestedCv) {
  // 20,000 keys of one node's steps: the moments of L(0.1), as JitterHasMeanOne.
  std::vector<double> draws;
  for (int step = 0; step < 20000; ++step)
    draws.push_back(hm::keyed_lognormal_mean1(hm::RandomStreams::node_step_key(9, 3, step), 0.1));
  const Moments m = moments(draws);
  EXPECT_NEAR(m.mean, 1.0, 3e-3); // standard error 7e-4: ~4 sigma
  EXPECT_NEAR(m.cv, 0.1, 5e-3);
  for (double d : draws)
    EXPECT_GT(d, 0.0);
}

TEST(RandomDraws, KeyedLognormalHasTheLognormalCvAtCvOne) {
  // At cv 1, sigma^2 = ln 2: a draw with sigma = cv (instead of sqrt(ln(1 + cv^2)))
  // would give a cv of sqrt(e - 1) = 1.31. 200,000 keys; the sample cv of a
  // lognormal this wide converges slowly, hence the 5% tolerance.
  std::vector<double> draws;
  for (int step = 0; step < 200000; ++step)
    draws.push_back(hm::keyed_lognormal_mean1(hm::RandomStreams::node_step_key(11, 0, step), 1.0));
  const Moments m = moments(draws);
  EXPECT_NEAR(m.mean, 1.0, 0.015); // standard error 1 / sqrt(2e5) = 2.2e-3: ~7 sigma
  EXPECT_NEAR(m.cv, 1.0, 0.05);
}

TEST(RandomDraws, KeyedLognormalIsAFunctionOfTheKeyAlone) {
  const std::uint64_t key = hm::RandomStreams::node_step_key(9, 3, 17);
  EXPECT_EQ(hm::keyed_lognormal_mean1(key, 0.2), hm::keyed_lognormal_mean1(key, 0.2)); // bit-identical
  EXPECT_NE(key, hm::RandomStreams::node_step_key(9, 4, 17));                          // another node
  EXPECT_NE(key, hm::RandomStreams::node_step_key(9, 3, 18));                          // another step
  EXPECT_NE(key, hm::RandomStreams::node_step_key(10, 3, 17));                         // another seed
  EXPECT_EQ(hm::keyed_lognormal_mean1(key, 0.0), 1.0);
}

TEST(Variability, RejectsNegativeNodeGpuStepCv) {
  hm::VariabilityParams p = params(0.0, 0.0);
  p.set_node_gpu_step_cv(-0.1);
  EXPECT_THROW(hm::Variability(p, 1, 0, 1, ""), std::invalid_argument);
}
