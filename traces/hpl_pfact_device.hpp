#pragma once
// Panel factorization on the GPU (rocHPL 7, src/pfact/HPL_pdpan*N_device.cpp
// and HPL_pdrpan*N.cpp from ROCm/rocHPL v7.0.0; NVIDIA HPL): the recursion of
// traces/hpl_pfact.hpp with its DTRSM/DGEMM as GPU BLAS calls, and each leaf
// (<= NBMIN columns) as one persistent cooperative kernel whose per-column work
// (swap, scale, rank-1 update of the leaf's other columns) is one GPU
// KERNEL_PFACT_COLUMN (record gpu.pfact.<precision>: its launch overhead
// stands for the kernel's grid-wide barrier per column). Each column's pivot
// candidates meet as HplCodeFacts::pivots says:
//   HostFlag (rocHPL 7): block 0 writes the candidate row to host-visible
//     memory and raises a flag (a D2H copy of 4 + jb doubles), a host thread
//     runs HPL_pdmxswp (the messages of traces/hpl_pfact.hpp, host buffers)
//     and hands the winner back (an H2D copy of 4 + 2 jb doubles);
//   DeviceInitiated (NVIDIA): the same exchange as GPU-initiated messages
//     from device buffers (NVSHMEM), no host round trip.
// While column c+1's pivots are exchanged the kernel finishes column c's
// update (the exchange overlaps the previous column's work).
#include "traces/comm_pattern.hpp"
#include "traces/hpl_config.hpp"
#include "traces/hpl_pfact.hpp"

namespace hplsim::traces {

/// Appends process row `myrow`'s part of the GPU factorization of the panel.
void emit_panel_factorization_device(ProgramBuilder& b, const Communicator& column, int myrow,
                                     const PanelGeometry& g, const HplConfig& config);

} // namespace hplsim::traces
