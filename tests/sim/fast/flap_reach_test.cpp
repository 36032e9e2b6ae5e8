// Which NICs a node's traffic crosses, read off the schedule
// (sim/fast/flap_reach.hpp), and what that promises: a flap of a NIC the
// schedule never uses fails no message and costs nothing, simulated in full.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sim/engine/machine.hpp"
#include "sim/fast/flap_reach.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/workload/schedule_source.hpp"
#include "tests/sim/cli/cli_runner.hpp"
#include "tests/sim/engine/isolated.hpp"

namespace hplsim::sim {
namespace {

// small-dragonfly (48 nodes of 6 ranks, 2 sockets of 4 NICs, P x Q = 12 x 24)
// with Aurora's placement: the column traffic (pivot exchanges, swaps) on the
// first NIC of the rank's socket, the row traffic (the broadcast rings)
// spread over the socket's other three by a hash of the pair.
const std::vector<std::string> kAuroraPlacement = {"machine.placement.nic_mapping=PHASE_SPECIFIC",
                                                   "machine.placement.affinity=ALIGNED"};

std::set<int> node_nics(int node, std::int64_t first = 0, std::int64_t last = -1) {
  ScenarioOverrides o;
  o.set = kAuroraPlacement;
  const ResolvedScenario sc =
      resolve(load_scenario(std::string(HPLSIM_SOURCE_DIR) + "/scenarios/small-dragonfly.textproto", o));
  const std::vector<double> nics = run_isolated([&]() {
    BuiltMachine machine = build_machine(sc);
    const auto source = make_schedule_source(sc);
    std::vector<double> out;
    for (const int nic :
         nics_used(*source, *machine.platform, node, first, last < 0 ? source->steps() : last))
      out.push_back(nic);
    return out;
  });
  return {nics.begin(), nics.end()};
}

TEST(FlapReach, ANodesSwapNicsCarryItsColumnTrafficAndFewOfItsRowNics) {
  // Node 0 holds ranks 0-5: row 0, columns 0-5 (row-major), three per socket.
  // Every step swaps along the process columns: NIC 0 (socket 0) and NIC 4
  // (socket 1). The row's ring leaves the node only at its ends (column 5 to
  // 6, and 23 to 0), so in a few steps two of the six row NICs carry anything.
  // Over steps 10-12: NICs 0 and 4, and one row NIC per socket (2 and 6).
  EXPECT_EQ(node_nics(0, 10, 12), (std::set<int>{0, 2, 4, 6}));
  // Over the whole run (the final solve's row messages too) one NIC stays idle.
  EXPECT_EQ(node_nics(0).size(), 7u);
}

// A NIC none of node 0's traffic uses, down for 100 s from the start: a flap
// that met a message would abort the run (its retries run out after 29.4 s),
// so a completed run with no failed message at the fault-free run's time
// shows nothing crossed it. Reference mode, every message simulated.
TEST(FlapReach, AFlapOfANicTheScheduleNeverUsesFailsNothing) {
  const std::set<int> used = node_nics(0);
  int idle = -1;
  for (int nic = 0; nic < 8 && idle < 0; ++nic)
    if (used.count(nic) == 0) idle = nic;
  ASSERT_GE(idle, 0);
  testing::TempDir dir;
  std::vector<std::string> args = {"run", testing::source_path("scenarios/small-dragonfly.textproto"),
                                   "--mode", "reference"};
  for (const std::string& s : kAuroraPlacement) {
    args.push_back("--set");
    args.push_back(s);
  }
  std::vector<std::string> calm = args, flapped = args;
  calm.insert(calm.end(), {"--out", (dir / "calm").string()});
  for (const std::string& s :
       std::vector<std::string>{"faults.link_flaps[0].link.link_class=NIC_PORT",
                                "faults.link_flaps[0].link.index=" + std::to_string(idle),
                                "faults.link_flaps[0].start_s=0", "faults.link_flaps[0].duration_s=100"}) {
    flapped.push_back("--set");
    flapped.push_back(s);
  }
  flapped.insert(flapped.end(), {"--out", (dir / "flapped").string()});
  ASSERT_EQ(testing::run_hplsim(calm, dir).exit_code, 0);
  const testing::CliResult r = testing::run_hplsim(flapped, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto a = nlohmann::json::parse(testing::read_text(dir / "calm" / "summary.json"));
  const auto b = nlohmann::json::parse(testing::read_text(dir / "flapped" / "summary.json"));
  EXPECT_TRUE(b["completed"].get<bool>());
  EXPECT_EQ(b["faults"]["messages_failed"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(b["time_s"].get<double>(), a["time_s"].get<double>());
}

} // namespace
} // namespace hplsim::sim
