// `hplsim osu <collective>` (sim/bench/osu_collectives.hpp) on the MareNostrum 4
// scenario, run as a subprocess: OSU's output format, the sizes OSU runs, and
// closed forms on small layouts where every message's time is known from the
// scenario (8 B between two nodes of leaf 0: 1.10 us, the osu_latency point the
// protocol preset reproduces; between two ranks of one node: the shm latency
// plus bytes over the per-rank copy rate).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "models/osu_output.hpp"
#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

const std::string kMareNostrum4 = source_path("scenarios/marenostrum4-osu.textproto");

struct Table {
  std::vector<long long> sizes;
  std::vector<double> us;
  std::string text;
};

Table osu(const std::vector<std::string>& extra) {
  TempDir dir;
  std::vector<std::string> args = {"osu"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.emplace_back("--no-noise"); // the closed forms are the quiet machine's
  const CliResult r = run_hplsim(args, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  Table t;
  t.text = r.out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    long long size = 0;
    double us = 0;
    if (row >> size >> us) {
      t.sizes.push_back(size);
      t.us.push_back(us);
    }
  }
  return t;
}

double at(const Table& t, long long size) {
  for (std::size_t i = 0; i < t.sizes.size(); ++i)
    if (t.sizes[i] == size) return t.us[i];
  ADD_FAILURE() << "no row for " << size << " B in\n" << t.text;
  return 0;
}

TEST(OsuCollectives, AllreduceOn16NodesOf48RanksPrintsOsuRows) {
  const Table t = osu({"allreduce", kMareNostrum4, "--nodes", "16", "--ppn", "48"});
  EXPECT_NE(t.text.find("# OSU MPI Allreduce Latency Test v5.6.3"), std::string::npos) << t.text;
  EXPECT_NE(t.text.find("# Size         Avg Latency(us)"), std::string::npos) << t.text;
  // OMB's osu_allreduce runs floats: 4 B to 1 MiB, 19 sizes.
  ASSERT_EQ(t.sizes.size(), 19u);
  EXPECT_EQ(t.sizes.front(), 4);
  EXPECT_EQ(t.sizes.back(), 1 << 20);
  EXPECT_GT(at(t, 8), 0.0);
  EXPECT_GT(at(t, 8192), at(t, 8));
  // The parser `hplsim calibrate network` uses reads it as a latency table.
  std::istringstream in(t.text);
  const models::OsuTable parsed = models::parse_osu_output(in, "osu_allreduce");
  EXPECT_EQ(parsed.points.size(), 19u);
}

TEST(OsuCollectives, TwoNodesExchangeOnceAndFourNodesBroadcastInTwoRounds) {
  // Recursive doubling over 2 ranks on 2 nodes: one exchange of 8 B (both
  // directions at once: 1.10 us) and an 8 B combine at 5e9 B/s (0.0016 us).
  const Table ar = osu({"allreduce", kMareNostrum4, "--nodes", "2", "--ppn", "1", "--max-bytes", "8"});
  EXPECT_NEAR(at(ar, 8), 1.10, 0.02);
  // Binomial broadcast over 4 nodes of leaf 0: rank 0 sends to 2 then to 1,
  // rank 2 forwards to 3; every rank is done at 2 message times (2.20 us).
  const Table bc = osu({"bcast", kMareNostrum4, "--nodes", "4", "--ppn", "1", "--max-bytes", "8"});
  EXPECT_NEAR(at(bc, 8), 2.20, 0.03);
}

TEST(OsuCollectives, RanksOfOneNodeMeetThroughSharedMemory) {
  // Two ranks of one node exchanging once (recursive doubling): shm_latency_s
  // 0.4 us + 8 B / 8e9 B/s (the per-rank copy link), with no protocol factors
  // (protocol.intra_node false).
  const Table rd = osu({"allreduce", kMareNostrum4, "--nodes", "1", "--ppn", "2", "--max-bytes", "8",
                        "--algorithm", "recursive_doubling"});
  EXPECT_NEAR(at(rd, 8), 0.40, 0.01);
  // MPICH's table runs it node-aware even on one node: a reduce to rank 0,
  // then a broadcast back, two messages one after the other.
  const Table smp = osu({"allreduce", kMareNostrum4, "--nodes", "1", "--ppn", "2", "--max-bytes", "8"});
  EXPECT_NEAR(at(smp, 8), 0.80, 0.02);
}

TEST(OsuCollectives, SameRunSameBytesAndForcedAlgorithms) {
  const std::vector<std::string> args = {"alltoall", kMareNostrum4, "--nodes",     "2",
                                         "--ppn",    "8",           "--max-bytes", "65536"};
  EXPECT_EQ(osu(args).text, osu(args).text);
  // Forcing the ring on a 16-rank allgather: p - 1 = 15 message times, more
  // than Bruck's 4 for the smallest size.
  const Table ring = osu(
      {"allgather", kMareNostrum4, "--nodes", "2", "--ppn", "8", "--max-bytes", "1", "--algorithm", "ring"});
  const Table bruck = osu(
      {"allgather", kMareNostrum4, "--nodes", "2", "--ppn", "8", "--max-bytes", "1", "--algorithm", "bruck"});
  EXPECT_GT(at(ring, 1), 2.0 * at(bruck, 1));
  EXPECT_NE(ring.text.find("# algorithms: ring 1 B"), std::string::npos) << ring.text;
}

TEST(OsuCollectives, BarrierPrintsOneLine) {
  const Table t = osu({"barrier", kMareNostrum4, "--nodes", "4", "--ppn", "1"});
  EXPECT_NE(t.text.find("# Avg Latency(us)"), std::string::npos) << t.text;
  // Dissemination over 4 nodes: 2 rounds of empty messages (1.10 us each).
  // OSU's "%17.2f": the value alone, with no size column.
  EXPECT_NE(t.text.find("\n             2.20\n"), std::string::npos) << t.text;
}

TEST(OsuCollectives, TheScenariosNoiseSlowsTheCollectives) {
  // MareNostrum 4's noise file (a 250 Hz tick on every core, 2 ms daemons 4 times a second on each node)
  // on 4 x 48 ranks: every rank waits out the detours of its core between steps, and the allreduce waits
  // for its slowest member, so the 10 iterations' average is above the quiet run's, which is the same
  // simulation as before noise applied to collectives (docs/bench/osu-collectives/).
  TempDir dir;
  const CliResult noisy = run_hplsim(
      {"osu", "allreduce", kMareNostrum4, "--nodes", "4", "--ppn", "48", "--max-bytes", "64"}, dir);
  ASSERT_EQ(noisy.exit_code, 0) << noisy.err;
  EXPECT_NE(
      noisy.out.find("# system noise: machine.variability.noise (2 sources), 10 iterations a size averaged"),
      std::string::npos)
      << noisy.out;
  const Table quiet = osu({"allreduce", kMareNostrum4, "--nodes", "4", "--ppn", "48", "--max-bytes", "64"});
  EXPECT_NE(quiet.text.find("# no system noise (--no-noise), 1 iteration a size"), std::string::npos)
      << quiet.text;
  double noisy_sum = 0, quiet_sum = 0;
  std::istringstream in(noisy.out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    long long size = 0;
    double us = 0;
    if (row >> size >> us) {
      noisy_sum += us;
      quiet_sum += at(quiet, size);
    }
  }
  EXPECT_GT(quiet_sum, 0.0);
  EXPECT_GT(noisy_sum, quiet_sum) << noisy.out << quiet.text;
}

TEST(OsuCollectives, BadLayoutsAndAlgorithmsNameTheirFlag) {
  TempDir dir;
  const CliResult ppn = run_hplsim({"osu", "allreduce", kMareNostrum4, "--nodes", "2", "--ppn", "49"}, dir);
  EXPECT_NE(ppn.exit_code, 0);
  EXPECT_NE(ppn.err.find("--ppn 49"), std::string::npos) << ppn.err;
  const CliResult nodes = run_hplsim({"osu", "allreduce", kMareNostrum4, "--nodes", "97"}, dir);
  EXPECT_NE(nodes.exit_code, 0);
  EXPECT_NE(nodes.err.find("--nodes 97"), std::string::npos) << nodes.err;
  const CliResult algo =
      run_hplsim({"osu", "allreduce", kMareNostrum4, "--nodes", "2", "--algorithm", "pairwise"}, dir);
  EXPECT_NE(algo.exit_code, 0);
  EXPECT_NE(algo.err.find("--algorithm pairwise"), std::string::npos) << algo.err;
  const CliResult typo =
      run_hplsim({"osu", "allreduce", kMareNostrum4, "--nodes", "2", "--algorithm", "rign"}, dir);
  EXPECT_NE(typo.exit_code, 0);
  EXPECT_NE(typo.err.find("--algorithm rign"), std::string::npos) << typo.err;
  const CliResult huge = run_hplsim({"osu", "allreduce", kMareNostrum4, "--max-bytes", "99999999999"}, dir);
  EXPECT_NE(huge.exit_code, 0);
  EXPECT_NE(huge.err.find("--max-bytes 99999999999"), std::string::npos) << huge.err;
  // A machine without an MPI table: the error names machine.mpi.
  const CliResult none = run_hplsim({"osu", "allreduce", source_path("scenarios/bxi-v2-osu.textproto")}, dir);
  EXPECT_NE(none.exit_code, 0);
  EXPECT_NE(none.err.find("machine.mpi"), std::string::npos) << none.err;
}

TEST(OsuCollectives, NodeLevelFlowsFollowTheMessagesOnOneLeaf) {
  // Node-level flows against a flow per message on one leaf switch, where
  // docs/collectives.md measured them identical for Bruck and scattered and
  // within 0.1% for pairwise (8 x 48). Here 2 nodes x 16 ranks (the preset's
  // nodes have one socket): pairwise sends a node's 16 messages of a step to
  // the other node as 4 flows of 4 messages, scattered its 256 messages of a
  // batch as 4 flows of 64. At 32 KiB a message is eager (the preset's first
  // segment, below 43,029 B) and such a flow is not: priced at the flow's
  // size its latency factor would be 10.66 instead of 1.10, about +9.6 us on
  // a ~1 us path for every step that crosses nodes, over 1% of these
  // 680-1,730 us rows. The flows are priced as one of their messages
  // (announce_aggregate_flow), so 0.5% separates the two.
  for (const char* algorithm : {"pairwise", "scattered", "bruck"}) {
    const std::vector<std::string> base = {"alltoall",    kMareNostrum4, "--nodes",     "2",
                                           "--ppn",       "16",          "--min-bytes", "32768",
                                           "--max-bytes", "65536",       "--algorithm", algorithm};
    std::vector<std::string> rank = base, node = base;
    rank.insert(rank.end(), {"--flows", "rank"});
    node.insert(node.end(), {"--flows", "node"});
    const Table r = osu(rank), n = osu(node);
    ASSERT_EQ(r.sizes, n.sizes) << algorithm;
    for (std::size_t i = 0; i < r.sizes.size(); ++i)
      EXPECT_NEAR(n.us[i], r.us[i], 0.005 * r.us[i]) << algorithm << " at " << r.sizes[i] << " B";
    EXPECT_NE(n.text.find("# node-level flows"), std::string::npos) << n.text;
    EXPECT_EQ(r.text.find("# node-level flows"), std::string::npos) << r.text;
  }
  // Every rank of a node takes the node's time (--full: min and max over the ranks).
  const Table full = osu({"alltoall", kMareNostrum4, "--nodes", "2", "--ppn", "16", "--min-bytes", "65536",
                          "--max-bytes", "65536", "--flows", "node", "--full"});
  const std::string row = full.text.substr(full.text.rfind("65536"));
  std::istringstream in(row);
  long long size = 0;
  double avg = 0, min = 0, max = 0;
  ASSERT_TRUE(in >> size >> avg >> min >> max) << full.text;
  EXPECT_DOUBLE_EQ(min, max) << full.text; // both nodes end together: the alltoall is symmetric
  EXPECT_DOUBLE_EQ(avg, max) << full.text;
}

TEST(OsuCollectives, AutoTakesNodeLevelFlowsAboveEightNodes) {
  // MPICH's table sends 512 B alltoalls scattered: node-level above 8 nodes, messages up to 8.
  const auto run = [](const char* nodes) {
    return osu({"alltoall", kMareNostrum4, "--nodes", nodes, "--ppn", "2", "--min-bytes", "512",
                "--max-bytes", "512"});
  };
  EXPECT_NE(run("9").text.find("# node-level flows (docs/collectives.md, \"Node-level flows\"): 512 B"),
            std::string::npos)
      << run("9").text;
  EXPECT_EQ(run("8").text.find("# node-level flows"), std::string::npos) << run("8").text;
  TempDir dir;
  const CliResult bad = run_hplsim({"osu", "alltoall", kMareNostrum4, "--flows", "nodes"}, dir);
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--flows"), std::string::npos) << bad.err;
  // Node-level flows run the alltoall only: asked for another collective, the run is refused.
  const CliResult other =
      run_hplsim({"osu", "allreduce", kMareNostrum4, "--nodes", "2", "--ppn", "2", "--flows", "node"}, dir);
  EXPECT_NE(other.exit_code, 0);
  EXPECT_NE(other.err.find("--flows node"), std::string::npos) << other.err;
}

} // namespace
} // namespace hplsim::sim::testing
