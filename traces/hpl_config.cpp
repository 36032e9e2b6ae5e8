#include "traces/hpl_config.hpp"

#include <limits>
#include <stdexcept>

namespace hplsim::traces {

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& expected, const std::string& actual) {
  throw std::invalid_argument("HplConfig." + field + " must be " + expected + ", got " + actual);
}

} // namespace

void validate(const HplConfig& c) {
  if (c.n < 1) bad("n", ">= 1", std::to_string(c.n));
  if (c.nb < 1) bad("nb", ">= 1", std::to_string(c.nb));
  // HPL indexes local arrays with int; keep every global index in int range too.
  if (c.n > std::numeric_limits<std::int32_t>::max() - c.nb)
    bad("n", "<= 2^31 - 1 - nb", std::to_string(c.n));
  if (c.p < 1) bad("p", ">= 1", std::to_string(c.p));
  if (c.q < 1) bad("q", ">= 1", std::to_string(c.q));
  if (static_cast<std::int64_t>(c.p) * c.q > std::numeric_limits<std::int32_t>::max())
    bad("p * q", "<= 2^31 - 1", std::to_string(static_cast<std::int64_t>(c.p) * c.q));
  if (c.depth != 0 && c.depth != 1) bad("depth", "0 or 1", std::to_string(c.depth));
  if (c.nbmin < 1) bad("nbmin", ">= 1", std::to_string(c.nbmin));
  if (c.ndiv < 2) bad("ndiv", ">= 2", std::to_string(c.ndiv));
  if (c.swap_threshold < 0) bad("swap_threshold", ">= 0", std::to_string(c.swap_threshold));
  if (c.pivot_group < 1) bad("pivot_group", ">= 1", std::to_string(c.pivot_group));
  if (c.swap_roll_group < 1 || (c.swap_roll_group > 1 && c.swap_roll_group % 2 != 0))
    bad("swap_roll_group", "1 or even", std::to_string(c.swap_roll_group));
  if (code_facts(c.code).needs_gpu && !c.gpu)
    bad("code", "a CPU code (netlib-2.3) when gpu is false", code_facts(c.code).name);
  if (c.host_staged && !c.gpu) bad("host_staged", "false when gpu is false", "true");
  // The collective prices the panel's CPU kernels as if the rank's core did
  // nothing else meanwhile: true when the updates run on the GPUs.
  if (c.panel_collective && !c.gpu) bad("panel_collective", "false when gpu is false", "true");
  if (!(c.gpu_split_fraction >= 0.0 && c.gpu_split_fraction <= 1.0))
    bad("gpu_split_fraction", "in [0, 1]", std::to_string(c.gpu_split_fraction));
}

std::string to_string(HplConfig::Pfact pfact) {
  switch (pfact) {
  case HplConfig::Pfact::Right:
    return "right";
  case HplConfig::Pfact::Left:
    return "left";
  case HplConfig::Pfact::Crout:
    return "crout";
  }
  return "?";
}

std::string to_string(HplConfig::Bcast bcast) {
  switch (bcast) {
  case HplConfig::Bcast::OneRing:
    return "1ring";
  case HplConfig::Bcast::OneRingM:
    return "1ringM";
  case HplConfig::Bcast::TwoRing:
    return "2ring";
  case HplConfig::Bcast::TwoRingM:
    return "2ringM";
  case HplConfig::Bcast::Blong:
    return "blong";
  case HplConfig::Bcast::BlongM:
    return "blongM";
  }
  return "?";
}

std::string to_string(HplConfig::Swap swap) {
  switch (swap) {
  case HplConfig::Swap::BinaryExchange:
    return "binary-exchange";
  case HplConfig::Swap::SpreadRoll:
    return "spread-roll";
  case HplConfig::Swap::Mix:
    return "mix";
  }
  return "?";
}

std::string to_string(HplConfig::PanelExchange exchange) {
  switch (exchange) {
  case HplConfig::PanelExchange::P2P:
    return "p2p";
  case HplConfig::PanelExchange::Hybrid:
    return "hybrid";
  case HplConfig::PanelExchange::Collective:
    return "collective";
  }
  return "?";
}

std::string to_string(HplConfig::TimerRule rule) {
  switch (rule) {
  case HplConfig::TimerRule::Netlib:
    return "netlib";
  case HplConfig::TimerRule::RocHpl:
    return "rochpl";
  case HplConfig::TimerRule::HplGpu:
    return "hpl_gpu";
  case HplConfig::TimerRule::AsyncBcast:
    return "async_bcast";
  }
  return "?";
}

} // namespace hplsim::traces
