#pragma once
// What this process holds in memory, read from Linux's /proc and getrusage:
// the figures fast mode's memory bound is made of (sim/report/report.hpp,
// peak_rss_bound_bytes; docs/fast-mode.md, "What a run costs").
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace hplsim::sim {

/// Of /proc/self/smaps_rollup, in bytes.
struct MemoryRollup {
  double rss_bytes = 0.0;
  double shared_bytes = 0.0;    // Shared_Clean + Shared_Dirty: pages another process maps too
  double private_bytes = 0.0;   // Private_Clean + Private_Dirty
  double anonymous_bytes = 0.0; // Anonymous: pages of no file (the heap, stacks, copied-on-write data)
  /// Anonymous pages another process maps too, at least: the private pages
  /// may all be anonymous. (Shared file pages, a library's code, can be shared
  /// with any process; shared anonymous ones only with this one's parent and
  /// its other children, for a process that forks nothing.)
  double shared_anonymous_bytes() const { return std::max(0.0, anonymous_bytes - private_bytes); }
};

/// Parses smaps_rollup's text ("Rss:  1616 kB" lines); nullopt when a field
/// it needs is missing.
std::optional<MemoryRollup> parse_memory_rollup(const std::string& text);
/// This process's; nullopt when /proc/self/smaps_rollup cannot be read
/// (no /proc, a kernel before 4.14).
std::optional<MemoryRollup> memory_rollup();

/// Page faults this process has taken so far (getrusage: minor + major).
std::uint64_t page_faults();

/// The system's page size in bytes.
double page_size_bytes();

} // namespace hplsim::sim
