#include "sim/study/hpl_dat_points.hpp"

#include <string>

#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {

const char* short_bcast(int code) {
  static const char* const names[] = {"1rg", "1rM", "2rg", "2rM", "Lng", "LnM"};
  return names[code];
}
const char* short_rfact(int code) {
  return code == 0 ? "left" : code == 1 ? "Crout" : "right";
}

int largest_divisor_at_most(int n, int cap) {
  for (int d = std::min(n, cap); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

} // namespace

std::vector<SweepPoint> hpl_dat_points(const HplDat& dat, const ResolvedScenario& machine,
                                       const ScenarioOverrides& base_overrides) {
  if (machine.workload.benchmark != Benchmark::Hpl)
    throw InputError(dat.path + ": an HPL.dat describes HPL runs, and the machine scenario " + machine.name +
                     " runs HPL-MxP (workload.benchmark)");
  const int slots = machine.workload.ranks_per_node;
  struct Placement {
    int nodes, ppn;
  };
  std::vector<Placement> placements;
  for (std::size_t g = 0; g < dat.ps.size(); ++g) {
    const long long ranks = static_cast<long long>(dat.ps[g]) * dat.qs[g];
    if (ranks > static_cast<long long>(slots) * machine.machine.topology.nodes)
      throw InputError(dat.where("Ps") + ": grid " + std::to_string(dat.ps[g]) + " x " +
                       std::to_string(dat.qs[g]) + " needs " + std::to_string(ranks) +
                       " ranks, more than the machine's " + std::to_string(machine.machine.topology.nodes) +
                       " nodes x " + std::to_string(slots) + " ranks per node (" + machine.name + ")");
    const int ppn = largest_divisor_at_most(static_cast<int>(ranks), slots);
    placements.push_back({static_cast<int>(ranks / ppn), ppn});
  }
  bool placement_varies = false;
  for (const Placement& pl : placements)
    placement_varies = placement_varies || pl.nodes != placements[0].nodes || pl.ppn != placements[0].ppn;

  std::vector<SweepPoint> points;
  for (std::size_t g = 0; g < dat.ps.size(); ++g)
    for (const std::int64_t n : dat.ns)
      for (const std::int64_t nb : dat.nbs)
        for (const int depth : dat.depths)
          for (const int bcast : dat.bcasts)
            for (const int rfact : dat.rfacts)
              for (const int nbmin : dat.nbmins)
                for (const int ndiv : dat.ndivs) {
                  SweepPoint p;
                  auto& v = p.values;
                  if (dat.ps.size() > 1)
                    v.emplace_back("PxQ", std::to_string(dat.ps[g]) + "x" + std::to_string(dat.qs[g]));
                  if (placement_varies) {
                    v.emplace_back("nodes", std::to_string(placements[g].nodes));
                    v.emplace_back("ppn", std::to_string(placements[g].ppn));
                  }
                  if (dat.ns.size() > 1) v.emplace_back("N", std::to_string(n));
                  if (dat.nbs.size() > 1) v.emplace_back("NB", std::to_string(nb));
                  if (dat.depths.size() > 1) v.emplace_back("depth", std::to_string(depth));
                  if (dat.bcasts.size() > 1) v.emplace_back("bcast", short_bcast(bcast));
                  if (dat.rfacts.size() > 1) v.emplace_back("rfact", short_rfact(rfact));
                  if (dat.nbmins.size() > 1) v.emplace_back("nbmin", std::to_string(nbmin));
                  if (dat.ndivs.size() > 1) v.emplace_back("ndiv", std::to_string(ndiv));
                  ScenarioOverrides& o = p.overrides;
                  o = base_overrides;
                  o.nodes = placements[g].nodes;
                  o.ppn = placements[g].ppn;
                  o.p = dat.ps[g];
                  o.q = dat.qs[g];
                  o.n = n;
                  o.nb = nb;
                  o.depth = depth;
                  // The HPL.dat's lines first: the user's own --set still applies after them.
                  // HPL.dat's codes mean what they mean to --vary (sim/study/sweep.hpp).
                  ScenarioOverrides file;
                  file.set.push_back(std::string("workload.column_major=") +
                                     (dat.column_major ? "true" : "false"));
                  apply_hpl_value("pfact", std::to_string(rfact), file);
                  apply_hpl_value("nbmin", std::to_string(nbmin), file);
                  apply_hpl_value("ndiv", std::to_string(ndiv), file);
                  apply_hpl_value("bcast", std::to_string(bcast), file);
                  apply_hpl_value("swap", std::to_string(dat.swap), file);
                  file.set.push_back("workload.hpl.swap_threshold=" + std::to_string(dat.swap_threshold));
                  const std::vector<std::string>& sets = file.set;
                  o.set.insert(o.set.begin(), sets.begin(), sets.end());
                  points.push_back(std::move(p));
                }
  return points;
}

} // namespace hplsim::sim
