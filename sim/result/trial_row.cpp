#include "sim/result/trial_row.hpp"

#include "sim/support/bytes.hpp"

namespace hplsim::sim {

namespace {

// A row's fields, in the order they travel (sim/support/bytes.hpp).
template <class Io, class Row> void fields(Io& io, Row& t) {
  io(t.trial);
  io(t.completed);
  io(t.time_s);
  io(t.rmax_flops_per_s);
  io(t.ended_by);
  io(t.ending_event);
  io(t.reached);
  io(t.flaps_reached);
  io(t.node_failures_reached);
  io(t.messages_failed);
  io(t.retries);
  io(t.retry_wait_s);
  io(t.flap_delay_s);
  io(t.lost_work_s);
  io(t.restart_setup_s);
  io.sequence(t.events);
  for (auto& f : t.events) {
    io(f.id);
    io(f.kind);
    io(f.target);
    io(f.start_s);
    io(f.duration_s);
    io(f.first_step);
    io(f.last_step);
    io(f.messages_failed);
    io(f.retries);
    io(f.retry_wait_s);
    io(f.reached);
    io(f.ended_run);
    io(f.delay_s);
  }
}

} // namespace

std::string encode(const TrialRow& t) {
  ByteWriter w;
  fields(w, t);
  return w.take();
}

TrialRow decode_trial_row(const std::string& bytes) {
  ByteReader r(bytes, "trials: a trial's answer");
  TrialRow t;
  fields(r, t);
  r.expect_done();
  return t;
}

} // namespace hplsim::sim
