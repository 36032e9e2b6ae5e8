// `hplsim calibrate kernels|measure-cpu|network`: the measure -> fit -> predict loop.
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <thread>

#include "models/calibration_io.hpp"
#include "models/cpu_measure.hpp"
#include "models/kernel_fit.hpp"
#include "models/network_fit.hpp"
#include "models/osu_output.hpp"
#include "sim/cli/commands.hpp"
#include "sim/scenario/machine_topology.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

struct CalibrateArgs {
  // kernels
  std::string csv, out;
  std::vector<std::string> peaks; // NAME=FLOPS_PER_S
  int cores = 1;
  // measure-cpu
  std::string measure_out;
  int threads = 1;
  bool quick = false;
  // network
  std::vector<std::string> osu_files;
  std::string scenario, network_out;
  std::optional<std::int64_t> eager_threshold;
};

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

void write_file(const std::string& path, const std::string& text) {
  write_file_atomically(path, [&text](std::ostream& out) { out << text; });
}

int calibrate_kernels(const CalibrateArgs& a) {
  models::PeakTable peaks;
  const models::CpuPeak cpu = models::cpu_peak_fp64(a.cores);
  for (const auto& s : a.peaks) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) throw InputError("--peak " + s + ": expected NAME=FLOPS_PER_S");
    try {
      peaks[s.substr(0, eq)] = std::stod(s.substr(eq + 1));
    } catch (const std::exception&) {
      throw InputError("--peak " + s + ": the value is not a number");
    }
  }
  const auto samples = models::read_kernel_csv(a.csv);
  // CPU records without an explicit peak: this machine's FP64 peak for `cores` cores.
  for (const auto& s : samples)
    if (s.kernel.rfind("cpu.", 0) == 0 && peaks.count(s.kernel) == 0) peaks[s.kernel] = cpu.flops_per_s;
  models::CalibrationFit fit = models::fit_kernel_samples(samples, peaks, "fit of " + a.csv);
  fit.calibration.set_date(today());
  std::cout << "fitted " << fit.fits.size() << " kernel records from " << samples.size() << " samples of "
            << a.csv << "\n";
  if (cpu.flops_per_s > 0) std::cout << "cpu peak used: " << cpu.description << "\n";
  std::cout << std::left << std::setw(18) << "record" << std::right << std::setw(10) << "samples"
            << std::setw(14) << "rms resid %" << std::setw(14) << "max resid %"
            << "  parameters\n";
  for (const auto& [name, f] : fit.fits) {
    double worst = 0.0;
    for (double r : f.relative_residuals)
      worst = std::max(worst, std::abs(r));
    std::cout << std::left << std::setw(18) << name << std::right << std::setw(10)
              << f.relative_residuals.size() << std::setw(14) << std::fixed << std::setprecision(2)
              << 100.0 * f.rms_relative_residual << std::setw(14) << 100.0 * worst << std::defaultfloat
              << std::setprecision(6) << "  peak=" << f.params.peak_flops_per_s()
              << " emax=" << f.params.max_efficiency() << " half=" << f.params.half_efficiency_size()
              << " overhead_s=" << f.params.launch_overhead_s()
              << (f.efficiency_at_bound ? " (efficiency at its bound)" : "") << "\n";
  }
  std::cout << "per-sample residuals (model - measured) / measured:\n";
  for (const auto& [name, f] : fit.fits) {
    std::cout << "  " << name << ":";
    for (double r : f.relative_residuals)
      std::cout << " " << std::fixed << std::setprecision(1) << 100.0 * r << "%";
    std::cout << std::defaultfloat << "\n";
  }
  write_file(a.out,
             models::to_text(fit.calibration, "Written by: hplsim calibrate kernels " + a.csv + " --out " +
                                                  a.out + "\nMethod: " + fit.calibration.method()));
  std::cout << "wrote " << a.out << "\n";
  return 0;
}

int calibrate_measure_cpu(const CalibrateArgs& a) {
  models::MeasureOptions o;
  o.threads = a.threads;
  o.grid = a.quick ? models::MeasureGrid::Small : models::MeasureGrid::Full;
  check_output_file(a.measure_out);
  std::cout << "measuring CPU kernels with " << models::blas_description() << ", " << a.threads
            << " thread(s)...\n";
  write_file_atomically(a.measure_out, [&o](std::ostream& out) { models::measure_cpu_kernels(out, o); });
  std::cout << "wrote " << a.measure_out << "\n";
  return 0;
}

int calibrate_network(const CalibrateArgs& a) {
  const ResolvedScenario sc = resolve(load_scenario(a.scenario));
  const PathFigures path = nominal_path(sc, 0, 1);
  const models::OsuTable* bw = nullptr;
  std::optional<models::OsuTable> latency, bandwidth;
  for (const auto& f : a.osu_files) {
    models::OsuTable t = models::read_osu_output(f);
    if (t.kind == models::OsuKind::Latency) {
      if (latency) throw InputError(f + ": a second osu_latency output; give one");
      latency = std::move(t);
    } else if (!bandwidth) {
      bandwidth = std::move(t);
    }
  }
  if (!latency) throw InputError("calibrate network: an osu_latency output file is required");
  if (bandwidth) bw = &*bandwidth;
  models::ProtocolFitOptions options;
  options.eager_threshold_bytes = a.eager_threshold;
  const models::ProtocolFit fit =
      models::fit_protocol(*latency, bw, path.latency_s, path.bandwidth_bytes_per_s, options);
  std::cout << "modelled path (nodes 0 -> 1): latency " << path.latency_s * 1e6 << " us, bottleneck "
            << path.bandwidth_bytes_per_s / 1e9 << " GB/s\n";
  std::cout << "eager threshold: " << fit.params.eager_threshold_bytes() << " B"
            << (fit.threshold_detected ? " (detected)" : " (given or none found)") << "\n";
  std::cout << "rms relative residual: " << 100.0 * fit.rms_relative_residual << " %\n";
  std::cout << "latency residuals:";
  for (double r : fit.latency_relative_residuals)
    std::cout << " " << std::fixed << std::setprecision(1) << 100 * r << "%";
  std::cout << std::defaultfloat << "\n";
  if (!fit.bandwidth_relative_residuals.empty()) {
    std::cout << "bandwidth residuals:";
    for (double r : fit.bandwidth_relative_residuals)
      std::cout << " " << std::fixed << std::setprecision(1) << 100 * r << "%";
    std::cout << std::defaultfloat << "\n";
  }
  std::string cmd = "hplsim calibrate network";
  for (const auto& f : a.osu_files)
    cmd += " " + f;
  write_file(a.network_out, models::to_text(fit.params, "Written by: " + cmd + " --scenario " + a.scenario +
                                                            " --out " + a.network_out + " on " + today()));
  std::cout << "wrote " << a.network_out << "\n";
  return 0;
}

} // namespace

Command add_calibrate_command(CLI::App& app) {
  auto args = std::make_shared<CalibrateArgs>();
  CalibrateArgs& a = *args;
  auto* cal = app.add_subcommand("calibrate", "Fit model parameters to measurements");
  cal->require_subcommand(1);
  auto* k = cal->add_subcommand("kernels", "Fit kernel cost models to measured (shape, seconds) rows");
  k->add_option("measurements", a.csv, "CSV with header kernel,m,n,k,seconds")->required();
  k->add_option("--out", a.out, "Calibration file to write (KernelCalibration text format)")->required();
  k->add_option("--peak", a.peaks,
                "Peak of a record, NAME=FLOPS_PER_S (repeatable; cpu.* default: this CPU)");
  k->add_option("--cores", a.cores, "Cores the CPU peak is for (default 1, as measure-cpu's default)")
      ->check(at_least(1));
  auto* m = cal->add_subcommand("measure-cpu", "Time this machine's CPU BLAS kernels over a grid of shapes");
  m->add_option("--out", a.measure_out, "CSV to write")->required();
  m->add_option("--threads", a.threads, "BLAS threads (default 1)")->check(at_least(1));
  m->add_flag("--quick", a.quick, "A small grid (seconds) instead of the full one (< 1 minute)");
  auto* n = cal->add_subcommand("network", "Fit the protocol model to OSU microbenchmark outputs");
  n->add_option("osu_outputs", a.osu_files, "osu_latency (required) and osu_bw output files")->required();
  n->add_option("--scenario", a.scenario, "Scenario whose machine the path figures come from")->required();
  n->add_option("--out", a.network_out, "ProtocolParams file to write")->required();
  n->add_option("--eager-threshold", a.eager_threshold, "Eager/rendezvous switch in bytes (default: detect)");
  return {cal, [args, cal]() {
            // The models read the user's measurement files: their
            // std::invalid_argument is bad input here (sim/support/errors.hpp).
            try {
              if (cal->got_subcommand("kernels")) return calibrate_kernels(*args);
              if (cal->got_subcommand("measure-cpu")) return calibrate_measure_cpu(*args);
              return calibrate_network(*args);
            } catch (const std::invalid_argument& e) {
              throw InputError(e.what());
            }
          }};
}

} // namespace hplsim::sim
