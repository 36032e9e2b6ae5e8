#include "sim/support/child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <poll.h>
#include <sched.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "sim/support/process_memory.hpp"

namespace hplsim::sim {

namespace {

// This process's page faults at its first fork and at its latest reaping
// (fault_bytes_while_children_ran).
std::optional<std::uint64_t> faults_at_first_fork;
std::uint64_t faults_at_last_reap = 0;

bool write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

} // namespace

pid_t fork_dying_with_parent() {
  std::fflush(nullptr); // nothing buffered is written twice
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(4);
  }
  return pid;
}

std::string read_to_end(int fd) {
  std::string bytes;
  std::vector<char> buf(1 << 16); // not on the calling actor's small stack
  while (true) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n > 0)
      bytes.append(buf.data(), static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      return bytes;
  }
}

int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

int& answer_fd() {
  static int fd = -1;
  return fd;
}

ChildProcess::ChildProcess(const std::function<std::string()>& work) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("fast mode: pipe: ") + std::strerror(errno));
  if (!faults_at_first_fork) faults_at_first_fork = page_faults();
  pid_ = fork_dying_with_parent(); // a killed run leaves no window simulating on
  if (pid_ < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fast mode: fork: ") + std::strerror(errno));
  }
  if (pid_ == 0) {
    ::close(fds[0]);
    JobTokens::forget_in_child();
    answer_fd() = fds[1];
    // The answer's first byte says how `work` ended: 0 returned, 1 threw.
    std::string answer(1, '\0');
    try {
      answer += work();
    } catch (const std::exception& e) {
      answer.assign(1, '\1');
      answer += e.what();
    }
    const bool sent = write_all(answer_fd(), answer); // a Branch's copy answers its own parent
    ::_exit(sent ? 0 : 3);                            // no destructors: the engine is the parent's copy
  }
  ::close(fds[1]);
  fd_ = fds[0];
}

ChildProcess::ChildProcess(ChildProcess&& o) noexcept
    : pid_(std::exchange(o.pid_, -1)), fd_(std::exchange(o.fd_, -1)), bytes_(std::move(o.bytes_)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& o) noexcept {
  std::swap(pid_, o.pid_);
  std::swap(fd_, o.fd_);
  std::swap(bytes_, o.bytes_);
  return *this;
}

ChildProcess::~ChildProcess() {
  if (fd_ >= 0) ::close(fd_);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    reap(pid_);
    faults_at_last_reap = page_faults();
  }
}

bool ChildProcess::read_some() {
  std::vector<char> buf(1 << 16); // not on the calling actor's small stack
  const ssize_t n = ::read(fd_, buf.data(), buf.size());
  if (n > 0) {
    bytes_.append(buf.data(), static_cast<std::size_t>(n));
    return false;
  }
  return n == 0 || errno != EINTR;
}

std::string ChildProcess::answer() {
  std::string bytes = std::move(bytes_);
  ::close(std::exchange(fd_, -1));
  const int status = reap(pid_);
  pid_ = -1;
  faults_at_last_reap = page_faults();
  return decode_answer(bytes, status, "the process simulating a window");
}

std::string decode_answer(const std::string& bytes, int status, const std::string& what) {
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || bytes.empty())
    throw std::runtime_error("fast mode: " + what + " " +
                             (WIFSIGNALED(status)
                                  ? "was killed by signal " + std::to_string(WTERMSIG(status))
                                  : "exited with status " + std::to_string(WEXITSTATUS(status))));
  if (bytes[0] != '\0') throw std::runtime_error(bytes.substr(1));
  return bytes.substr(1);
}

double peak_rss_bytes(int who) {
  rusage usage{};
  getrusage(who, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0; // Linux reports KiB
}

double fault_bytes_while_children_ran() {
  if (!faults_at_first_fork || faults_at_last_reap < *faults_at_first_fork) return 0.0;
  return static_cast<double>(faults_at_last_reap - *faults_at_first_fork) * page_size_bytes();
}

int window_workers(int option) {
  if (option > 0) return option;
  cpu_set_t set;
  CPU_ZERO(&set);
  const int cpus = ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  return std::clamp(cpus, 1, 8);
}

ChildPool::ChildPool(int workers) : workers_(std::max(1, workers)), tokens_(JobTokens::shared()) {
  if (tokens_ == nullptr) tokens_ = (own_tokens_ = std::make_unique<JobTokens>(workers_)).get();
}

std::function<std::string()> ChildPool::lending(const std::function<std::string()>& work) const {
  return [tokens = tokens_, work]() {
    JobTokens::set_parent_pool(tokens);
    return work();
  };
}

bool ChildPool::take_token(JobTokens::Held& held) {
  if (!tokens_->try_take()) return false;
  held = JobTokens::Held(tokens_);
  return true;
}

JobTokens::Held ChildPool::wait_for_token() {
  JobTokens::Held held;
  while (!take_token(held)) {
    pollfd fd{tokens_->fd(), POLLIN, 0};
    if (::poll(&fd, 1, -1) < 0 && errno != EINTR)
      throw std::runtime_error(std::string("child processes: poll: ") + std::strerror(errno));
  }
  return held;
}

void ChildPool::start_background(const std::function<std::string()>& work) {
  if (background_ || background_answer_)
    throw std::logic_error("child processes: one background process at a time");
  background_token_ = wait_for_token();
  background_.emplace(lending(work));
  if (workers_ > 1) return;
  Running none;
  while (background_)
    poll_once(none, {});
}

void ChildPool::poll_once(Running& running, const std::function<void(std::size_t, const std::string&)>& done,
                          bool token_wanted) {
  std::vector<pollfd> fds;
  for (const Started& s : running)
    fds.push_back({s.process.fd(), POLLIN, 0});
  if (background_) fds.push_back({background_->fd(), POLLIN, 0});
  if (token_wanted) fds.push_back({tokens_->fd(), POLLIN, 0});
  if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
    throw std::runtime_error(std::string("child processes: poll: ") + std::strerror(errno));
  if (background_ && fds[running.size()].revents != 0 && background_->read_some()) {
    std::optional<ChildProcess> ended = std::exchange(background_, std::nullopt);
    background_answer_ = ended->answer();
    background_token_.reset(); // its process has ended: free for the next one
  }
  for (std::size_t k = running.size(); k-- > 0;) {
    if (fds[k].revents == 0 || !running[k].process.read_some()) continue;
    Started ended = std::move(running[k]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    const std::string answer = ended.process.answer();
    ended.token.reset(); // free for the next process before `done` starts more
    done(ended.id, answer);
  }
}

void ChildPool::run(std::size_t count, const std::function<std::string(std::size_t)>& work,
                    const std::function<void(std::size_t, const std::string&)>& done) {
  std::size_t next = 0;
  run_as_ready(
      [&]() -> std::function<std::string()> {
        if (next == count) return {};
        return [&work, i = next++]() { return work(i); };
      },
      done);
}

void ChildPool::run_as_ready(const std::function<std::function<std::string()>()>& next,
                             const std::function<void(std::size_t, const std::string&)>& done) {
  Running running;
  std::size_t started = 0;
  while (true) {
    bool token_wanted = false;
    while (static_cast<int>(running.size()) + (background_ ? 1 : 0) < workers_) {
      JobTokens::Held token;
      if (!take_token(token)) {
        token_wanted = true;
        break;
      }
      const std::function<std::string()> work = next();
      if (!work) break; // the token goes back
      running.push_back({std::move(token), started++, ChildProcess(lending(work))});
    }
    if (running.empty() && !token_wanted) break;
    poll_once(running, done, token_wanted);
  }
}

std::string ChildPool::finish_background() {
  Running none;
  while (background_)
    poll_once(none, {});
  if (!background_answer_) throw std::logic_error("child processes: no background process");
  return std::exchange(background_answer_, std::nullopt).value();
}

void run_in_children(std::size_t count, int workers, const std::function<std::string(std::size_t)>& work,
                     const std::function<void(std::size_t, const std::string&)>& done) {
  ChildPool(workers).run(count, work, done);
}

void run_studies_side_by_side(std::size_t count, int jobs,
                              const std::function<std::string(std::size_t)>& work,
                              const std::function<void(std::size_t, const std::string&)>& done) {
  JobTokens tokens(jobs);
  run_in_children(
      count, studies_side_by_side(count, jobs),
      [&](std::size_t i) {
        const JobTokens::Share share(tokens);
        return work(i);
      },
      done);
}

} // namespace hplsim::sim
