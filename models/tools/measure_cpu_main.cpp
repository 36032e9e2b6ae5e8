// hplsim_measure_cpu: times this machine's CPU kernels through OpenBLAS
// (models/cpu_measure.hpp), fits the cpu.*.fp64 records (models/kernel_fit.hpp)
// and writes the samples (CSV) and the calibration (KernelCalibration text format).
//
//   hplsim_measure_cpu --csv cpu.csv --calibration cpu.textproto [--grid full|small]
//                      [--threads 1] [--repeats 5] [--peak-flops-per-s X] [--from-csv in.csv]
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "models/calibration_io.hpp"
#include "models/cpu_measure.hpp"
#include "models/kernel_fit.hpp"

namespace hm = hplsim::models;

int main(int argc, char** argv) {
  CLI::App app{"Measure this machine's CPU kernels (OpenBLAS) and fit hplsim's cpu.* kernel records"};
  std::string csv_path, from_csv, calibration_path, grid = "full", date;
  hm::MeasureOptions options;
  double peak = 0.0;
  app.add_option("--csv", csv_path, "write the measured samples here (kernel,m,n,k,seconds)");
  app.add_option("--from-csv", from_csv, "fit these samples instead of measuring");
  app.add_option("--calibration", calibration_path, "write the fitted KernelCalibration (text format) here");
  app.add_option("--grid", grid, "shape grid: full (< 60 s) or small (a few s)")
      ->check(CLI::IsMember({"full", "small"}));
  app.add_option("--threads", options.threads, "OpenBLAS threads (default 1)")->check(CLI::PositiveNumber);
  app.add_option("--repeats", options.repeats, "timings per shape; the median is kept (default 5)")
      ->check(CLI::PositiveNumber);
  app.add_option("--peak-flops-per-s", peak,
                 "FP64 peak the efficiencies are relative to (default: from /proc/cpuinfo)");
  app.add_option("--date", date, "date written into the calibration (default: today, UTC)");
  CLI11_PARSE(app, argc, argv);
  options.grid = grid == "small" ? hm::MeasureGrid::Small : hm::MeasureGrid::Full;

  std::ostringstream command;
  for (int i = 0; i < argc; ++i)
    command << (i ? " " : "") << argv[i];
  try {
    std::string peak_source;
    if (peak <= 0.0) {
      const hm::CpuPeak p = hm::cpu_peak_fp64(options.threads);
      peak = p.flops_per_s;
      peak_source = p.description;
    } else {
      peak_source = "--peak-flops-per-s";
    }
    std::vector<hm::KernelSample> samples;
    std::string samples_source;
    std::string csv_comments; // the leading '#' lines of --from-csv (how it was measured)
    if (!from_csv.empty()) {
      samples = hm::read_kernel_csv(from_csv);
      samples_source = from_csv;
      std::ifstream in(from_csv);
      for (std::string line; std::getline(in, line) && !line.empty() && line[0] == '#';)
        csv_comments += "\n  " + line.substr(line.find_first_not_of("# ") == std::string::npos
                                                 ? line.size()
                                                 : line.find_first_not_of("# "));
    } else {
      const auto start = std::chrono::steady_clock::now();
      samples = hm::measure_cpu_shapes(hm::cpu_measure_grid(options.grid, options.kernels), options);
      std::cerr << "measured " << samples.size() << " shapes in "
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s\n";
      samples_source = "`" + command.str() + "`";
      if (!csv_path.empty()) {
        std::ofstream out(csv_path);
        out << "# " << command.str() << "\n# BLAS: " << hm::blas_description() << "\n# peak: " << peak
            << " flop/s = " << peak_source << "\n";
        hm::write_kernel_csv_header(out);
        for (const auto& s : samples)
          hm::write_kernel_csv_row(out, s);
      }
    }
    const hm::CalibrationFit fit = hm::fit_kernel_samples(samples, {{"cpu.fp64", peak}}, samples_source);
    std::printf("%-16s %7s %7s %7s %12s %12s %8s\n", "record", "m", "n", "k", "measured_s", "model_s",
                "rel_res");
    for (const auto& [name, result] : fit.fits) {
      std::size_t i = 0;
      for (const auto& s : samples) {
        if (s.kernel != name) continue;
        const double r = result.relative_residuals[i++];
        std::printf("%-16s %7lld %7lld %7lld %12.4e %12.4e %+8.3f\n", name.c_str(),
                    static_cast<long long>(s.m), static_cast<long long>(s.n), static_cast<long long>(s.k),
                    s.seconds, s.seconds * (1.0 + r), r);
      }
      const auto& p = result.params;
      std::printf("%-16s rms %.3f  overhead %.3g s  max_eff %.3f  half_size %.4g  bw %.4g B/s\n",
                  name.c_str(), result.rms_relative_residual, p.launch_overhead_s(), p.max_efficiency(),
                  p.half_efficiency_size(), p.memory_bandwidth_bytes_per_s());
    }
    hm::KernelCalibration calibration = fit.calibration;
    if (date.empty()) {
      const std::time_t now = std::time(nullptr);
      char buf[16];
      std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
      date = buf;
    }
    calibration.set_date(date);
    if (!calibration_path.empty()) {
      std::ostringstream header;
      header << "KernelCalibration of this machine's CPU (cpu.*.fp64, " << options.threads
             << " OpenBLAS thread(s)), produced by\n  " << command.str();
      if (!csv_comments.empty()) header << "\nfrom samples measured by:" << csv_comments;
      header << "\nBLAS: " << hm::blas_description() << "\nPeak: " << peak << " flop/s = " << peak_source
             << "\nrms relative residual over all samples: " << calibration.rms_relative_residual()
             << "\npfact samples are whole m x n unblocked dgetf2 leaf panels (models/kernel_fit.hpp, "
                "cpu_measure.hpp).";
      std::ofstream out(calibration_path);
      out << hm::to_text(calibration, header.str());
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
