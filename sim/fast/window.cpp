#include "sim/fast/window.hpp"

#include <cstring>
#include <stdexcept>

namespace hplsim::sim {

std::string encode(const WindowOutcome& o) {
  std::string bytes;
  const auto put = [&](const auto& x) { bytes.append(reinterpret_cast<const char*>(&x), sizeof x); };
  put(o.completed);
  put(o.activities);
  put(o.wall_s);
  put(o.peak_rss_bytes);
  put(o.end_s);
  put(o.faults);
  put(static_cast<std::uint64_t>(o.samples.size()));
  for (const auto& [k, s] : o.samples) {
    put(k);
    put(s);
  }
  return bytes;
}

WindowOutcome decode(const std::string& bytes) {
  WindowOutcome o;
  std::size_t at = 0;
  const auto get = [&](auto& x) {
    if (at + sizeof x > bytes.size())
      throw std::runtime_error("fast mode: a window process's answer is cut short");
    std::memcpy(&x, bytes.data() + at, sizeof x);
    at += sizeof x;
  };
  std::uint64_t n = 0;
  get(o.completed);
  get(o.activities);
  get(o.wall_s);
  get(o.peak_rss_bytes);
  get(o.end_s);
  get(o.faults);
  get(n);
  o.samples.resize(n);
  for (auto& [k, s] : o.samples) {
    get(k);
    get(s);
  }
  return o;
}

} // namespace hplsim::sim
