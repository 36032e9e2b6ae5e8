#include "sim/support/process_memory.hpp"

#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace hplsim::sim {

std::optional<MemoryRollup> parse_memory_rollup(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  double rss = -1, shared_clean = -1, shared_dirty = -1, private_clean = -1, private_dirty = -1,
         anonymous = -1;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name, unit;
    double kib = 0.0;
    if (!(fields >> name >> kib >> unit) || unit != "kB") continue;
    const double bytes = kib * 1024.0;
    if (name == "Rss:")
      rss = bytes;
    else if (name == "Shared_Clean:")
      shared_clean = bytes;
    else if (name == "Shared_Dirty:")
      shared_dirty = bytes;
    else if (name == "Private_Clean:")
      private_clean = bytes;
    else if (name == "Private_Dirty:")
      private_dirty = bytes;
    else if (name == "Anonymous:")
      anonymous = bytes;
  }
  if (rss < 0 || shared_clean < 0 || shared_dirty < 0 || private_clean < 0 || private_dirty < 0 ||
      anonymous < 0)
    return std::nullopt;
  MemoryRollup m;
  m.rss_bytes = rss;
  m.shared_bytes = shared_clean + shared_dirty;
  m.private_bytes = private_clean + private_dirty;
  m.anonymous_bytes = anonymous;
  return m;
}

std::optional<MemoryRollup> memory_rollup() {
  std::ifstream in("/proc/self/smaps_rollup");
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_memory_rollup(text.str());
}

std::uint64_t page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_minflt) + static_cast<std::uint64_t>(usage.ru_majflt);
}

double page_size_bytes() {
  const long size = ::sysconf(_SC_PAGESIZE);
  return size > 0 ? static_cast<double>(size) : 4096.0;
}

} // namespace hplsim::sim
