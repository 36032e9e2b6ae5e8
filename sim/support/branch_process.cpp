#include "sim/support/branch_process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <stdexcept>
#include <unistd.h>
#include <utility>

#include "sim/support/child_process.hpp"

namespace hplsim::sim {

namespace {

double g_paused_s = 0.0;

} // namespace

double branch_paused_s() {
  return g_paused_s;
}

double Branch::paused_s() const {
  return copy_ ? g_paused_s : 0.0;
}

Branch::Branch(JobTokens* tokens) {
  int go[2], answer[2];
  if (::pipe(go) != 0) return;
  if (::pipe(answer) != 0) {
    ::close(go[0]);
    ::close(go[1]);
    return;
  }
  const bool beside = tokens != nullptr && tokens->try_take();
  const pid_t pid = fork_dying_with_parent();
  if (pid < 0) {
    for (const int fd : {go[0], go[1], answer[0], answer[1]})
      ::close(fd);
    if (beside) tokens->give();
    return;
  }
  if (pid > 0) {
    ::close(go[0]);
    ::close(answer[1]);
    pid_ = pid;
    go_fd_ = go[1];
    answer_fd_ = answer[0];
    if (beside) token_ = tokens;
    return;
  }
  // The copy: it answers the original instead of the process that forked
  // the window (whose pipe it must not hold open: that process reads the
  // window's answer to its end).
  copy_ = true;
  ::close(go[1]);
  ::close(answer[0]);
  if (answer_fd() >= 0) ::close(answer_fd());
  answer_fd() = answer[1];
  if (beside) { // on the token the original took for it
    ::close(go[0]);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  char byte = 0;
  ssize_t n = 0;
  while ((n = ::read(go[0], &byte, 1)) < 0 && errno == EINTR) {
  }
  ::close(go[0]);
  if (n != 1) ::_exit(0); // dropped: no destructors, the state is the original's copy
  g_paused_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

Branch::~Branch() {
  if (copy_ || pid_ <= 0) return;
  if (go_fd_ >= 0) ::close(go_fd_);
  if (answer_fd_ >= 0) ::close(answer_fd_);
  ::kill(pid_, SIGKILL);
  reap(pid_);
  if (beside()) token_->give();
}

std::string Branch::resume_and_wait() {
  if (copy_ || pid_ <= 0) throw std::logic_error("Branch::resume_and_wait: not the original of a copy");
  if (!beside()) { // it waits for the go-ahead (a copy beside has closed its end)
    const char go = 1;
    while (::write(go_fd_, &go, 1) < 0 && errno == EINTR) {
    }
  }
  ::close(std::exchange(go_fd_, -1));
  const std::string bytes = read_to_end(answer_fd_);
  ::close(std::exchange(answer_fd_, -1));
  const int status = reap(pid_);
  pid_ = -1;
  if (beside()) std::exchange(token_, nullptr)->give();
  return decode_answer(bytes, status, "the copy of a window process simulating its baseline");
}

} // namespace hplsim::sim
