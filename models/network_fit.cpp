// Protocol-model fit to OSU outputs; method in network_fit.hpp.
#include "models/network_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "models/osu_prediction.hpp"

namespace hplsim::models {

namespace {

// Piecewise-linear interpolation of the measured latency, extrapolated with the end slopes.
double interpolate(const std::vector<OsuPoint>& pts, double bytes) {
  if (pts.size() == 1) return pts.front().value;
  auto hi = std::lower_bound(pts.begin(), pts.end(), bytes,
                             [](const OsuPoint& p, double b) { return p.bytes < b; });
  if (hi == pts.begin()) hi = pts.begin() + 1;
  if (hi == pts.end()) hi = pts.end() - 1;
  const OsuPoint& b = *hi;
  const OsuPoint& a = *(hi - 1);
  return a.value + (b.value - a.value) * (bytes - a.bytes) / (b.bytes - a.bytes);
}

struct Line {
  double alpha = 0.0;
  double beta = 0.0;
  bool has_beta = false;
};

// Least squares of lat = alpha + beta * b on relative residuals, alpha >= alpha_min.
Line fit_line(const std::vector<OsuPoint>& pts, double alpha_min) {
  Line line;
  const Eigen::Index n = static_cast<Eigen::Index>(pts.size());
  Eigen::MatrixXd a(n, 2);
  Eigen::VectorXd rhs = Eigen::VectorXd::Ones(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const OsuPoint& p = pts[static_cast<std::size_t>(i)];
    a(i, 0) = 1.0 / p.value;
    a(i, 1) = p.bytes / p.value;
  }
  const double scale = a.col(1).norm() > 0.0 ? a.col(1).norm() : 1.0;
  Eigen::MatrixXd scaled = a;
  scaled.col(1) /= scale;
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(scaled);
  if (qr.rank() == 2) {
    Eigen::Vector2d x = qr.solve(rhs);
    x(1) /= scale;
    line.alpha = x(0);
    line.beta = x(1);
    if (line.alpha < alpha_min) {
      // Constrained: alpha fixed at its bound, beta by 1-D least squares.
      line.alpha = alpha_min;
      const Eigen::VectorXd r = rhs - alpha_min * a.col(0);
      line.beta = a.col(1).dot(r) / a.col(1).squaredNorm();
    }
    line.has_beta = line.beta > 0.0;
  }
  return line;
}

} // namespace

std::optional<std::int64_t> detect_eager_threshold(const std::vector<OsuPoint>& lat, double min_jump_s,
                                                   double min_jump_fraction) {
  if (lat.size() < 3) return std::nullopt;
  const std::size_t intervals = lat.size() - 1;
  std::vector<double> slope(intervals);
  for (std::size_t i = 0; i < intervals; ++i)
    slope[i] = (lat[i + 1].value - lat[i].value) / (lat[i + 1].bytes - lat[i].bytes);
  double best_excess = 0.0;
  std::optional<std::int64_t> best;
  for (std::size_t i = 0; i < intervals; ++i) {
    double ref = -std::numeric_limits<double>::infinity();
    if (i > 0) ref = std::max(ref, slope[i - 1]);
    if (i + 1 < intervals) ref = std::max(ref, slope[i + 1]);
    ref = std::max(ref, 0.0);
    const double width = lat[i + 1].bytes - lat[i].bytes;
    const double excess = lat[i + 1].value - lat[i].value - ref * width;
    const double floor = std::max(min_jump_s, min_jump_fraction * lat[i].value);
    if (excess > floor && excess > best_excess) {
      best_excess = excess;
      best = static_cast<std::int64_t>(lat[i + 1].bytes);
    }
  }
  return best;
}

ProtocolFit fit_protocol(const OsuTable& latency, const OsuTable* bandwidth, double path_latency_s,
                         double path_bandwidth_bytes_per_s, const ProtocolFitOptions& options) {
  if (latency.kind != OsuKind::Latency)
    throw std::invalid_argument("fit_protocol: the latency table is not an osu_latency output");
  if (latency.points.size() < 2)
    throw std::invalid_argument("fit_protocol: osu_latency needs >= 2 sizes, got " +
                                std::to_string(latency.points.size()));
  if (bandwidth != nullptr && bandwidth->kind != OsuKind::Bandwidth)
    throw std::invalid_argument("fit_protocol: the bandwidth table is not an osu_bw output");
  if (!(path_latency_s > 0.0 && std::isfinite(path_latency_s)))
    throw std::invalid_argument("fit_protocol: path_latency_s must be > 0, got " +
                                std::to_string(path_latency_s));
  if (!(path_bandwidth_bytes_per_s > 0.0 && std::isfinite(path_bandwidth_bytes_per_s)))
    throw std::invalid_argument("fit_protocol: path_bandwidth_bytes_per_s must be > 0, got " +
                                std::to_string(path_bandwidth_bytes_per_s));
  if (options.window < 1)
    throw std::invalid_argument("fit_protocol: window must be >= 1, got " + std::to_string(options.window));
  const auto& lat = latency.points;
  const double w = static_cast<double>(options.window);

  ProtocolFit fit;
  std::optional<std::int64_t> threshold = options.eager_threshold_bytes;
  if (!threshold) {
    threshold = detect_eager_threshold(lat, options.min_jump_s, options.min_jump_fraction);
    fit.threshold_detected = threshold.has_value();
  }

  // Step 2: per-message overhead from the smallest osu_bw size.
  double overhead = 0.0;
  const OsuPoint* bw0 = nullptr;
  if (bandwidth != nullptr)
    for (const OsuPoint& p : bandwidth->points)
      if (p.bytes > 0.0) {
        if (p.bytes <= static_cast<double>(options.overhead_max_bytes)) bw0 = &p;
        break;
      }
  if (bw0 != nullptr)
    overhead =
        std::max(0.0, (w * bw0->bytes / bw0->value - interpolate(lat, bw0->bytes) - interpolate(lat, 4.0)) /
                          (w - 1.0 > 0.0 ? w - 1.0 : 1.0));

  // Step 3: segments.
  std::set<std::int64_t> starts = {0};
  if (threshold) starts.insert(*threshold);
  for (std::int64_t b : options.breakpoints_bytes) {
    if (b < 0)
      throw std::invalid_argument("fit_protocol: breakpoints_bytes must be >= 0, got " + std::to_string(b));
    starts.insert(b);
  }
  struct Seg {
    std::int64_t start;
    double end;
    std::vector<OsuPoint> pts;
    Line line;
    bool from_least_squares = false;
  };
  std::vector<Seg> segs;
  for (auto it = starts.begin(); it != starts.end(); ++it) {
    const auto next = std::next(it);
    segs.push_back({*it, next == starts.end() ? INFINITY : static_cast<double>(*next), {}, {}, false});
  }
  for (const OsuPoint& p : lat)
    for (Seg& s : segs)
      if (p.bytes >= static_cast<double>(s.start) && p.bytes < s.end) s.pts.push_back(p);
  // A start that received no latency point is merged into the previous segment.
  std::vector<Seg> kept;
  for (Seg& s : segs) {
    if (s.pts.empty() && !kept.empty()) {
      kept.back().end = s.end;
      continue;
    }
    kept.push_back(std::move(s));
  }
  if (kept.front().pts.empty()) { // no latency point below the second start: merge forward
    kept[1].start = 0;
    kept.erase(kept.begin());
  }
  const double alpha_min = 2.0 * overhead;
  for (Seg& s : kept) {
    if (s.pts.size() >= 2) s.line = fit_line(s.pts, alpha_min);
    s.from_least_squares = s.line.has_beta;
    if (!s.line.has_beta && bandwidth != nullptr) {
      // Slope from the largest osu_bw size inside the segment: gap(b) = b * beta.
      for (const OsuPoint& p : bandwidth->points) {
        if (!(p.bytes >= static_cast<double>(s.start) && p.bytes < s.end && p.bytes > 0.0)) continue;
        const double gap = (w * p.bytes / p.value - interpolate(lat, p.bytes) - interpolate(lat, 4.0)) /
                           (w - 1.0 > 0.0 ? w - 1.0 : 1.0);
        if (gap > overhead) {
          s.line.beta = gap / p.bytes;
          s.line.has_beta = true;
        }
      }
    }
  }
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (kept[i].line.has_beta) continue;
    for (std::size_t d = 1; d < kept.size() && !kept[i].line.has_beta; ++d) {
      for (const std::size_t j : {i + d, i - d}) // i - d wraps to a huge index when d > i: skipped below
        if (j < kept.size() && kept[j].line.has_beta && !kept[i].line.has_beta) {
          kept[i].line.beta = kept[j].line.beta;
          kept[i].line.has_beta = true;
        }
    }
    if (!kept[i].line.has_beta)
      throw std::invalid_argument("fit_protocol: no latency slope for the segment from " +
                                  std::to_string(kept[i].start) + " bytes (give more sizes or osu_bw)");
  }
  for (Seg& s : kept)
    if (!s.from_least_squares) {
      // Intercept from the points with the slope fixed (relative least squares).
      double num = 0.0, den = 0.0;
      for (const OsuPoint& p : s.pts) {
        num += (p.value - s.line.beta * p.bytes) / (p.value * p.value);
        den += 1.0 / (p.value * p.value);
      }
      s.line.alpha = std::max(alpha_min, den > 0.0 ? num / den : alpha_min);
    }

  // Step 4: factors.
  ProtocolParams& out = fit.params;
  out.set_send_overhead_s(overhead);
  out.set_recv_overhead_s(overhead);
  if (threshold) out.set_eager_threshold_bytes(*threshold);
  out.set_rendezvous_extra_latency_s(0.0);
  out.set_reference_path_latency_s(path_latency_s);
  out.set_reference_path_bandwidth_bytes_per_s(path_bandwidth_bytes_per_s);
  for (const Seg& s : kept) {
    ProtocolSegment* seg = out.add_segments();
    seg->set_min_bytes(s.start);
    seg->set_latency_factor((s.line.alpha - alpha_min) / path_latency_s);
    seg->set_bandwidth_factor(1.0 / (s.line.beta * path_bandwidth_bytes_per_s));
  }
  out.set_source(
      "fit_protocol (models/network_fit.hpp) to " + std::to_string(lat.size()) + " osu_latency sizes" +
      (bandwidth ? " and " + std::to_string(bandwidth->points.size()) + " osu_bw sizes" : std::string()) +
      (latency.title.empty() ? std::string() : " (" + latency.title + ")"));

  double sum_sq = 0.0;
  std::size_t count = 0;
  for (const OsuPoint& p : lat) {
    const double r =
        (osu_latency_prediction_s(out, path_latency_s, path_bandwidth_bytes_per_s, p.bytes) - p.value) /
        p.value;
    fit.latency_relative_residuals.push_back(r);
    sum_sq += r * r;
    ++count;
  }
  if (bandwidth != nullptr)
    for (const OsuPoint& p : bandwidth->points) {
      if (!(p.bytes > 0.0)) continue;
      const double r = (osu_bw_prediction_bytes_per_s(out, path_latency_s, path_bandwidth_bytes_per_s,
                                                      p.bytes, options.window) -
                        p.value) /
                       p.value;
      fit.bandwidth_relative_residuals.push_back(r);
      sum_sq += r * r;
      ++count;
    }
  fit.rms_relative_residual = std::sqrt(sum_sq / static_cast<double>(count));
  return fit;
}

} // namespace hplsim::models
