#include "sim/support/job_tokens.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace hplsim::sim {

namespace {

JobTokens* shared_tokens = nullptr;
JobTokens* parent_pool_tokens = nullptr;

[[noreturn]] void fail(const char* what) {
  throw std::runtime_error(std::string("worker tokens: ") + what + ": " + std::strerror(errno));
}

} // namespace

JobTokens::JobTokens(int count) {
  if (count < 1) throw std::invalid_argument("worker tokens: the count must be >= 1");
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail("pipe");
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  // Every process polls before it reads: a read never waits.
  if (::fcntl(read_fd_, F_SETFL, O_NONBLOCK) != 0) fail("fcntl");
  for (int i = 0; i < count; ++i)
    give();
}

JobTokens::~JobTokens() {
  ::close(read_fd_);
  ::close(write_fd_);
}

bool JobTokens::try_take() {
  char token = 0;
  while (true) {
    const ssize_t n = ::read(read_fd_, &token, 1);
    if (n == 1) return true;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
    fail("read");
  }
}

void JobTokens::give() {
  const char token = '+';
  while (::write(write_fd_, &token, 1) != 1)
    if (errno != EINTR) fail("write");
}

JobTokens* JobTokens::shared() {
  return shared_tokens;
}

JobTokens::Share::Share(JobTokens& tokens) : previous_(std::exchange(shared_tokens, &tokens)) {}

JobTokens::Share::~Share() {
  shared_tokens = previous_;
}

void JobTokens::forget_in_child() {
  shared_tokens = nullptr;
}

JobTokens* JobTokens::of_parent_pool() {
  return parent_pool_tokens;
}

void JobTokens::set_parent_pool(JobTokens* tokens) {
  parent_pool_tokens = tokens;
}

int studies_side_by_side(std::size_t studies, int jobs) {
  return static_cast<int>(
      std::clamp<std::size_t>(studies, 1, static_cast<std::size_t>(std::max(1, jobs)) + 1));
}

} // namespace hplsim::sim
