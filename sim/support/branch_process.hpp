#pragma once
// A paused copy of a window process (sim/support/child_process.hpp), forked
// at a point of its work to go on later along another branch: a fast-mode
// fault window and its baseline are the same simulation up to the flap
// (docs/faults.md, "Flaps in fast mode"), so the baseline is the fault
// window's copy forked as the flap is due, in which the flap does not happen.
//
// The copy waits until the original lets it go (resume_and_wait) or drops it;
// the original waits meanwhile, so the two never run at once and hold one
// worker between them. The copy's answer (what its ChildProcess's work
// returns) comes back to the original, not to the process that forked the
// window.
#include <string>
#include <sys/types.h>

namespace hplsim::sim {

class Branch {
public:
  /// Forks the copy. Returns in both processes: in the original at once, in
  /// the copy once the original calls resume_and_wait() (a copy dropped
  /// instead ends without returning). forked() is false when the fork failed.
  Branch();
  /// In the original: drops a copy not resumed (kills and reaps it).
  ~Branch();
  Branch(const Branch&) = delete;
  Branch& operator=(const Branch&) = delete;

  bool forked() const { return pid_ > 0 || copy_; }
  /// Whether this is the copy.
  bool copy() const { return copy_; }
  /// In the original: lets the copy go on and returns its answer once it has
  /// ended. Throws std::runtime_error with what the copy's work threw, or
  /// saying how it died.
  std::string resume_and_wait();
  /// In the copy: the wall time it waited for resume_and_wait().
  double paused_s() const { return paused_s_; }

private:
  pid_t pid_ = -1;
  bool copy_ = false;
  int go_fd_ = -1;     // original: the copy's go-ahead (a byte; closed: dropped)
  int answer_fd_ = -1; // original: the copy's answer
  double paused_s_ = 0.0;
};

/// The wall time this process waited as a Branch's copy before it went on (0: it is none).
double branch_paused_s();

} // namespace hplsim::sim
