#pragma once
// A resource that only one rank's own ops use: the rank's GPU (its kernels) or the
// rank's link between host and GPU memory in one direction (its copies). SimGrid
// would price each op as an activity that every other activity of the machine is
// solved with; nothing else crosses this resource, so its ops are priced here, by
// the rule SimGrid applies to one resource (docs/replay.md, "Private resources"):
//
// - a job first waits out its latency without using the resource;
// - then the jobs in progress share the capacity equally (max-min fairness), a job
//   taking at most its bound, what a bounded job leaves going to the others.
//
// Only the rank starts jobs, so while it waits for one nothing new arrives: the
// time a job completes is known when the rank asks for it.
#include <cstdint>
#include <vector>

namespace hplsim::sim {

class PrivateResource {
public:
  /// `capacity_per_s`: units (work or bytes) per second, > 0.
  explicit PrivateResource(double capacity_per_s);

  /// Starts a job of `amount` units at `now_s` (not earlier than the last start or
  /// completion asked for): `latency_s` without using the resource, then at most
  /// `bound_per_s` (<= 0: no bound). Returns its id.
  std::uint64_t start(double now_s, double amount, double latency_s, double bound_per_s = 0.0);
  /// When job `id` completes, no other job starting before then. Advances the
  /// resource to that time when it is later than the last one.
  double finish_s(std::uint64_t id);

private:
  struct Job {
    std::uint64_t id = 0;
    double ready_s = 0.0; // latency over
    double remaining = 0.0;
    double bound = 0.0; // <= 0: none
    double rate = 0.0;  // while shared (set by share())
  };
  struct Done {
    std::uint64_t id = 0;
    double finish_s = 0.0;
  };
  void share();                // the rates of the jobs past their latency at now_
  void advance_to(double t_s); // runs the jobs to t_s
  double next_event_s() const; // the next latency end or completion

  double capacity_;
  double now_ = 0.0;
  std::uint64_t next_id_ = 1;
  std::vector<Job> jobs_;
  std::vector<Done> done_; // completed and not yet asked for
};

} // namespace hplsim::sim
