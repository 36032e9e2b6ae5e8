#include "sim/support/branch_process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "sim/support/child_process.hpp"

namespace hplsim::sim {

namespace {

double g_paused_s = 0.0;

} // namespace

double branch_paused_s() {
  return g_paused_s;
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
  std::fflush(nullptr); // nothing buffered is written twice
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
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
    token_ = beside ? tokens : nullptr;
    return;
  }
  // The copy: it dies with the original, and answers it instead of the
  // process that forked the window (whose pipe it must not hold open: that
  // process reads the window's answer to its end).
  copy_ = true;
  ::close(go[1]);
  ::close(answer[0]);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(4);
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
  paused_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  g_paused_s = paused_s_;
}

Branch::~Branch() {
  if (copy_ || pid_ <= 0) return;
  if (go_fd_ >= 0) ::close(go_fd_);
  if (answer_fd_ >= 0) ::close(answer_fd_);
  ::kill(pid_, SIGKILL);
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
  if (beside()) (*token_)->give();
}

std::string Branch::resume_and_wait() {
  if (copy_ || pid_ <= 0) throw std::logic_error("Branch::resume_and_wait: not the original of a copy");
  if (!beside()) { // it waits for the go-ahead (a copy beside has closed its end)
    const char go = 1;
    while (::write(go_fd_, &go, 1) < 0 && errno == EINTR) {
    }
  }
  ::close(std::exchange(go_fd_, -1));
  std::string bytes;
  std::vector<char> buf(1 << 16); // not on the calling actor's small stack
  for (;;) {
    const ssize_t got = ::read(answer_fd_, buf.data(), buf.size());
    if (got > 0) {
      bytes.append(buf.data(), static_cast<std::size_t>(got));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    break;
  }
  ::close(std::exchange(answer_fd_, -1));
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (beside()) (*token_)->give();
  token_.reset();
  return decode_answer(bytes, status, "the copy of a window process simulating its baseline");
}

} // namespace hplsim::sim
