#pragma once
// The HPL codes whose step structure the generator replays, and the facts of
// each: where the panel is factored and what it overlaps or is serialized
// with, how the pivots of a panel column travel, which HPL.dat lines the code
// honours, and the timer a wait for a not-yet-arrived panel lands in. One page
// per code with its sources and marks: docs/codes/<name>.md.
//
// The step is built from per-code pieces: hpl_pfact.cpp (the panel on the CPU
// cores, HPL_pdpan*N.c) beside hpl_pfact_device.cpp (the panel on the GPU,
// rocHPL's HPL_pdpan*N_device.cpp), chosen by HplCodeFacts::panel.
#include <string>
#include <vector>

namespace hplsim::traces {

enum class HplCode { Netlib23, IntelGpu, Rochpl6, Rochpl7, Nvidia };

/// Where a code factors the panel.
enum class PanelPlace {
  /// On the rank's CPU cores. On a GPU machine the panel is copied to the host
  /// and back, and factored while the GPU updates the trailing matrix.
  Cpu,
  /// On the GPU, queued on the compute stream between the look-ahead update and
  /// the trailing update: serialized with the update, overlapping only MPI.
  GpuSerial,
  /// On the GPU on a few SMs of its own, beside the trailing update (which runs
  /// on the GPU's other SMs meanwhile).
  GpuBeside,
};

/// How the pivot candidates of one panel column meet.
enum class PivotPath {
  /// HPL_pdmxswp's binary exchange from host buffers, issued by the CPU.
  Host,
  /// rocHPL 7: the GPU kernel writes the candidate row to host-visible memory
  /// and raises a flag; a host thread runs HPL_pdmxswp and writes the winner
  /// back (a device-to-host and a host-to-device round trip per column).
  HostFlag,
  /// NVIDIA: GPU-initiated messages (NVSHMEM) from device buffers, no host.
  DeviceInitiated,
};

struct HplCodeFacts {
  const char* name;  ///< "rochpl-7": the scenario's value in lower case, the docs page's name
  const char* title; ///< "rocHPL 7 (GPU panel)"
  bool needs_gpu;
  PanelPlace panel;
  PivotPath pivots;
  /// HPL.dat lines the code reads: BCAST, PFACT/RFACT/NBMIN/NDIV, DEPTH, SWAP
  /// and its threshold. A line it does not read is reported, never applied.
  bool honours_bcast, honours_pfact, honours_depth, honours_swap;
  /// The timer around the first call that blocks on a panel that has not
  /// arrived yet: the phase such a wait is charged to in the code's own
  /// timing output ("update" netlib HPL_pdupdateTT.c, "lbcast" rocHPL
  /// HPL_pdpanel_bcast.cpp, "bcast" HPL-GPU HPL_pdgesv.c, "swap" the hypothesis
  /// for Intel's closed code). THE CODE'S DEFAULT TIMER RULE: the workload's
  /// timer rule, when the scenario leaves it unset, is this value.
  const char* default_timer_rule;
};

const HplCodeFacts& code_facts(HplCode code);

/// The HPL.dat lines among `set_lines` ("pfact", "nbmin", "ndiv", "bcast",
/// "swap", "swap_threshold", "depth") that `code` does not read.
std::vector<std::string> ignored_lines(HplCode code, const std::vector<std::string>& set_lines);

} // namespace hplsim::traces
