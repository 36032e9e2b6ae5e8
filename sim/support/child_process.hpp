#pragma once
// Fast mode's window processes (docs/fast-mode.md, point 10): a window runs
// in a fork of the whole simulator (SimGrid's engine included: it allows one
// engine per process), which sends its answer back through a pipe.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <sys/resource.h> // RUSAGE_SELF, RUSAGE_CHILDREN for peak_rss_bytes
#include <sys/types.h>
#include <utility>
#include <vector>

#include "sim/support/job_tokens.hpp"

namespace hplsim::sim {

/// A forked process running `work` and sending back the string it returns.
/// The answer is read to its end before the process is reaped, so a long
/// answer cannot block it; a process not waited for is killed and reaped.
class ChildProcess {
public:
  explicit ChildProcess(const std::function<std::string()>& work);
  ChildProcess(ChildProcess&& o) noexcept;
  ChildProcess& operator=(ChildProcess&& o) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  /// The pipe the answer comes through (for poll).
  int fd() const { return fd_; }
  /// Reads what the pipe holds; true once the answer is complete (end of file).
  bool read_some();
  /// The answer once read_some() said it is complete. Throws std::runtime_error
  /// with what `work` threw, or saying how the process died.
  std::string answer();

private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string bytes_;
};

/// Forks a process that dies with this one (PR_SET_PDEATHSIG, the race with
/// a parent already gone closed): fork()'s result, -1 when it failed (errno).
pid_t fork_dying_with_parent();

/// Reads `fd` to its end (EINTR retried).
std::string read_to_end(int fd);

/// Waits for `pid` to end (EINTR retried): its status.
int reap(pid_t pid);

/// What a forked process answered (`bytes` as a ChildProcess's process
/// writes them: a byte saying whether its work returned or threw, then what
/// it returned or the exception's message) once it ended with `status`
/// (waitpid's): what it returned. Throws std::runtime_error with what it
/// threw, or saying how `what` died.
std::string decode_answer(const std::string& bytes, int status, const std::string& what);

/// In a ChildProcess's process: the pipe its answer goes to (-1 in any
/// other). A Branch's copy (branch_process.hpp) answers through its own.
int& answer_fd();

/// Peak RSS in bytes of this process (RUSAGE_SELF) or of its largest reaped
/// child (RUSAGE_CHILDREN: the window processes).
double peak_rss_bytes(int who);

/// Bytes of the pages this process faulted in (page faults times the page
/// size, sim/support/process_memory.hpp) from its first ChildProcess's fork
/// to the last one's reaping. A page it writes while a child shares it is
/// copied, the child keeping the old one: each such copy is a fault, so this
/// bounds the old pages its children held that it no longer does (fresh
/// pages it faulted in count too). 0 when it forked none.
double fault_bytes_while_children_ran();

/// Window processes to run at once: `option` when > 0, else the CPUs this
/// process may run on, at most 8 (each holds a copy of a window's state).
int window_workers(int option);

/// Processes forked from this one, at most `workers` at a time, over several
/// batches; each holds a worker token while it runs, of the tokens this
/// process shares (JobTokens::shared() when the pool is made) or else of the
/// pool's own, `workers` of them. A process may take a free one for a process
/// of its own (JobTokens::of_parent_pool: a fault window's baseline copy). One
/// of them may run in the background across batches: it holds a worker until
/// it ends, the batches run on the others and take its worker back once it is
/// done (fast mode's final-solve window, docs/fast-mode.md point 10).
class ChildPool {
public:
  explicit ChildPool(int workers);

  /// Starts `work` in the background. With one worker it runs to its end here
  /// (never more than `workers` processes). At most one at a time.
  void start_background(const std::function<std::string()>& work);
  /// Runs work(i) for i in [0, count), each in a process of its own; done(i,
  /// answer) is called in this process as each finishes (whichever is done
  /// first frees its worker). The background process goes on meanwhile.
  void run(std::size_t count, const std::function<std::string(std::size_t)>& work,
           const std::function<void(std::size_t, const std::string&)>& done);
  /// Runs work as it becomes ready: next() returns the next piece to start
  /// now (empty: none is ready), done(id, answer) is called as each finishes
  /// (ids count the pieces next() handed out, from 0) and may make more
  /// ready. Ends when none runs and none is ready.
  void run_as_ready(const std::function<std::function<std::string()>()>& next,
                    const std::function<void(std::size_t, const std::string&)>& done);
  /// Waits for the background process and returns its answer.
  std::string finish_background();

private:
  struct Started {
    JobTokens::Held token; // given back once the process is reaped
    std::size_t id;
    ChildProcess process;
  };
  using Running = std::vector<Started>;
  // Takes a free token into `held`; false when none is free.
  bool take_token(JobTokens::Held& held);
  // `work` in a process that may borrow a token of this pool's (JobTokens::of_parent_pool).
  std::function<std::string()> lending(const std::function<std::string()>& work) const;
  // take_token, waiting for a token to be free.
  JobTokens::Held wait_for_token();
  // Waits until a process of `running` or the background one has written, or
  // a token is free (`token_wanted`); takes the answers that are complete.
  void poll_once(Running& running, const std::function<void(std::size_t, const std::string&)>& done,
                 bool token_wanted = false);

  int workers_;
  // Its workers' tokens: the shared ones, else its own (as many as workers),
  // which its processes may borrow from (JobTokens::of_parent_pool).
  std::unique_ptr<JobTokens> own_tokens_;
  JobTokens* tokens_;
  JobTokens::Held background_token_;
  std::optional<ChildProcess> background_;
  std::optional<std::string> background_answer_;
};

/// ChildPool(workers).run(count, work, done).
void run_in_children(std::size_t count, int workers, const std::function<std::string(std::size_t)>& work,
                     const std::function<void(std::size_t, const std::string&)>& done);

/// run_in_children for studies that fork workers of their own (a strategy's
/// windows): studies_side_by_side(count, jobs) of them at a time, each sharing
/// `jobs` worker tokens with the others (JobTokens), so that their workers
/// together run at most `jobs` at a time.
void run_studies_side_by_side(std::size_t count, int jobs,
                              const std::function<std::string(std::size_t)>& work,
                              const std::function<void(std::size_t, const std::string&)>& done);

} // namespace hplsim::sim
