#pragma once
// A paused copy of a window process (sim/support/child_process.hpp), forked
// at a point of its work to go on later along another branch: a fast-mode
// fault window and its baseline are the same simulation up to the flap
// (docs/faults.md, "Flaps in fast mode"), so the baseline is the fault
// window's copy forked as the flap is due, in which the flap does not happen.
//
// When a worker token is free the copy goes on at once, beside the original,
// holding that token until it ends; otherwise it waits until the original
// lets it go (resume_and_wait) or drops it, and the original waits for it
// meanwhile, so that the two hold one worker between them. The copy's answer
// (what its ChildProcess's work returns) comes back to the original, not to
// the process that forked the window.
#include <string>
#include <sys/types.h>

#include "sim/support/job_tokens.hpp"

namespace hplsim::sim {

class Branch {
public:
  /// Forks the copy. Returns in both processes: in the original at once; in
  /// the copy at once too when a token of `tokens` (may be null) was free,
  /// else once the original calls resume_and_wait() (a copy dropped instead
  /// ends without returning). forked() is false when the fork failed.
  explicit Branch(JobTokens* tokens);
  /// In the original: drops a copy whose answer it did not take (kills and
  /// reaps it) and gives its token back.
  ~Branch();
  Branch(const Branch&) = delete;
  Branch& operator=(const Branch&) = delete;

  bool forked() const { return pid_ > 0 || copy_; }
  /// Whether this is the copy.
  bool copy() const { return copy_; }
  /// Whether the copy went on at once, on a token of its own.
  bool beside() const { return token_ != nullptr; }
  /// In the original: lets the copy go on (if it waits) and returns its
  /// answer once it has ended. Throws std::runtime_error with what the copy's work threw, or
  /// saying how it died.
  std::string resume_and_wait();
  /// In the copy: the wall time it waited for resume_and_wait() (branch_paused_s()).
  double paused_s() const;

private:
  pid_t pid_ = -1;
  bool copy_ = false;
  JobTokens* token_ = nullptr; // the tokens it took one of for the copy (original; null: none)
  int go_fd_ = -1;             // original: the copy's go-ahead (a byte; closed: dropped)
  int answer_fd_ = -1;         // original: the copy's answer
  double paused_s_ = 0.0;
};

/// The wall time this process waited as a Branch's copy before it went on (0: it is none).
double branch_paused_s();

} // namespace hplsim::sim
