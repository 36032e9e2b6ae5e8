#include "sim/fast/window.hpp"

#include "sim/support/bytes.hpp"

namespace hplsim::sim {

std::string encode(const WindowOutcome& o) {
  ByteWriter w;
  w.put(o.completed);
  w.put(o.activities);
  w.put(o.wall_s);
  w.put(o.peak_rss_bytes);
  w.put(o.end_s);
  w.put(o.faults);
  w.put(static_cast<std::uint64_t>(o.samples.size()));
  for (const auto& [k, s] : o.samples) {
    w.put(k);
    w.put(s);
  }
  return w.take();
}

WindowOutcome decode(const std::string& bytes) {
  ByteReader r(bytes, "fast mode: a window process's answer");
  WindowOutcome o;
  r.get(o.completed);
  r.get(o.activities);
  r.get(o.wall_s);
  r.get(o.peak_rss_bytes);
  r.get(o.end_s);
  r.get(o.faults);
  o.samples.resize(r.get<std::uint64_t>());
  for (auto& [k, s] : o.samples) {
    r.get(k);
    r.get(s);
  }
  r.expect_done();
  return o;
}

} // namespace hplsim::sim
