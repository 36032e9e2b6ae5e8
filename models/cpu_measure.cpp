// CPU kernel timing through OpenBLAS; what is timed and how: cpu_measure.hpp.
#include "models/cpu_measure.hpp"

#include <cblas.h>
#include <f77blas.h>

#include <time.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <ostream>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

namespace hplsim::models {

namespace {

// Seconds on the clock a measurement uses: the calling thread's CPU time when
// OpenBLAS runs single-threaded (it then computes in the calling thread), so
// time the scheduler gives to other processes of a shared machine is not
// counted; wall-clock time otherwise.
struct TimerClock {
  clockid_t id;
  double now() const {
    timespec ts{};
    clock_gettime(id, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  // Cost of one (start, stop) pair: the least of many empty timings.
  double overhead() const {
    double best = 1.0;
    for (int i = 0; i < 200; ++i) {
      const double t0 = now();
      best = std::min(best, now() - t0);
    }
    return best;
  }
};

const std::vector<std::string>& all_kernels() {
  static const std::vector<std::string> names = {"cpu.gemm.fp64",   "cpu.trsm.fp64", "cpu.pfact.fp64",
                                                 "cpu.getrf.fp64",  "cpu.gemv.fp64", "cpu.trsv.fp64",
                                                 "cpu.idamax.fp64", "cpu.laswp.fp64"};
  return names;
}

std::vector<double> random_values(std::size_t count, std::uint64_t seed, double scale) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(count);
  // Uniform in [-scale, scale); exact distribution is irrelevant to timing.
  for (double& x : v)
    x = scale * (static_cast<double>(rng() >> 11) * 0x1.0p-53 * 2.0 - 1.0);
  return v;
}

// A timed workload: `prepare` (untimed) restores inputs, `call` runs the kernel once.
struct Workload {
  std::function<void()> prepare; // may be empty: nothing to restore
  std::function<void()> call;
};

blasint to_blas(std::int64_t v) {
  return static_cast<blasint>(v);
}

volatile std::size_t g_sink = 0; // keeps idamax's result alive

Workload make_workload(const MeasureShape& s, std::vector<std::vector<double>>& store,
                       std::vector<blasint>& ipiv) {
  const std::int64_t m = s.m, n = s.n, k = s.k;
  const auto sz = [](std::int64_t a, std::int64_t b) { return static_cast<std::size_t>(a * b); };
  store.clear();
  if (s.kernel == "cpu.gemm.fp64") {
    store = {random_values(sz(m, k), 1, 1.0), random_values(sz(k, n), 2, 1.0),
             random_values(sz(m, n), 3, 1.0)};
    return {{}, [&store, m, n, k] {
              cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, to_blas(m), to_blas(n), to_blas(k), -1.0,
                          store[0].data(), to_blas(m), store[1].data(), to_blas(k), 1.0, store[2].data(),
                          to_blas(m));
            }};
  }
  if (s.kernel == "cpu.trsm.fp64" || s.kernel == "cpu.trsv.fp64") {
    // L entries in [-1/m, 1/m): well conditioned, so repeated solves stay finite.
    const std::int64_t rhs = s.kernel == "cpu.trsv.fp64" ? 1 : n;
    store = {random_values(sz(m, m), 4, 1.0 / static_cast<double>(m)), random_values(sz(m, rhs), 5, 1.0),
             std::vector<double>(sz(m, rhs))};
    Workload w;
    w.prepare = [&store] { std::copy(store[1].begin(), store[1].end(), store[2].begin()); };
    if (rhs == 1)
      w.call = [&store, m] {
        cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, to_blas(m), store[0].data(),
                    to_blas(m), store[2].data(), 1);
      };
    else
      w.call = [&store, m, n] {
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, to_blas(m), to_blas(n),
                    1.0, store[0].data(), to_blas(m), store[2].data(), to_blas(m));
      };
    return w;
  }
  if (s.kernel == "cpu.pfact.fp64" || s.kernel == "cpu.getrf.fp64") {
    const std::int64_t cols = s.kernel == "cpu.getrf.fp64" ? m : n;
    store = {random_values(sz(m, cols), 6, 1.0), std::vector<double>(sz(m, cols))};
    ipiv.assign(static_cast<std::size_t>(std::min(m, cols)), 0);
    const bool unblocked = s.kernel == "cpu.pfact.fp64";
    return {[&store] { std::copy(store[0].begin(), store[0].end(), store[1].begin()); },
            [&store, &ipiv, m, cols, unblocked] {
              blasint rows = to_blas(m), width = to_blas(cols), lda = to_blas(m), info = 0;
              if (unblocked)
                BLASFUNC(dgetf2)(&rows, &width, store[1].data(), &lda, ipiv.data(), &info);
              else
                BLASFUNC(dgetrf)(&rows, &width, store[1].data(), &lda, ipiv.data(), &info);
            }};
  }
  if (s.kernel == "cpu.gemv.fp64") {
    store = {random_values(sz(m, n), 7, 1.0), random_values(static_cast<std::size_t>(n), 8, 1.0),
             random_values(static_cast<std::size_t>(m), 9, 1.0)};
    return {{}, [&store, m, n] {
              cblas_dgemv(CblasColMajor, CblasNoTrans, to_blas(m), to_blas(n), -1.0, store[0].data(),
                          to_blas(m), store[1].data(), 1, 1.0, store[2].data(), 1);
            }};
  }
  if (s.kernel == "cpu.idamax.fp64") {
    store = {random_values(static_cast<std::size_t>(m), 10, 1.0)};
    return {{}, [&store, m] { g_sink = g_sink + cblas_idamax(to_blas(m), store[0].data(), 1); }};
  }
  if (s.kernel == "cpu.laswp.fp64") {
    // Gather m rows, chosen at random among 4m, of an (4m) x n matrix (HPL_dlaswp01T-like).
    const std::int64_t rows = 4 * m;
    store = {random_values(sz(rows, n), 11, 1.0), std::vector<double>(sz(m, n))};
    std::mt19937_64 rng(12);
    ipiv.resize(static_cast<std::size_t>(m));
    for (blasint& p : ipiv)
      p = static_cast<blasint>(rng() % static_cast<std::uint64_t>(rows));
    return {{}, [&store, &ipiv, m, n, rows] {
              const double* a = store[0].data();
              double* w = store[1].data();
              for (std::int64_t j = 0; j < n; ++j)
                for (std::int64_t i = 0; i < m; ++i)
                  w[i + j * m] = a[ipiv[static_cast<std::size_t>(i)] + j * rows];
            }};
  }
  throw std::invalid_argument("measure_cpu: cannot time kernel '" + s.kernel +
                              "' (supported: cpu.*.fp64 of " +
                              "gemm, trsm, pfact, getrf, gemv, trsv, idamax, laswp)");
}

// One timing: seconds per call, looping until min_sample_s has been spent in
// calls; the timer's own cost is subtracted per timed region.
double time_once(const Workload& w, double min_sample_s, const TimerClock& clock, double timer_overhead_s) {
  double spent = 0.0;
  long calls = 0;
  if (!w.prepare) {
    // Batches of doubling size under one timer (no per-call timer overhead).
    long batch = 1;
    while (spent < min_sample_s || calls == 0) {
      const double t0 = clock.now();
      for (long i = 0; i < batch; ++i)
        w.call();
      spent += std::max(0.0, clock.now() - t0 - timer_overhead_s);
      calls += batch;
      batch *= 2;
    }
  } else {
    while (spent < min_sample_s || calls == 0) {
      w.prepare();
      const double t0 = clock.now();
      w.call();
      spent += std::max(0.0, clock.now() - t0 - timer_overhead_s);
      ++calls;
    }
  }
  return spent / static_cast<double>(calls);
}

void add_product(std::vector<MeasureShape>& out, const std::string& kernel,
                 const std::vector<std::int64_t>& ms, const std::vector<std::int64_t>& ns, bool k_is_n) {
  for (std::int64_t m : ms)
    for (std::int64_t n : ns)
      out.push_back({kernel, m, n, k_is_n ? n : 0});
}

} // namespace

std::vector<MeasureShape> cpu_measure_grid(MeasureGrid grid, const std::vector<std::string>& kernels) {
  const std::vector<std::string>& wanted = kernels.empty() ? all_kernels() : kernels;
  for (const std::string& k : wanted)
    if (std::find(all_kernels().begin(), all_kernels().end(), k) == all_kernels().end())
      throw std::invalid_argument("cpu_measure_grid: kernel '" + k + "' is not measured here");
  const bool small = grid == MeasureGrid::Small;
  std::vector<MeasureShape> out;
  const auto want = [&](const char* name) {
    return std::find(wanted.begin(), wanted.end(), name) != wanted.end();
  };
  if (want("cpu.gemm.fp64")) {
    // Square shapes, then HPL-like trailing updates m = n, k = NB.
    const std::vector<std::int64_t> squares =
        small ? std::vector<std::int64_t>{64, 96, 128, 192, 256, 384, 512, 768}
              : std::vector<std::int64_t>{64, 128, 256, 384, 512, 1024, 1536, 2048};
    for (std::int64_t s : squares)
      out.push_back({"cpu.gemm.fp64", s, s, s});
    const std::vector<std::int64_t> mn = small ? std::vector<std::int64_t>{256, 512, 1024}
                                               : std::vector<std::int64_t>{256, 512, 1024, 2048, 3072};
    const std::vector<std::int64_t> nb = small ? std::vector<std::int64_t>{32, 64, 128, 256}
                                               : std::vector<std::int64_t>{32, 64, 128, 256, 512};
    for (std::int64_t m : mn)
      for (std::int64_t k : nb)
        if (!(m == k)) out.push_back({"cpu.gemm.fp64", m, m, k});
  }
  if (want("cpu.trsm.fp64"))
    add_product(out, "cpu.trsm.fp64",
                small ? std::vector<std::int64_t>{32, 64, 128, 256}
                      : std::vector<std::int64_t>{32, 64, 128, 256, 512},
                // An odd count of n values makes even/odd indices alternate in n (the test's split).
                small ? std::vector<std::int64_t>{256, 512, 1024}
                      : std::vector<std::int64_t>{256, 1024, 3072},
                false);
  if (want("cpu.pfact.fp64")) // leaf panels of HPL's recursive factorization: width <= NBMIN
    add_product(out, "cpu.pfact.fp64",
                small ? std::vector<std::int64_t>{512, 2048, 8192}
                      : std::vector<std::int64_t>{256, 1024, 4096, 16384, 65536},
                small ? std::vector<std::int64_t>{4, 8, 16} : std::vector<std::int64_t>{4, 8, 16, 32}, false);
  if (want("cpu.getrf.fp64"))
    for (std::int64_t m : small ? std::vector<std::int64_t>{64, 128, 256, 512}
                                : std::vector<std::int64_t>{64, 128, 256, 512, 1024, 2048})
      out.push_back({"cpu.getrf.fp64", m, m, 0});
  if (want("cpu.gemv.fp64"))
    for (std::int64_t m : small ? std::vector<std::int64_t>{64, 256, 1024}
                                : std::vector<std::int64_t>{64, 256, 1024, 2048, 4096})
      out.push_back({"cpu.gemv.fp64", m, m, 0});
  if (want("cpu.trsv.fp64"))
    for (std::int64_t m : small ? std::vector<std::int64_t>{64, 256, 1024}
                                : std::vector<std::int64_t>{64, 256, 1024, 2048, 4096})
      out.push_back({"cpu.trsv.fp64", m, 1, 0});
  if (want("cpu.idamax.fp64"))
    for (std::int64_t m : small ? std::vector<std::int64_t>{64, 4096, 262144}
                                : std::vector<std::int64_t>{64, 1024, 16384, 262144, 1048576})
      out.push_back({"cpu.idamax.fp64", m, 0, 0});
  if (want("cpu.laswp.fp64"))
    add_product(out, "cpu.laswp.fp64",
                small ? std::vector<std::int64_t>{32, 128} : std::vector<std::int64_t>{32, 128, 512},
                small ? std::vector<std::int64_t>{256, 1024} : std::vector<std::int64_t>{256, 1024, 4096},
                false);
  return out;
}

std::vector<KernelSample> measure_cpu_shapes(const std::vector<MeasureShape>& shapes,
                                             const MeasureOptions& options) {
  if (options.threads < 1)
    throw std::invalid_argument("measure_cpu: threads must be >= 1, got " + std::to_string(options.threads));
  if (options.repeats < 1)
    throw std::invalid_argument("measure_cpu: repeats must be >= 1, got " + std::to_string(options.repeats));
  if (!(options.min_sample_s >= 0.0))
    throw std::invalid_argument("measure_cpu: min_sample_s must be >= 0, got " +
                                std::to_string(options.min_sample_s));
  const int previous_threads = openblas_get_num_threads();
  openblas_set_num_threads(options.threads);
  std::vector<KernelSample> out;
  std::vector<std::vector<double>> store;
  std::vector<blasint> ipiv;
  const TimerClock clock{options.threads == 1 ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC};
  const double timer_overhead_s = clock.overhead();
  try {
    for (const MeasureShape& s : shapes) {
      const Workload w = make_workload(s, store, ipiv);
      if (w.prepare) w.prepare();
      w.call(); // warm-up: page faults, OpenBLAS buffers, caches
      std::vector<double> times;
      for (int r = 0; r < options.repeats; ++r)
        times.push_back(time_once(w, options.min_sample_s, clock, timer_overhead_s));
      std::nth_element(times.begin(), times.begin() + static_cast<long>(times.size() / 2), times.end());
      out.push_back({s.kernel, s.m, s.n, s.k, times[times.size() / 2], 0});
    }
  } catch (...) {
    openblas_set_num_threads(previous_threads);
    throw;
  }
  openblas_set_num_threads(previous_threads);
  return out;
}

void measure_cpu_kernels(std::ostream& csv_out, const MeasureOptions& options) {
  const auto samples = measure_cpu_shapes(cpu_measure_grid(options.grid, options.kernels), options);
  write_kernel_csv_header(csv_out);
  for (const KernelSample& s : samples)
    write_kernel_csv_row(csv_out, s);
}

void measure_cpu_dgemm(std::ostream& csv_out, const MeasureOptions& options) {
  MeasureOptions gemm_only = options;
  gemm_only.kernels = {"cpu.gemm.fp64"};
  measure_cpu_kernels(csv_out, gemm_only);
}

CpuPeak cpu_peak_fp64(int cores, const std::string& cpuinfo_path) {
  if (cores < 1)
    throw std::invalid_argument("cpu_peak_fp64: cores must be >= 1, got " + std::to_string(cores));
  std::ifstream in(cpuinfo_path);
  if (!in) throw std::runtime_error(cpuinfo_path + ": cannot open");
  std::string line;
  double mhz = 0.0;
  std::string mhz_text;
  std::set<std::string> flags;
  std::string model;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const std::string value = colon + 1 < line.size() ? line.substr(colon + 2) : "";
    if (key == "cpu MHz" && mhz == 0.0) {
      mhz_text = value;
      mhz = std::stod(value);
    }
    if (key == "model name" && model.empty()) model = value;
    if (key == "flags" && flags.empty()) {
      std::istringstream words(value);
      for (std::string w; words >> w;)
        flags.insert(w);
    }
  }
  if (mhz <= 0.0) throw std::runtime_error(cpuinfo_path + ": no 'cpu MHz' line; give the peak explicitly");
  CpuPeak p;
  p.clock_hz = mhz * 1e6;
  p.flops_per_cycle = flags.count("avx512f")                        ? 32
                      : (flags.count("fma") && flags.count("avx2")) ? 16
                      : flags.count("avx")                          ? 8
                                                                    : 4;
  p.cores = cores;
  p.flops_per_s = p.clock_hz * p.flops_per_cycle * cores;
  std::ostringstream d;
  d << cores << " core(s) x " << mhz_text << " MHz ('cpu MHz' of " << cpuinfo_path << ", " << model << ") x "
    << p.flops_per_cycle << " FP64 flop/cycle (2 FMA pipes of the widest vector in the ISA flags)";
  p.description = d.str();
  return p;
}

std::string blas_description() {
  return std::string(openblas_get_config()) + " core " + openblas_get_corename();
}

} // namespace hplsim::models
