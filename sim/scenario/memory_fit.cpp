#include "sim/scenario/memory_fit.hpp"

#include <sstream>
#include <stdexcept>

#include "sim/support/errors.hpp"
#include "traces/mxp_config.hpp"

namespace hplsim::sim {

namespace {

models::HplSwap swap_of(SwapAlgo s) {
  switch (s) {
  case SwapAlgo::BinaryExchange:
    return models::HplSwap::BinaryExchange;
  case SwapAlgo::SpreadRoll:
    return models::HplSwap::SpreadRoll;
  case SwapAlgo::Mix:
    break;
  }
  return models::HplSwap::Mix;
}

bool declared(const ResolvedScenario& sc) {
  const auto& node = sc.machine.node;
  return node.gpus_per_node() > 0 ? node.gpu_memory_bytes.has_value() : node.host_memory_bytes.has_value();
}

} // namespace

models::MemoryInputs memory_inputs(const ResolvedScenario& sc) {
  const auto& w = sc.workload;
  const auto& node = sc.machine.node;
  models::MemoryInputs in;
  in.n = w.n;
  in.nb = w.nb;
  in.p = w.p;
  in.q = w.q;
  in.depth = w.depth;
  in.swap = swap_of(w.hpl.swap);
  in.swap_threshold = w.hpl.swap_threshold_columns;
  const bool gpu = node.gpus_per_node() > 0;
  in.placement = gpu ? models::MatrixPlacement::Device : models::MatrixPlacement::Host;
  in.gpus_per_rank = gpu ? w.gpus_per_rank() : 1;
  in.ranks_per_node = w.ranks_per_node;
  in.device_memory_bytes = node.gpu_memory_bytes.value_or(0.0);
  in.host_memory_bytes_per_node = node.host_memory_bytes;
  in.host_staged_messages = gpu && !sc.machine.placement.gpu_aware_mpi;
  in.unified_memory = gpu && node.unified_memory;
  if (w.benchmark == Benchmark::HplMxp) {
    // HPL-MxP's storage precision as the schedule uses it (sim/workload/schedule_source.cpp: BF16).
    in.layout = models::MemoryLayout::HplMxp;
    in.matrix_element_bytes = in.panel_element_bytes = traces::precision_bytes(traces::BF16);
  }
  return in;
}

std::optional<models::MemoryFootprint> memory_footprint(const ResolvedScenario& sc) {
  if (!declared(sc)) return std::nullopt;
  try {
    return models::memory_footprint(memory_inputs(sc));
  } catch (const std::overflow_error& e) {
    throw ScenarioError(sc.path + ": workload.n " + std::to_string(sc.workload.n) +
                        ": the matrix's size overflows 64-bit byte counts (" + e.what() + ")");
  }
}

std::optional<bool> fits_in_memory(const ResolvedScenario& sc) {
  const auto f = memory_footprint(sc);
  if (!f) return std::nullopt;
  return f->fits;
}

std::optional<std::string> memory_refusal(const ResolvedScenario& sc) {
  const auto f = memory_footprint(sc);
  if (!f || f->fits || sc.options.allow_memory_oversubscription) return std::nullopt;
  const std::int64_t largest = largest_fitting_n(sc).value_or(0);
  const std::string grid = std::to_string(sc.workload.p) + " x " + std::to_string(sc.workload.q);
  const std::string nb = models::grouped(sc.workload.nb);
  return "the run does not fit in memory: " + f->explanation + " " +
         (largest > 0 ? "The largest N that fits is " + models::grouped(largest) + " (at NB " + nb +
                            ", P x Q " + grid + ")."
                      : "No N fits at NB " + nb + ", P x Q " + grid + ".") +
         " Real HPL would fail to allocate it; to simulate it anyway, set "
         "options.allow_memory_oversubscription or pass --allow-oversubscription.";
}

void check_memory_fits(const ResolvedScenario& sc) {
  if (const auto refusal = memory_refusal(sc)) throw ScenarioError(sc.path + ": " + *refusal);
}

std::string memory_report(const ResolvedScenario& sc) {
  const auto f = memory_footprint(sc);
  if (!f) {
    const bool gpu = sc.machine.node.gpus_per_node() > 0;
    return std::string("memory: not modelled (the scenario declares no ") +
           (gpu ? "machine.node.gpu_memory_bytes" : "machine.node.host_memory_bytes") + ")";
  }
  std::ostringstream out;
  out << "memory: " << f->explanation;
  if (const auto n = largest_fitting_n(sc)) out << "\nlargest N that fits (a multiple of NB): " << *n;
  return out.str();
}

std::optional<std::int64_t> largest_fitting_n(const ResolvedScenario& sc, std::optional<double> fraction) {
  if (!declared(sc)) return std::nullopt;
  return models::largest_fitting_n(memory_inputs(sc), fraction);
}

std::optional<std::int64_t> fit_n_to_memory(const ResolvedScenario& sc) {
  if (!memory_refusal(sc)) return std::nullopt;
  const auto fits = largest_fitting_n(sc);
  if (fits && *fits >= sc.workload.nb && *fits < sc.workload.n) return fits;
  return std::nullopt;
}

} // namespace hplsim::sim
