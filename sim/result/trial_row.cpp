#include "sim/result/trial_row.hpp"

#include "sim/support/bytes.hpp"

namespace hplsim::sim {

std::string encode(const TrialRow& t) {
  ByteWriter w;
  w.put(t.trial);
  w.put(t.completed);
  w.put(t.time_s);
  w.put(t.rmax_flops_per_s);
  w.put(t.ended_by);
  w.put(t.ending_event);
  w.put(t.reached);
  w.put(t.flaps_reached);
  w.put(t.node_failures_reached);
  w.put(t.messages_failed);
  w.put(t.retries);
  w.put(t.retry_wait_s);
  w.put(t.flap_delay_s);
  w.put(t.lost_work_s);
  w.put(t.restart_setup_s);
  w.put(static_cast<std::uint64_t>(t.events.size()));
  for (const auto& f : t.events) {
    w.put(f.id);
    w.put_string(f.kind);
    w.put_string(f.target);
    w.put(f.start_s);
    w.put(f.duration_s);
    w.put(f.first_step);
    w.put(f.last_step);
    w.put(f.messages_failed);
    w.put(f.retries);
    w.put(f.retry_wait_s);
    w.put(f.reached);
    w.put(f.ended_run);
    w.put(f.delay_s.has_value());
    w.put(f.delay_s.value_or(0.0));
  }
  return w.take();
}

TrialRow decode_trial_row(const std::string& bytes) {
  ByteReader r(bytes, "trials: a trial's answer");
  TrialRow t;
  r.get(t.trial);
  r.get(t.completed);
  r.get(t.time_s);
  r.get(t.rmax_flops_per_s);
  r.get(t.ended_by);
  r.get(t.ending_event);
  r.get(t.reached);
  r.get(t.flaps_reached);
  r.get(t.node_failures_reached);
  r.get(t.messages_failed);
  r.get(t.retries);
  r.get(t.retry_wait_s);
  r.get(t.flap_delay_s);
  r.get(t.lost_work_s);
  r.get(t.restart_setup_s);
  t.events.resize(r.get<std::uint64_t>());
  for (auto& f : t.events) {
    r.get(f.id);
    f.kind = r.get_string();
    f.target = r.get_string();
    r.get(f.start_s);
    r.get(f.duration_s);
    r.get(f.first_step);
    r.get(f.last_step);
    r.get(f.messages_failed);
    r.get(f.retries);
    r.get(f.retry_wait_s);
    r.get(f.reached);
    r.get(f.ended_run);
    const bool delay = r.get<bool>();
    const double delay_s = r.get<double>();
    if (delay) f.delay_s = delay_s;
  }
  r.expect_done();
  return t;
}

} // namespace hplsim::sim
