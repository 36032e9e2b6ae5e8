#pragma once
// Worker tokens shared by several process trees, so that together they run at
// most a given number of forked workers (GNU make's jobserver: a pipe holding
// one byte per free token). A study that runs its strategies side by side
// gives each strategy's process the tokens of the whole study: its windows
// then fill the cores another strategy leaves idle, never more than the
// study's `--jobs` at once (docs/studies.md, "Comparing strategies on common
// random numbers").
#include <cstddef>
#include <utility>

namespace hplsim::sim {

class JobTokens {
public:
  /// A pipe holding `count` tokens (count >= 1).
  explicit JobTokens(int count);
  JobTokens(const JobTokens&) = delete;
  JobTokens& operator=(const JobTokens&) = delete;
  ~JobTokens();

  /// Takes a token if one is free, without waiting.
  bool try_take();
  /// Gives back a token taken with try_take().
  void give();
  /// The end to poll for a free token (readable while one is).
  int fd() const { return read_fd_; }

  /// The tokens this process's ChildPools take before each fork (null: none,
  /// each pool bounded by its own worker count alone).
  static JobTokens* shared();

  /// Shares `tokens` with this process's ChildPools while in scope. Set in a
  /// process forked for the purpose (the tokens' pipe is inherited).
  class Share {
  public:
    explicit Share(JobTokens& tokens);
    Share(const Share&) = delete;
    Share& operator=(const Share&) = delete;
    ~Share();

  private:
    JobTokens* previous_;
  };

  /// A token held, given back when it goes out of scope.
  class Held {
  public:
    Held() = default;
    explicit Held(JobTokens* from) : from_(from) {}
    Held(Held&& o) noexcept : from_(std::exchange(o.from_, nullptr)) {}
    Held& operator=(Held&& o) noexcept {
      if (this != &o) {
        reset();
        from_ = std::exchange(o.from_, nullptr);
      }
      return *this;
    }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    ~Held() { reset(); }
    /// Gives the token back now.
    void reset() {
      if (from_ != nullptr) std::exchange(from_, nullptr)->give();
    }

  private:
    JobTokens* from_ = nullptr;
  };

  /// In a forked worker: its token is its parent's to give back, and
  /// whatever it forks is bounded by its own pools alone.
  static void forget_in_child();
  /// In a forked worker: the tokens of the pool that forked it (null: none),
  /// from which it may take a free one for a process of its own that runs
  /// beside it (a Branch's copy, sim/support/branch_process.hpp), giving it
  /// back once that process has ended. Set by the pool in the worker.
  static JobTokens* of_parent_pool();
  static void set_parent_pool(JobTokens* tokens);

private:
  int read_fd_ = -1, write_fd_ = -1;
};

/// How many of `studies` to run side by side over `jobs` shared tokens: one
/// more than the tokens (a study building its machine or integrating its
/// windows holds none), at most all of them. Each holds a copy of the machine.
int studies_side_by_side(std::size_t studies, int jobs);

} // namespace hplsim::sim
