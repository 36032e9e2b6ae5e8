#include "traces/hpl_code.hpp"

#include <stdexcept>

namespace hplsim::traces {

namespace {

// Sources and marks: docs/codes/<name>.md.
constexpr HplCodeFacts kNetlib{
    "netlib-2.3", "netlib HPL 2.3", false, PanelPlace::Cpu, PivotPath::Host, true, true, true,
    true,         "update"};
// As Aurora's scenarios run it: rocHPL 6's pieces with Aurora's host staging
// and hybrid pivot reductions (the scenario's panel_exchange).
constexpr HplCodeFacts kIntel{
    "intel-gpu", "Intel GPU HPL (CPU panel)", true, PanelPlace::Cpu, PivotPath::Host, true, true, true, true,
    "swap"};
constexpr HplCodeFacts kRochpl6{
    "rochpl-6", "rocHPL 6 (CPU panel)", true, PanelPlace::Cpu, PivotPath::Host, true, true, true, true,
    "lbcast"};
constexpr HplCodeFacts kRochpl7{"rochpl-7",
                                "rocHPL 7 (GPU panel)",
                                true,
                                PanelPlace::GpuSerial,
                                PivotPath::HostFlag,
                                true,
                                true,
                                true,
                                true,
                                "lbcast"};
// Closed code: its docs say BCAST, PFACT/RFACT/NBMIN/NDIV and DEPTH are not
// read; the timer it charges a late panel to is not published ([U], netlib's).
constexpr HplCodeFacts kNvidia{"nvidia",
                               "NVIDIA HPL (HPC-Benchmarks)",
                               true,
                               PanelPlace::GpuBeside,
                               PivotPath::DeviceInitiated,
                               false,
                               false,
                               false,
                               true,
                               "update"};

} // namespace

const HplCodeFacts& code_facts(HplCode code) {
  switch (code) {
  case HplCode::Netlib23:
    return kNetlib;
  case HplCode::IntelGpu:
    return kIntel;
  case HplCode::Rochpl6:
    return kRochpl6;
  case HplCode::Rochpl7:
    return kRochpl7;
  case HplCode::Nvidia:
    return kNvidia;
  }
  throw std::invalid_argument("code_facts: unknown HPL code " + std::to_string(static_cast<int>(code)));
}

std::vector<std::string> ignored_lines(HplCode code, const std::vector<std::string>& set_lines) {
  const HplCodeFacts& f = code_facts(code);
  std::vector<std::string> out;
  for (const std::string& line : set_lines) {
    bool honoured = true;
    if (line == "bcast")
      honoured = f.honours_bcast;
    else if (line == "pfact" || line == "nbmin" || line == "ndiv")
      honoured = f.honours_pfact;
    else if (line == "depth")
      honoured = f.honours_depth;
    else if (line == "swap" || line == "swap_threshold")
      honoured = f.honours_swap;
    else
      throw std::invalid_argument("ignored_lines: unknown HPL.dat line \"" + line + "\"");
    if (!honoured) out.push_back(line);
  }
  return out;
}

} // namespace hplsim::traces
