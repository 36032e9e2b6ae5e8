// Integration tests of the hplsim command line, run as a subprocess
// (cli_runner.hpp): topology figures, same-seed determinism, seeds,
// user-input errors with their file:line:field, and traces. The modes
// against reference mode: modes_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

using nlohmann::json;

const std::string kSmallDragonfly = source_path("scenarios/small-dragonfly.textproto");

/// `text` with the first occurrence of `from` replaced (the test fails if absent).
std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "scenario text has no \"" << from << "\"";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// 1-based line of the first occurrence of `needle` in `text`.
int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << "no \"" << needle << "\"";
  int line = 1;
  for (std::size_t i = 0; i < at && i < text.size(); ++i)
    line += text[i] == '\n' ? 1 : 0;
  return line;
}

json read_summary(const fs::path& dir) {
  return json::parse(read_text(dir / "summary.json"));
}

std::size_t line_count(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text)
    lines += c == '\n' ? 1 : 0;
  return lines;
}

/// Writes `text` as a scenario, runs `hplsim run` on it, expects exit code 1
/// and returns the error text with the scenario's path.
std::pair<std::string, std::string> run_bad_scenario(const TempDir& dir, const std::string& text) {
  const std::string path = (dir / "bad.textproto").string();
  write_text(path, text);
  const CliResult r = run_hplsim({"run", path, "--out", (dir / "out").string()}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  return {r.err, path};
}

// ------------------------------------------------------------------ topo

TEST(CliTopo, AuroraMatchesThePublishedCountsAndBandwidths) {
  TempDir dir;
  const CliResult r = run_hplsim({"topo", source_path("scenarios/aurora-hpl-sc24.textproto"), "--json"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json topo = json::parse(r.out);
  // Aurora paper (arXiv 2604.09517; docs/sources.md; also cited in
  // scenarios/aurora-hpl-sc24.textproto): 10,624 nodes x 8 NICs = 84,992 NICs;
  // 166 compute groups x 32 switches = 5,312 switches.
  EXPECT_EQ(topo.at("nodes").get<long>(), 10624);
  EXPECT_EQ(topo.at("nics").get<long>(), 84992);
  EXPECT_EQ(topo.at("switches").get<long>(), 5312);
  // Same paper: aggregate injection 2.12 PB/s, global bisection 0.69 PB/s,
  // both given to 3 figures, so +-1%. (Hand check: 84,992 x 25 GB/s =
  // 2.1248e15; 83 x 83 x 2 links x 25 GB/s x 2 directions = 0.6889e15.)
  EXPECT_NEAR(topo.at("injection_bandwidth_bytes_per_s").get<double>(), 2.12e15, 0.01 * 2.12e15);
  EXPECT_NEAR(topo.at("bisection_bandwidth_bytes_per_s").get<double>(), 0.69e15, 0.01 * 0.69e15);
}

// ------------------------------------------------------------------ run: determinism and seeds

// N 6144 halves small-dragonfly's ~9 s (24 panel steps instead of 48) and
// keeps every rank and message of the 288-rank grid.
const std::vector<std::string> kHalfN = {"--N", "6144"};

std::vector<std::string> run_args(const fs::path& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"run", kSmallDragonfly, "--out", out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(CliRun, SameScenarioTwiceGivesByteIdenticalOutputs) {
  TempDir dir;
  const CliResult a = run_hplsim(run_args(dir / "a", kHalfN), dir);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const CliResult b = run_hplsim(run_args(dir / "b", kHalfN), dir);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const std::string summary = read_text(dir / "a" / "summary.json");
  const std::string steps = read_text(dir / "a" / "steps.csv");
  EXPECT_EQ(summary, read_text(dir / "b" / "summary.json"));
  EXPECT_EQ(steps, read_text(dir / "b" / "steps.csv"));

  const json s = json::parse(summary);
  for (const char* key : {"rmax_tflops", "time_s", "n", "nb", "p", "q", "nodes", "ranks", "steps", "mode",
                          "seed", "phase_totals_s", "crossover_step", "crossover_fraction", "completed"})
    EXPECT_TRUE(s.contains(key)) << "summary.json lacks " << key;
  for (const char* phase : {"pfact", "bcast", "swap", "trsm", "gemm"})
    EXPECT_TRUE(s.at("phase_totals_s").contains(phase)) << "phase_totals_s lacks " << phase;
  EXPECT_EQ(s.at("n").get<long>(), 6144);
  EXPECT_EQ(s.at("mode").get<std::string>(), "reference");
  EXPECT_TRUE(s.at("completed").get<bool>());
  // One row per panel step plus the final solve, plus the header:
  // ceil(6144 / 256) = 24 steps -> 25 rows -> 26 lines.
  const long n = s.at("n").get<long>();
  const long nb = s.at("nb").get<long>();
  EXPECT_EQ(line_count(steps), static_cast<std::size_t>((n + nb - 1) / nb + 1 + 1));
}

TEST(CliRun, FoldedRunWithCollectivePivotsGivesByteIdenticalOutputsTwice) {
  // A folded window's pivot exchanges and panels meet at barriers and are
  // priced by the last member to arrive (sim/engine/pivot_exchange.cpp): the order in
  // which the members get there must not leak into the outputs. Nor must how
  // many window processes run at once (one, then three: every window starts
  // from the same state in a process of its own).
  TempDir dir;
  const auto args = [&](const char* name, const char* workers) {
    return std::vector<std::string>{"run",     source_path("scenarios/aurora-hpl-sc24.textproto"),
                                    "--nodes", "16",
                                    "--P",     "8",
                                    "--Q",     "12",
                                    "--N",     "1197312",
                                    "--set",   "options.fast.fold=ON",
                                    "--set",   std::string("options.fast.workers=") + workers,
                                    "--out",   (dir / name).string()};
  };
  const CliResult a = run_hplsim(args("a", "1"), dir);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const CliResult b = run_hplsim(args("b", "3"), dir);
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(read_text(dir / "a" / "summary.json"), read_text(dir / "b" / "summary.json"));
  EXPECT_EQ(read_text(dir / "a" / "steps.csv"), read_text(dir / "b" / "steps.csv"));
}

namespace {

// Runs `args` twice, with the collective panel factorization on and off (the
// pivot exchanges collective in both), and checks that Rmax and the PFACT
// total agree within `rmax_rel` and `pfact_rel`.
void expect_collective_panel_as_ops(std::vector<std::string> args, double rmax_rel, double pfact_rel) {
  TempDir dir;
  args.insert(args.end(), {"--set", "options.fast.pivot_collective=true"});
  const auto run = [&](const char* name, const char* panel) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--set", std::string("options.fast.panel_collective=") + panel, "--out",
                       (dir / name).string()});
    const CliResult r = run_hplsim(a, dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_summary(dir / name);
  };
  const json panel = run("panel", "true"), ops = run("ops", "false");
  const double rmax = ops.at("rmax_tflops").get<double>();
  EXPECT_GT(rmax, 0.0);
  EXPECT_NEAR(panel.at("rmax_tflops").get<double>(), rmax, rmax_rel * rmax);
  const double pfact = ops.at("phase_totals_s").at("pfact").get<double>();
  EXPECT_GT(pfact, 0.0);
  EXPECT_NEAR(panel.at("phase_totals_s").at("pfact").get<double>(), pfact, pfact_rel * pfact);
}

} // namespace

TEST(CliRun, CollectivePanelFactorizationTimesThePanelAsItsOpsDo) {
  // Fast mode's collective panel factorization (one op per panel and rank,
  // priced by the last member to arrive) against the same panels as their
  // CPU kernels and collective pivot exchanges one op at a time, on a
  // 16-node Aurora slice, unfolded: on a core that does nothing else during
  // the panel the two are the same schedule. Measured: Rmax equal to 5
  // digits, step times within 2e-8 relative (SimGrid's executions against
  // the closed sums); the tolerances leave room for that rounding, on windows
  // of 2 measured steps (on the scenario's windows of 6 the two came out 7e-4
  // apart in Rmax: longer windows give the rounding more steps to grow).
  expect_collective_panel_as_ops({"run", source_path("scenarios/aurora-hpl-sc24.textproto"), "--nodes", "16",
                                  "--P", "8", "--Q", "12", "--N", "599040", "--set",
                                  "options.fast.initial_windows=4", "--set", "options.fast.max_windows=6",
                                  "--set", "options.fast.measured_steps=2", "--set", "options.fast.fold=OFF",
                                  // The sourced model: the two schedules compared without
                                  // the fitted per-node, per-step GPU factor.
                                  "--sourced-only"},
                                 1e-5, 1e-4);
}

TEST(CliRun, CollectiveGpuPanelTimesThePanelAsItsOpsDo) {
  // The same for a panel factored on the GPU (rocHPL 7: its kernels on the
  // GPU, each column's leaf kernel beside the column's exchange, the flag
  // copies around it), on CSCS's one-node MI300A check at a smaller N: one
  // op per panel and member against its kernels, copies and collective pivot
  // exchanges one op at a time. Measured: Rmax and the PFACT total equal to
  // 1e-13 relative (the closed sums against the private resources' steps).
  expect_collective_panel_as_ops(
      {"run", source_path("scenarios/validation/mi300a-node-rochpl7.textproto"), "--N", "61440"}, 1e-7, 1e-7);
}

TEST(CliRun, SeedChangesTheResultOnlyWhenItChanges) {
  TempDir dir;
  // Per-kernel jitter (5% CV, an arbitrary test value) is drawn from the seed.
  std::vector<std::string> jitter = kHalfN;
  jitter.insert(jitter.end(), {"--set", "machine.variability.kernel_jitter_cv=0.05"});
  auto with_seed = [&](const char* seed) {
    std::vector<std::string> extra = jitter;
    extra.insert(extra.end(), {"--seed", seed});
    return extra;
  };
  ASSERT_EQ(run_hplsim(run_args(dir / "s1", with_seed("1")), dir).exit_code, 0);
  ASSERT_EQ(run_hplsim(run_args(dir / "s1again", with_seed("1")), dir).exit_code, 0);
  ASSERT_EQ(run_hplsim(run_args(dir / "s2", with_seed("2")), dir).exit_code, 0);
  EXPECT_EQ(read_text(dir / "s1" / "summary.json"), read_text(dir / "s1again" / "summary.json"));
  EXPECT_EQ(read_text(dir / "s1" / "steps.csv"), read_text(dir / "s1again" / "steps.csv"));
  // Another seed draws other jitter: per-step times differ. The total moves
  // little (measured: 0.10004776 s vs 0.10005431 s, 7e-5 relative; the
  // critical path is PFACT and BCAST, and jitter averages over many
  // kernels), so the test asserts a difference, not its size.
  EXPECT_NE(read_text(dir / "s1" / "steps.csv"), read_text(dir / "s2" / "steps.csv"));
  EXPECT_NE(read_summary(dir / "s1").at("time_s").get<double>(),
            read_summary(dir / "s2").at("time_s").get<double>());
}

TEST(CliRun, NodeGpuStepFactorReachesTheReplay) {
  // machine.variability.node_gpu_step_cv (0.3, an arbitrary test value) slows
  // the GPU kernels of each node and step by a mean-1 factor: a step waits for
  // its slowest node, so the run takes longer than without it; the same seed
  // gives the same bytes.
  TempDir dir;
  std::vector<std::string> factor = kHalfN;
  factor.insert(factor.end(), {"--set", "machine.variability.node_gpu_step_cv=0.3"});
  ASSERT_EQ(run_hplsim(run_args(dir / "off", kHalfN), dir).exit_code, 0);
  ASSERT_EQ(run_hplsim(run_args(dir / "on", factor), dir).exit_code, 0);
  ASSERT_EQ(run_hplsim(run_args(dir / "again", factor), dir).exit_code, 0);
  EXPECT_GT(read_summary(dir / "on").at("time_s").get<double>(),
            read_summary(dir / "off").at("time_s").get<double>());
  EXPECT_EQ(read_text(dir / "on" / "steps.csv"), read_text(dir / "again" / "steps.csv"));
}

TEST(CliRun, SystemNoiseIsReportedAndRepeatsToTheByte) {
  // A CORE-scope source (20 detours a second of 1 ms, test values) slows the
  // run; stdout and summary.json say which noise was in effect; the same seed
  // gives the same bytes; a run without noise has no "noise" key.
  TempDir dir;
  std::vector<std::string> noisy = kHalfN;
  noisy.insert(noisy.end(), {"--set", "machine.variability.noise.sources[0].scope=CORE", "--set",
                             "machine.variability.noise.sources[0].poisson.rate_per_s=20", "--set",
                             "machine.variability.noise.sources[0].poisson.length_s=1e-3"});
  ASSERT_EQ(run_hplsim(run_args(dir / "off", kHalfN), dir).exit_code, 0);
  const CliResult on = run_hplsim(run_args(dir / "on", noisy), dir);
  ASSERT_EQ(on.exit_code, 0) << on.err;
  ASSERT_EQ(run_hplsim(run_args(dir / "again", noisy), dir).exit_code, 0);
  EXPECT_NE(on.out.find("System noise: per core 20 /s x 1 ms;"), std::string::npos) << on.out;
  const json s = read_summary(dir / "on");
  EXPECT_EQ(s.at("noise").at("sources").at(0).at("scope").get<std::string>(), "CORE");
  EXPECT_FALSE(read_summary(dir / "off").contains("noise"));
  EXPECT_GT(s.at("time_s").get<double>(), read_summary(dir / "off").at("time_s").get<double>());
  EXPECT_EQ(read_text(dir / "on" / "steps.csv"), read_text(dir / "again" / "steps.csv"));
  EXPECT_EQ(read_text(dir / "on" / "summary.json"), read_text(dir / "again" / "summary.json"));
}

// ------------------------------------------------------------------ bad inputs: exit 1, where and what

TEST(CliErrors, MisspelledFieldNamesFileLineAndField) {
  TempDir dir;
  const std::string text = replace_once(small_dragonfly_text(), "\n  nb: 256", "\n  nbb: 256");
  const auto [err, path] = run_bad_scenario(dir, text);
  EXPECT_NE(err.find(path + ":" + std::to_string(line_of(text, "nbb:")) + ":"), std::string::npos) << err;
  EXPECT_NE(err.find("nbb"), std::string::npos) << err;
}

TEST(CliErrors, GridThatDoesNotMatchRanksNamesFileLineAndFields) {
  TempDir dir;
  const std::string text = replace_once(small_dragonfly_text(), "\n  p: 12", "\n  p: 5");
  const auto [err, path] = run_bad_scenario(dir, text);
  // Located at the workload message (the rule involves four of its fields).
  EXPECT_NE(err.find(path + ":" + std::to_string(line_of(text, "workload {")) + ":"), std::string::npos)
      << err;
  EXPECT_NE(err.find("p*q = 120"), std::string::npos) << err;                  // 5 x 24
  EXPECT_NE(err.find("nodes*ranks_per_node = 288"), std::string::npos) << err; // 48 x 6
}

TEST(CliErrors, MatrixSmallerThanBlockNamesFileLineAndFields) {
  TempDir dir;
  const std::string text = replace_once(small_dragonfly_text(), "\n  n: 12288", "\n  n: 100");
  const auto [err, path] = run_bad_scenario(dir, text);
  EXPECT_NE(err.find(path + ":" + std::to_string(line_of(text, "\n  nb: 256") + 1) + ":"), std::string::npos)
      << err;
  EXPECT_NE(err.find("n = 100 must be >= nb = 256"), std::string::npos) << err;
}

TEST(CliErrors, NegativeBandwidthNamesFileLineAndField) {
  TempDir dir;
  const std::string text = replace_once(small_dragonfly_text(), "local_link_bandwidth_bytes_per_s: 25e9",
                                        "local_link_bandwidth_bytes_per_s: -25e9");
  const auto [err, path] = run_bad_scenario(dir, text);
  EXPECT_NE(err.find(path + ":" + std::to_string(line_of(text, "local_link_bandwidth")) + ":"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("machine.topology.dragonfly.local_link_bandwidth_bytes_per_s must be > 0"),
            std::string::npos)
      << err;
}

TEST(CliErrors, UnknownSetPathNamesTheOverrideAndField) {
  TempDir dir;
  // A command-line override has no file line: the error is located at the
  // override itself ("--set workload.nbb=3: Workload has no field nbb").
  const CliResult r = run_hplsim(run_args(dir / "out", {"--set", "workload.nbb=3"}), dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--set workload.nbb=3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("has no field nbb"), std::string::npos) << r.err;
}

// The analytic mode is HPL's closed form; on an HPL-MxP scenario it refuses,
// naming the flag that asked for it as typed (HPL's FP64 answer would read
// 554 PF/s for Aurora's 11.6 EF/s MxP run).
TEST(CliErrors, AnalyticModeRefusesHplMxp) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", source_path("scenarios/aurora-mxp-sc24.textproto"), "--mode",
                                  "analytic", "--out", (dir / "out").string()},
                                 dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--mode analytic"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("closed form only, not HPL-MxP's"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out" / "summary.json"));
}

TEST(CliErrors, MissingScenarioFileExitsWithInputError) {
  TempDir dir;
  const std::string missing = (dir / "missing.textproto").string();
  const CliResult r = run_hplsim({"run", missing, "--out", (dir / "out").string()}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
}

TEST(CliErrors, TraceRejectsReversedStepRange) {
  TempDir dir;
  const CliResult r =
      run_hplsim({"trace", kSmallDragonfly, "--steps", "5:2", "--out", (dir / "t.bin").string()}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--steps 5:2"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.bin"));
}

TEST(CliRun, InlineProtocolFieldsApplyOverTheProtocolFile) {
  // The MN4 preset's send overhead is 0; 50 us inline adds 50 us to every
  // osu_latency row (1.10 us at 0 B with the preset alone: docs/osu-presets.md),
  // and a bad inline value is located at the field it sets.
  TempDir dir;
  const std::string scenario = source_path("scenarios/marenostrum4-osu.textproto");
  const auto latency_at_0_us = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"osu", "latency", scenario, "--max-bytes", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliResult r = run_hplsim(args, dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] == '0') return std::stod(line.substr(1));
    return -1.0;
  };
  const double plain_us = latency_at_0_us({});
  EXPECT_NEAR(plain_us, 1.10, 0.01);
  EXPECT_NEAR(latency_at_0_us({"--set", "machine.protocol.send_overhead_s=5e-5"}), plain_us + 50.0, 0.01);
  const CliResult bad =
      run_hplsim({"osu", "latency", scenario, "--set", "machine.protocol.send_overhead_s=-1"}, dir);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("machine.protocol.send_overhead_s"), std::string::npos) << bad.err;
}

TEST(CliErrors, BadValueInProtocolFileNamesThatFileLineAndField) {
  TempDir dir;
  // The MN4 preset with its second segment's bandwidth factor made negative.
  const std::string preset = read_text(source_path("models/calibrations/marenostrum4-opa.textproto"));
  const std::string bad_preset = replace_once(preset, "bandwidth_factor: 0.96049", "bandwidth_factor: -1");
  const fs::path preset_path = dir / "bad-preset.textproto";
  write_text(preset_path, bad_preset);
  const std::string scenario =
      replace_once(read_text(source_path("scenarios/marenostrum4-osu.textproto")),
                   "\"../models/calibrations/marenostrum4-opa.textproto\"", "\"bad-preset.textproto\"");
  const std::string path = (dir / "osu.textproto").string();
  write_text(path, scenario);
  const CliResult r = run_hplsim({"osu", "latency", path}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find(preset_path.string() + ":" +
                       std::to_string(line_of(bad_preset, "bandwidth_factor: -1")) + ":"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("segments[1].bandwidth_factor must be > 0"), std::string::npos) << r.err;
}

// ------------------------------------------------------------------ trace

TEST(CliTrace, WritesTheRequestedStepsInBinaryAndText) {
  TempDir dir;
  const CliResult bin =
      run_hplsim({"trace", kSmallDragonfly, "--steps", "0:1", "--out", (dir / "t.bin").string()}, dir);
  ASSERT_EQ(bin.exit_code, 0) << bin.err;
  EXPECT_GT(fs::file_size(dir / "t.bin"), 0u);
  const CliResult txt = run_hplsim(
      {"trace", kSmallDragonfly, "--steps", "0:1", "--out", (dir / "t.txt").string(), "--text"}, dir);
  ASSERT_EQ(txt.exit_code, 0) << txt.err;
  const std::string text = read_text(dir / "t.txt");
  EXPECT_NE(text.find("ranks {"), std::string::npos);
  EXPECT_NE(text.find("\nstep: 1\n"), std::string::npos);
  EXPECT_EQ(text.find("\nstep: 2\n"), std::string::npos); // only steps 0..1
}

} // namespace
} // namespace hplsim::sim::testing
