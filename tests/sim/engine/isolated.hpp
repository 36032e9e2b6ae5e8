#pragma once
// Runs a simulation in a forked child: SimGrid 3.32 supports one engine per
// process, and a test binary may run many tests in one process.
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace hplsim::sim {

/// Forks; the child runs `body`, writes the doubles it returns to a pipe and
/// exits. Throws std::runtime_error if the child fails (with its message).
inline std::vector<double> run_isolated(const std::function<std::vector<double>()>& body) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    int code = 0;
    try {
      const std::vector<double> values = body();
      const auto n = static_cast<long>(values.size());
      if (write(fds[1], &n, sizeof n) != sizeof n) code = 2;
      for (double v : values)
        if (write(fds[1], &v, sizeof v) != sizeof v) code = 2;
    } catch (const std::exception& e) {
      const std::string msg = e.what();
      const long n = -static_cast<long>(msg.size()) - 1;
      if (write(fds[1], &n, sizeof n) != sizeof n) code = 2;
      if (write(fds[1], msg.data(), msg.size()) != static_cast<ssize_t>(msg.size())) code = 2;
      code = 1;
    }
    close(fds[1]);
    _exit(code);
  }
  close(fds[1]);
  long n = 0;
  std::vector<double> values;
  std::string error;
  if (read(fds[0], &n, sizeof n) == sizeof n) {
    if (n >= 0) {
      values.resize(static_cast<std::size_t>(n));
      for (auto& v : values)
        if (read(fds[0], &v, sizeof v) != sizeof v) break;
    } else {
      error.resize(static_cast<std::size_t>(-n - 1));
      if (!error.empty() && read(fds[0], error.data(), error.size()) < 0) error = "(unreadable)";
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("isolated simulation failed: " + (error.empty() ? "crashed" : error));
  return values;
}

} // namespace hplsim::sim
