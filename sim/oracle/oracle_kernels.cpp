#include "sim/oracle/oracle_kernels.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/platform_spec.hpp"
#include "sim/oracle/kernel_totals.hpp"
#include "sim/oracle/oracle_machine.hpp"

namespace hplsim::sim {
namespace {

// Per rank: what the hooks charged (SMPI runs every rank in this one
// process, on one thread, so no locking is needed).
std::vector<RankKernelTotals>& totals() {
  static std::vector<RankKernelTotals> t;
  return t;
}

void write_report() {
  const OracleMachine& m = oracle_machine();
  if (m.report_path.empty()) return;
  try {
    write_kernel_totals(totals(), m.report_path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
  }
}

int calling_rank() {
  const std::string& name = simgrid::s4u::this_actor::get_host()->get_name();
  if (name.size() < 2 || name[0] != 'r')
    throw std::runtime_error(
        "hplsim oracle: a kernel ran on host " + name +
        ", not a rank's CPU host r<rank> (pass smpirun the hostfile the harness writes)");
  return std::stoi(name.substr(1));
}

double price(int kernel, int phase, std::int64_t m, std::int64_t n, std::int64_t k) {
  if (!traces::Kernel_IsValid(kernel) || !traces::Phase_IsValid(phase))
    throw std::invalid_argument("hplsim oracle: kernel " + std::to_string(kernel) + ", phase " +
                                std::to_string(phase) + " are not traces::Kernel/Phase values");
  const OracleMachine& mach = oracle_machine();
  const models::KernelShape shape{static_cast<traces::Kernel>(kernel), traces::CPU, traces::FP64, m, n, k};
  return mach.kernels->seconds(shape, mach.options.threading_for(static_cast<traces::Phase>(phase)));
}

[[noreturn]] void fail(const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  std::exit(2);
}

} // namespace
} // namespace hplsim::sim

extern "C" double hplsim_oracle_seconds(int kernel, int phase, std::int64_t m, std::int64_t n,
                                        std::int64_t k) {
  try {
    return hplsim::sim::price(kernel, phase, m, n, k);
  } catch (const std::exception& e) {
    hplsim::sim::fail(e);
  }
}

extern "C" void hplsim_oracle_kernel(int kernel, int phase, std::int64_t m, std::int64_t n, std::int64_t k,
                                     double share) {
  using namespace hplsim::sim;
  try {
    static std::once_flag once;
    std::call_once(once, [] { simgrid::s4u::Engine::on_simulation_end_cb(write_report); });
    if (!(share > 0.0 && share <= 1.0 + 1e-12))
      throw std::invalid_argument("hplsim oracle: share " + std::to_string(share) + " outside (0, 1]");
    const double seconds = price(kernel, phase, m, n, k) * share;
    const int rank = calling_rank();
    auto& t = totals();
    if (static_cast<std::size_t>(rank) >= t.size()) t.resize(static_cast<std::size_t>(rank) + 1);
    auto& total = t[static_cast<std::size_t>(rank)][static_cast<std::size_t>(phase)];
    ++total.calls;
    total.seconds += seconds;
    // As hplsim's replay runs a synchronous CPU kernel (sim/engine/rank_kernels.cpp, compute()).
    if (seconds > 0.0) simgrid::s4u::this_actor::execute(seconds * kWorkUnitsPerSecond);
  } catch (const std::exception& e) {
    fail(e);
  }
}
