#include "sim/engine/private_resource.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace hplsim::sim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
// A job whose completion is this close (relative) to an event's time completes with it.
constexpr double kSameTime = 1e-14;
} // namespace

PrivateResource::PrivateResource(double capacity_per_s) : capacity_(capacity_per_s) {
  if (!(capacity_per_s > 0.0)) throw std::invalid_argument("private resource: capacity must be > 0");
}

std::uint64_t PrivateResource::start(double now_s, double amount, double latency_s, double bound_per_s) {
  if (now_s < now_ * (1.0 - 1e-12))
    throw std::logic_error("private resource: a job starts at " + std::to_string(now_s) + " s, before " +
                           std::to_string(now_) + " s");
  advance_to(now_s);
  const std::uint64_t id = next_id_++;
  if (amount <= 0.0 && latency_s <= 0.0) {
    done_.push_back({id, now_});
    return id;
  }
  Job j;
  j.id = id;
  j.ready_s = now_ + std::max(0.0, latency_s);
  j.remaining = std::max(0.0, amount);
  j.bound = bound_per_s;
  jobs_.push_back(j);
  return id;
}

double PrivateResource::finish_s(std::uint64_t id) {
  const auto is_done = [id](const Done& d) { return d.id == id; };
  auto it = std::find_if(done_.begin(), done_.end(), is_done);
  while (it == done_.end()) {
    if (std::none_of(jobs_.begin(), jobs_.end(), [id](const Job& j) { return j.id == id; }))
      throw std::logic_error("private resource: job " + std::to_string(id) + " unknown or asked for twice");
    share(); // the rates since the last start
    advance_to(next_event_s());
    it = std::find_if(done_.begin(), done_.end(), is_done);
  }
  const double t = it->finish_s;
  done_.erase(it);
  return t;
}

void PrivateResource::share() {
  // Max-min fairness on one constraint: the bounded jobs below the fair share
  // take their bound, the others split what is left equally.
  std::vector<Job*> shared;
  for (Job& j : jobs_)
    if (j.ready_s <= now_) shared.push_back(&j);
  std::sort(shared.begin(), shared.end(), [](const Job* a, const Job* b) {
    const double ba = a->bound > 0.0 ? a->bound : kInf, bb = b->bound > 0.0 ? b->bound : kInf;
    return ba < bb;
  });
  double left = capacity_;
  std::size_t n = shared.size();
  for (Job* j : shared) {
    const double fair = left / static_cast<double>(n);
    j->rate = j->bound > 0.0 ? std::min(j->bound, fair) : fair;
    left -= j->rate;
    --n;
  }
}

double PrivateResource::next_event_s() const {
  double e = kInf;
  for (const Job& j : jobs_)
    e = std::min(e, j.ready_s > now_ ? j.ready_s : now_ + j.remaining / j.rate);
  return e;
}

void PrivateResource::advance_to(double t_s) {
  while (!jobs_.empty()) {
    share();
    const double e = next_event_s();
    const double to = std::min(e, t_s);
    if (to < now_) break;
    const double dt = to - now_;
    for (Job& j : jobs_)
      if (j.ready_s <= now_) j.remaining -= j.rate * dt;
    if (to < e) {
      now_ = to;
      return;
    }
    // Jobs completing at e (to within rounding) are done at e.
    for (std::size_t i = 0; i < jobs_.size();) {
      const Job& j = jobs_[i];
      const bool shared = j.ready_s <= now_;
      const double f = shared ? now_ + (j.remaining + j.rate * dt) / j.rate : kInf;
      if (shared && (j.remaining <= 0.0 || f <= e * (1.0 + kSameTime))) {
        done_.push_back({j.id, e});
        jobs_.erase(jobs_.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
    now_ = e;
  }
  if (t_s < kInf) now_ = std::max(now_, t_s);
}

} // namespace hplsim::sim
