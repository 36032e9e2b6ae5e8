#include "sim/fast/window.hpp"

#include "sim/support/bytes.hpp"

namespace hplsim::sim {

namespace {

// An outcome's fields, in the order they travel (sim/support/bytes.hpp).
template <class Io, class Outcome> void fields(Io& io, Outcome& o) {
  io(o.completed);
  io(o.activities);
  io(o.wall_s);
  io(o.peak_rss_bytes);
  io(o.shared_measured);
  io(o.shared_end_bytes);
  io(o.shared_anonymous_end_bytes);
  io(o.end_s);
  io(o.faults);
  io(o.baseline);
  io.sequence(o.samples);
  for (auto& [k, s] : o.samples) {
    io(k);
    io(s);
  }
}

} // namespace

WindowStat window_stat(const WindowJob& job, const WindowOutcome& o) {
  WindowStat w;
  w.first = job.first;
  w.last = job.last;
  w.activities = o.activities;
  w.wall_s = o.wall_s;
  w.peak_rss_bytes = o.peak_rss_bytes;
  w.shared_measured = o.shared_measured;
  w.shared_end_bytes = o.shared_end_bytes;
  w.shared_anonymous_end_bytes = o.shared_anonymous_end_bytes;
  return w;
}

std::string encode(const WindowOutcome& o) {
  ByteWriter w;
  fields(w, o);
  return w.take();
}

WindowOutcome decode(const std::string& bytes) {
  ByteReader r(bytes, "fast mode: a window process's answer");
  WindowOutcome o;
  fields(r, o);
  r.expect_done();
  return o;
}

} // namespace hplsim::sim
