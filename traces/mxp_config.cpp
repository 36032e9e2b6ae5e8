#include "traces/mxp_config.hpp"

#include <limits>
#include <stdexcept>

namespace hplsim::traces {

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& expected, const std::string& actual) {
  throw std::invalid_argument("MxpConfig." + field + " must be " + expected + ", got " + actual);
}

} // namespace

void validate(const MxpConfig& c) {
  if (c.n < 1) bad("n", ">= 1", std::to_string(c.n));
  if (c.nb < 1) bad("nb", ">= 1", std::to_string(c.nb));
  if (c.n > std::numeric_limits<std::int32_t>::max() - c.nb)
    bad("n", "<= 2^31 - 1 - nb", std::to_string(c.n));
  if (c.p < 1) bad("p", ">= 1", std::to_string(c.p));
  if (c.q < 1) bad("q", ">= 1", std::to_string(c.q));
  if (static_cast<std::int64_t>(c.p) * c.q > std::numeric_limits<std::int32_t>::max())
    bad("p * q", "<= 2^31 - 1", std::to_string(static_cast<std::int64_t>(c.p) * c.q));
  if (c.depth != 0 && c.depth != 1) bad("depth", "0 or 1", std::to_string(c.depth));
  if (c.gpus_per_rank < 1) bad("gpus_per_rank", ">= 1", std::to_string(c.gpus_per_rank));
  if (c.storage != BF16 && c.storage != FP16 && c.storage != FP32)
    bad("storage", "BF16, FP16 or FP32", Precision_Name(c.storage));
  if (c.bcast_chunk_bytes < 0) bad("bcast_chunk_bytes", ">= 0", std::to_string(c.bcast_chunk_bytes));
  if (c.refinement_iterations < 1 || c.refinement_iterations > 50)
    bad("refinement_iterations", "in [1, 50]", std::to_string(c.refinement_iterations));
}

std::string to_string(MxpConfig::Refinement refinement) {
  return refinement == MxpConfig::Refinement::Gmres ? "gmres" : "classical";
}

std::int64_t precision_bytes(Precision precision) {
  switch (precision) {
  case FP64:
    return 8;
  case FP32:
    return 4;
  case BF16:
  case FP16:
    return 2;
  }
  return 8;
}

} // namespace hplsim::traces
