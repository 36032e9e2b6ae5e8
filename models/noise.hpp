#pragma once
// System noise: detours that take a CPU core away from the application (a
// timer tick, a per-CPU kernel thread, a daemon). A CPU activity of `work_s`
// seconds that starts at t on a core ends when the core has given it work_s
// seconds outside detours: a detour in progress at t delays its start, and
// each detour that begins before the activity is done stretches it by its
// length (detours that begin during a stretch included). An activity run by
// several threads in step (a panel factorization's columns) is done when its
// slowest core is. This is the model of LogGOPSim's noise traces (Hoefler,
// Schneider, Lumsdaine, SC10; github spcl/LogGOPSim), with detour streams
// drawn per core instead of one trace per rank (docs/noise.md).
//
// Every detour is a function of (seed, source, node, core, time bin) alone
// (counter-based draws: models/random_draws.hpp), so a rank finds the same
// detours on its cores whatever it or others asked before: outputs are
// byte-identical for a seed, and two runs that differ only in a strategy see
// the same noise.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/calibration.pb.h"

namespace hplsim::models {

struct Detour {
  double start_s = 0.0;
  double length_s = 0.0;
  bool operator<(const Detour& o) const { return start_s < o.start_s; }
};

/// A measured detour trace (NoiseSource.trace_file), sorted by start, its
/// starts relative to the trace's beginning; replayed with period span_s.
struct NoiseTrace {
  std::vector<Detour> detours;
  double span_s = 0.0;
};

/// Reads "<start_s> <length_s>" lines ('#' starts a comment). Throws
/// std::runtime_error naming `path`, the line and the field on bad input:
/// a negative or non-numeric value, starts out of order, an empty trace.
NoiseTrace read_noise_trace(const std::string& path);

/// Where a node's cores go: `os_cores` reserved, then `ranks_per_node`
/// blocks of `threads_per_rank` application cores, the rest idle.
struct CoreLayout {
  int cores_per_node = 1;
  int ranks_per_node = 1;
  int threads_per_rank = 1;
  int os_cores = 0;
  /// Cores the job leaves free (reserved or idle): NODE-scope detours run there.
  int spare_cores() const;
  /// The first core of a rank's block (its main thread's core).
  int first_core(int local_rank) const { return os_cores + local_rank * threads_per_rank; }
};

/// The noise of one run: its sources, the loaded traces and the core layout.
struct NoiseConfig {
  NoiseParams params;
  std::vector<NoiseTrace> traces; // parallel to params.sources (empty for the other kinds)
  CoreLayout layout;
  /// Whether any source can delay an application core.
  bool active() const;
};

class NoiseModel {
public:
  NoiseModel(std::shared_ptr<const NoiseConfig> config, std::uint64_t seed);

  bool active() const { return active_; }

  /// When `work_s` seconds of CPU work that start at `start_s` on `core` of
  /// `node` are done.
  double finish_s(int node, int core, double start_s, double work_s) const;
  /// The same work run by `count` threads in step on cores [first_core,
  /// first_core + count): done when the slowest core is.
  double finish_s(int node, int first_core, int count, double start_s, double work_s) const;
  /// finish_s - start_s - work_s for the `threads` first cores of `rank`'s
  /// block (rank = node * ranks_per_node + local rank).
  double rank_delay_s(int rank, int threads, double start_s, double work_s) const;

  /// The detours of `core` of `node` that begin in [from_s, to_s), sorted.
  void detours(int node, int core, double from_s, double to_s, std::vector<Detour>& out) const;

  const CoreLayout& layout() const { return config_->layout; }

private:
  struct Source {
    NoiseSource::Scope scope;
    int kind; // NoiseSource::ProcessCase
    double period_s = 0.0, length_s = 0.0, rate_per_s = 0.0;
    bool exponential = false;
    double bin_s = 0.0;        // Poisson: time bin of the counter-based draws
    double max_length_s = 0.0; // look-back for a detour in progress
    const NoiseTrace* trace = nullptr;
    std::uint64_t key = 0;
  };
  void source_detours(const Source& s, int node, int core, double from_s, double to_s,
                      std::vector<Detour>& out) const;
  /// Poisson detours of one stream (key) in [from_s, to_s); `core_of` >= 0
  /// keeps those a NODE stream puts on that core.
  void poisson_detours(const Source& s, std::uint64_t stream, int core, double from_s, double to_s,
                       std::vector<Detour>& out) const;
  int node_core(std::uint64_t key) const;

  std::shared_ptr<const NoiseConfig> config_;
  std::vector<Source> sources_;
  double look_back_s_ = 0.0;
  bool active_ = false;
};

} // namespace hplsim::models
