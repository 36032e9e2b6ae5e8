// Spatial and temporal rate variability; model in variability.hpp and
// models/README.md. Validity: cvs >= 0, degraded_fraction in [0, 1],
// degraded_rate_factor in (0, 1], per-node file factors > 0.
#include "models/variability.hpp"

#include "models/random_streams.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <stdexcept>

#include "models/random_draws.hpp"

namespace hplsim::models {

namespace {

// Streams: models/random_streams.hpp (NodeRates, DegradedNodes, GpuRates).

void require_cv(const char* field, double v) {
  if (!(std::isfinite(v) && v >= 0.0))
    throw std::invalid_argument(std::string("variability.") + field + " must be >= 0, got " +
                                std::to_string(v));
}

std::vector<double> read_rates_file(const std::string& path, const std::string& display, int nodes) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(display + ": cannot open variability.node_rates_file");
  std::vector<double> factors;
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string line = raw.substr(0, raw.find('#'));
    const auto b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    line = line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
    double v = 0.0;
    const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc() || ptr != line.data() + line.size())
      throw std::invalid_argument(display + ":" + std::to_string(line_no) +
                                  ": expected one node rate factor per line, got '" + line + "'");
    if (!(std::isfinite(v) && v > 0.0))
      throw std::invalid_argument(display + ":" + std::to_string(line_no) +
                                  ": node rate factor must be > 0, got " + line);
    factors.push_back(v);
  }
  if (static_cast<int>(factors.size()) < nodes)
    throw std::invalid_argument(display + ": has " + std::to_string(factors.size()) +
                                " node rate factors, the run needs nodes=" + std::to_string(nodes));
  factors.resize(static_cast<std::size_t>(nodes)); // extra lines (a bigger machine's file) are unused
  return factors;
}

} // namespace

Variability::Variability(const VariabilityParams& params, int nodes, int gpus_per_node, std::uint64_t seed,
                         const std::string& base_dir)
    : params_(params), gpus_per_node_(gpus_per_node) {
  if (nodes < 0) throw std::invalid_argument("variability: nodes must be >= 0, got " + std::to_string(nodes));
  if (gpus_per_node < 0)
    throw std::invalid_argument("variability: gpus_per_node must be >= 0, got " +
                                std::to_string(gpus_per_node));
  require_cv("node_rate_cv", params.node_rate_cv());
  require_cv("gpu_rate_cv", params.gpu_rate_cv());
  require_cv("kernel_jitter_cv", params.kernel_jitter_cv());
  require_cv("node_gpu_step_cv", params.node_gpu_step_cv());
  const double fraction = params.degraded_fraction();
  if (!(fraction >= 0.0 && fraction <= 1.0))
    throw std::invalid_argument("variability.degraded_fraction must be in [0, 1], got " +
                                std::to_string(fraction));
  if (fraction > 0.0 && !params.has_degraded_rate_factor())
    throw std::invalid_argument("variability.degraded_rate_factor is required when degraded_fraction > 0");
  if (params.has_degraded_rate_factor() &&
      !(params.degraded_rate_factor() > 0.0 && params.degraded_rate_factor() <= 1.0))
    throw std::invalid_argument("variability.degraded_rate_factor must be in (0, 1], got " +
                                std::to_string(params.degraded_rate_factor()));

  const auto n = static_cast<std::size_t>(nodes);
  degraded_.assign(n, false);
  if (params.has_node_rates_file() && !params.node_rates_file().empty()) {
    if (params.node_rate_cv() > 0.0 || fraction > 0.0)
      throw std::invalid_argument("variability.node_rates_file excludes node_rate_cv and degraded_fraction "
                                  "(the measured factors already contain both)");
    std::filesystem::path path(params.node_rates_file());
    if (path.is_relative() && !base_dir.empty()) path = std::filesystem::path(base_dir) / path;
    node_factors_ = read_rates_file(path.string(), path.string(), nodes);
  } else {
    std::mt19937_64 rng = RandomStreams(seed).generator(Stream::NodeRates);
    node_factors_.resize(n);
    for (double& f : node_factors_)
      f = lognormal_mean1(rng, params.node_rate_cv());
    const auto count = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(nodes)));
    if (count > 0) {
      std::mt19937_64 pick = RandomStreams(seed).generator(Stream::DegradedNodes);
      std::vector<int> order(n);
      std::iota(order.begin(), order.end(), 0);
      for (std::size_t i = 0; i < count; ++i) { // partial Fisher-Yates: order[0..count) is a uniform sample
        const std::size_t j = i + static_cast<std::size_t>(uniform_index(pick, n - i));
        std::swap(order[i], order[j]);
        degraded_[static_cast<std::size_t>(order[i])] = true;
        node_factors_[static_cast<std::size_t>(order[i])] *= params.degraded_rate_factor();
      }
    }
  }
  std::mt19937_64 rng = RandomStreams(seed).generator(Stream::GpuRates);
  gpu_factors_.resize(n * static_cast<std::size_t>(gpus_per_node));
  for (std::size_t i = 0; i < gpu_factors_.size(); ++i)
    gpu_factors_[i] = node_factors_[i / static_cast<std::size_t>(gpus_per_node)] *
                      lognormal_mean1(rng, params.gpu_rate_cv());
}

double Variability::node_factor(int node) const {
  if (node < 0 || node >= nodes())
    throw std::out_of_range("variability: node " + std::to_string(node) + " not in [0, " +
                            std::to_string(nodes()) + ")");
  return node_factors_[static_cast<std::size_t>(node)];
}

double Variability::gpu_factor(int node, int gpu) const {
  node_factor(node); // range check
  if (gpu < 0 || gpu >= gpus_per_node_)
    throw std::out_of_range("variability: gpu " + std::to_string(gpu) + " not in [0, " +
                            std::to_string(gpus_per_node_) + ")");
  return gpu_factors_[static_cast<std::size_t>(node) * static_cast<std::size_t>(gpus_per_node_) +
                      static_cast<std::size_t>(gpu)];
}

bool Variability::is_degraded(int node) const {
  node_factor(node); // range check
  return degraded_[static_cast<std::size_t>(node)];
}

double Variability::kernel_jitter(std::mt19937_64& rng) const {
  return lognormal_mean1(rng, params_.kernel_jitter_cv());
}

bool Variability::has_jitter() const {
  return params_.kernel_jitter_cv() > 0.0;
}

} // namespace hplsim::models
