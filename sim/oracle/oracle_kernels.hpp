#pragma once
// The kernel prices of an SMPI oracle run: netlib HPL's BLAS and auxiliary
// kernels, hooked in xhpl (scripts/oracle/hpl_hooks.c), are charged here the
// seconds hplsim's kernel model gives for the same shape, with the CPU
// threading hplsim's replay uses for the phase (sim/engine/rank_kernels.cpp,
// compute()), and executed on the calling rank's host as hplsim's replay
// executes a CPU kernel. The C functions are the hooks' whole interface.
#include <cstdint>

#include "traces/schedule.pb.h"

extern "C" {
/// Seconds one call costs: kernel and phase are traces::Kernel and
/// traces::Phase values, m, n, k the shape as in traces/schedule.proto.
double hplsim_oracle_seconds(int kernel, int phase, std::int64_t m, std::int64_t n, std::int64_t k);
/// Executes `share` (0 < share <= 1) of those seconds on the calling SMPI
/// rank's host and adds them to the rank's totals (written to
/// HPLSIM_ORACLE_REPORT when the simulation ends). A share below 1 is one of
/// the chunks HPL cuts an update into while it polls the broadcast, where
/// hplsim has one op for the whole update.
void hplsim_oracle_kernel(int kernel, int phase, std::int64_t m, std::int64_t n, std::int64_t k,
                          double share);
}
