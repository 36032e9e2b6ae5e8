// System noise on CPU cores; see noise.hpp.
#include "models/noise.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "models/random_draws.hpp"
#include "models/random_streams.hpp"

namespace hplsim::models {

namespace {

constexpr std::uint64_t kNoiseStream = 0x6e6f6973ULL; // "nois"
// An exponential length is drawn below this many means (the look-back for a
// detour in progress must be finite; e^-40 of the draws are longer).
constexpr double kExponentialCapMeans = 40.0;

double unit(std::uint64_t key) { // uniform in (0, 1), from one counter-based word
  return (static_cast<double>(splitmix64(key) >> 11) + 0.5) * 0x1.0p-53;
}

std::uint64_t item(std::uint64_t parent, std::uint64_t index) {
  return RandomStreams::item_seed(parent, index);
}

std::uint64_t signed_index(std::int64_t i) {
  return static_cast<std::uint64_t>(i);
}

} // namespace

NoiseTrace read_noise_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the noise trace");
  NoiseTrace t;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    std::string a, b, extra;
    if (!(fields >> a)) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (!(fields >> b))
      throw std::runtime_error(where + "expected \"<start_s> <length_s>\", found one field");
    if (fields >> extra)
      throw std::runtime_error(where + "expected two fields, found more (\"" + extra + "\")");
    Detour d;
    for (auto [text, value, name] :
         {std::tuple{&a, &d.start_s, "start_s"}, std::tuple{&b, &d.length_s, "length_s"}}) {
      std::size_t used = 0;
      try {
        *value = std::stod(*text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text->size() || !std::isfinite(*value) || *value < 0.0)
        throw std::runtime_error(where + name + " \"" + *text + "\" is not a number >= 0");
    }
    if (!t.detours.empty() && d.start_s < t.detours.back().start_s)
      throw std::runtime_error(where + "start_s " + a +
                               " is before the previous line's; the trace must be in order");
    t.detours.push_back(d);
    t.span_s = std::max(t.span_s, d.start_s + d.length_s);
  }
  if (t.detours.empty() || t.span_s <= 0.0)
    throw std::runtime_error(path + ": the noise trace has no detour");
  // Replayed over its span: one under a microsecond would repeat too often to be noise.
  if (t.span_s < 1e-6)
    throw std::runtime_error(path + ": the noise trace spans " + std::to_string(t.span_s) +
                             " s; it must span at least 1 us");
  return t;
}

int CoreLayout::spare_cores() const {
  return std::max(0, cores_per_node - ranks_per_node * threads_per_rank);
}

namespace {

bool source_delays(const NoiseSource& s, const NoiseTrace* trace, const CoreLayout& layout) {
  if (s.scope() == NoiseSource::NODE && layout.spare_cores() > 0) return false; // it runs on a spare core
  switch (s.process_case()) {
  case NoiseSource::kPeriodic:
    return s.periodic().period_s() > 0.0 && s.periodic().length_s() > 0.0;
  case NoiseSource::kPoisson:
    return s.poisson().rate_per_s() > 0.0 && s.poisson().length_s() > 0.0;
  case NoiseSource::kTraceFile:
    return trace != nullptr && !trace->detours.empty();
  case NoiseSource::PROCESS_NOT_SET:
    break;
  }
  return false;
}

} // namespace

bool NoiseConfig::active() const {
  for (int i = 0; i < params.sources_size(); ++i)
    if (source_delays(params.sources(i),
                      i < static_cast<int>(traces.size()) ? &traces[static_cast<std::size_t>(i)] : nullptr,
                      layout))
      return true;
  return false;
}

NoiseModel::NoiseModel(std::shared_ptr<const NoiseConfig> config, std::uint64_t seed)
    : config_(std::move(config)) {
  const std::uint64_t root = splitmix64(seed ^ kNoiseStream);
  const auto& p = config_->params;
  for (int i = 0; i < p.sources_size(); ++i) {
    const NoiseSource& ns = p.sources(i);
    const NoiseTrace* trace = i < static_cast<int>(config_->traces.size())
                                  ? &config_->traces[static_cast<std::size_t>(i)]
                                  : nullptr;
    if (!source_delays(ns, trace, config_->layout)) continue;
    Source s;
    s.scope = ns.scope();
    s.kind = static_cast<int>(ns.process_case());
    s.key = item(root, static_cast<std::uint64_t>(i));
    switch (ns.process_case()) {
    case NoiseSource::kPeriodic:
      s.period_s = ns.periodic().period_s();
      s.length_s = s.max_length_s = ns.periodic().length_s();
      break;
    case NoiseSource::kPoisson:
      s.rate_per_s = ns.poisson().rate_per_s();
      s.length_s = ns.poisson().length_s();
      s.exponential = ns.poisson().exponential_length();
      s.max_length_s = s.exponential ? kExponentialCapMeans * s.length_s : s.length_s;
      // One detour per bin on average: the stream's rate is the node's for NODE scope.
      s.bin_s = 1.0 / s.rate_per_s;
      break;
    case NoiseSource::kTraceFile:
      s.trace = trace;
      for (const Detour& d : trace->detours)
        s.max_length_s = std::max(s.max_length_s, d.length_s);
      break;
    case NoiseSource::PROCESS_NOT_SET:
      continue;
    }
    look_back_s_ = std::max(look_back_s_, s.max_length_s);
    sources_.push_back(s);
  }
  active_ = !sources_.empty();
}

int NoiseModel::node_core(std::uint64_t key) const {
  const auto cores = static_cast<std::uint64_t>(std::max(1, config_->layout.cores_per_node));
  return static_cast<int>(splitmix64(key ^ 0x636f7265ULL) % cores); // "core"; modulo bias < 2^-50
}

void NoiseModel::poisson_detours(const Source& s, std::uint64_t stream, int core, double from_s, double to_s,
                                 std::vector<Detour>& out) const {
  const double mean = s.rate_per_s * s.bin_s; // 1 by construction
  const auto first = static_cast<std::int64_t>(std::floor(from_s / s.bin_s));
  const auto last = static_cast<std::int64_t>(std::floor(to_s / s.bin_s));
  for (std::int64_t b = first; b <= last; ++b) {
    const std::uint64_t bin = item(stream, signed_index(b));
    // Poisson count by inversion (Knuth, TAOCP vol. 2, 3.4.1).
    const double u = unit(bin);
    double p = std::exp(-mean), cdf = p;
    int n = 0;
    while (u > cdf && n < 64) {
      ++n;
      p *= mean / n;
      cdf += p;
    }
    for (int i = 0; i < n; ++i) {
      const std::uint64_t k = item(bin, static_cast<std::uint64_t>(i) + 1);
      if (core >= 0 && node_core(k) != core) continue;
      Detour d;
      d.start_s = (static_cast<double>(b) + unit(k)) * s.bin_s;
      if (d.start_s < from_s || d.start_s >= to_s) continue;
      d.length_s =
          s.exponential ? std::min(-std::log(unit(k + 1)), kExponentialCapMeans) * s.length_s : s.length_s;
      out.push_back(d);
    }
  }
}

void NoiseModel::source_detours(const Source& s, int node, int core, double from_s, double to_s,
                                std::vector<Detour>& out) const {
  const std::uint64_t node_key = item(s.key, static_cast<std::uint64_t>(node));
  const bool per_core = s.scope == NoiseSource::CORE;
  const std::uint64_t stream = per_core ? item(node_key, static_cast<std::uint64_t>(core)) : node_key;
  const int keep_core = per_core ? -1 : core; // a NODE stream's detours on this core only
  switch (s.kind) {
  case NoiseSource::kPeriodic: {
    const double phase = unit(stream) * s.period_s;
    const auto first = static_cast<std::int64_t>(std::ceil((from_s - phase) / s.period_s));
    for (std::int64_t i = first;; ++i) {
      const double start = phase + static_cast<double>(i) * s.period_s;
      if (start >= to_s) break;
      if (start < from_s) continue;
      if (keep_core >= 0 && node_core(item(stream, signed_index(i))) != keep_core) continue;
      out.push_back({start, s.length_s});
    }
    return;
  }
  case NoiseSource::kPoisson:
    return poisson_detours(s, stream, keep_core, from_s, to_s, out);
  case NoiseSource::kTraceFile: {
    const NoiseTrace& t = *s.trace;
    const double phase = unit(stream) * t.span_s;
    const auto first = static_cast<std::int64_t>(std::floor((from_s - phase) / t.span_s));
    for (std::int64_t k = first;; ++k) {
      const double base = phase + static_cast<double>(k) * t.span_s;
      if (base >= to_s) break;
      auto it = std::lower_bound(t.detours.begin(), t.detours.end(), Detour{from_s - base, 0.0});
      for (; it != t.detours.end() && base + it->start_s < to_s; ++it) {
        const auto i = static_cast<std::uint64_t>(it - t.detours.begin());
        if (keep_core >= 0 && node_core(item(item(stream, signed_index(k)), i)) != keep_core) continue;
        out.push_back({base + it->start_s, it->length_s});
      }
    }
    return;
  }
  default:
    return;
  }
}

void NoiseModel::detours(int node, int core, double from_s, double to_s, std::vector<Detour>& out) const {
  out.clear();
  for (const Source& s : sources_)
    source_detours(s, node, core, from_s, to_s, out);
  std::sort(out.begin(), out.end());
}

double NoiseModel::finish_s(int node, int core, double start_s, double work_s) const {
  if (!active_) return start_s + work_s;
  thread_local std::vector<Detour> found;
  double horizon_s = start_s + 2.0 * work_s + look_back_s_;
  for (;;) {
    detours(node, core, start_s - look_back_s_, horizon_s, found);
    double t = start_s, left_s = work_s;
    for (const Detour& d : found) {
      const double end = d.start_s + d.length_s;
      if (end <= t) continue;             // over before the work needs the core
      if (d.start_s >= t + left_s) break; // the work is done before it begins
      if (d.start_s > t) {                // the work runs until the detour begins
        left_s -= d.start_s - t;
        t = d.start_s;
      }
      t = end; // the core is the detour's until it ends
    }
    const double done_s = t + left_s;
    if (done_s <= horizon_s) return done_s;
    horizon_s = done_s + work_s + look_back_s_; // a detour beyond the horizon may begin before the end
  }
}

double NoiseModel::finish_s(int node, int first_core, int count, double start_s, double work_s) const {
  double done_s = start_s + work_s;
  if (!active_) return done_s;
  for (int c = first_core; c < first_core + count; ++c)
    done_s = std::max(done_s, finish_s(node, c, start_s, work_s));
  return done_s;
}

double NoiseModel::rank_delay_s(int rank, int threads, double start_s, double work_s) const {
  if (!active_) return 0.0;
  const CoreLayout& l = config_->layout;
  const int rpn = std::max(1, l.ranks_per_node);
  const int node = rank / rpn;
  const int count = std::clamp(threads, 1, std::max(1, l.threads_per_rank));
  const double done_s = finish_s(node, l.first_core(rank % rpn), count, start_s, work_s);
  return std::max(0.0, done_s - start_s - work_s);
}

} // namespace hplsim::models
