#include "sim/fast/fold.hpp"

#include <algorithm>

namespace hplsim::sim {

// The ranks a window simulates when folding: every rank of `fold_nodes`
// whole nodes (so that node-mates share their NICs as in the full run):
// the nodes holding process row r0's owners of the window's panels, then
// the next nodes along the row (the broadcast ring's next hops).
std::vector<bool> FoldSet::active(std::int64_t first, std::int64_t last, bool fold,
                                  const std::vector<int>& fault_nodes) const {
  const auto& w = w_;
  const int ranks = w.ranks();
  std::vector<bool> active(static_cast<std::size_t>(ranks), !fold);
  if (!fold) return active;
  // Process row 0 (docs/fast-mode.md: which row is active changes the
  // folded prediction by tens of percent on latency-bound problems; no single
  // row reproduces the column-wide waits, which is why folding is optimistic).
  const int r0 = 0;
  auto rank_at = [&](int row, int col) { return w.column_major ? col * w.p + row : row * w.q + col; };
  std::vector<int> nodes;
  auto add_node = [&](int node) {
    if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) nodes.push_back(node);
  };
  auto add_rank = [&](int row, int col) { add_node(rank_at(row, col) / w.ranks_per_node); };
  auto add_node_of = [&](int col) { add_rank(r0, ((col % w.q) + w.q) % w.q); };
  const std::int64_t last_panel = std::min(last, steps_ - 1);
  for (std::int64_t k = first; k <= last_panel + 1 && k < steps_; ++k)
    add_node_of(static_cast<int>(k % w.q));
  for (int j = 1; static_cast<int>(nodes.size()) < config_.fold_nodes && j < w.q; ++j)
    add_node_of(static_cast<int>((last_panel + j) % w.q));
  // The bands. COLUMN_BAND: every node holding a rank of the window's owner
  // columns, whose pivot exchanges and swaps then run with all P ranks, so the
  // round-by-round wait for the slowest rank of the column is simulated, not
  // assumed away. CROSS_BAND: the owner rows as well, whose chains (diagonal
  // block along the row, the U panel solves, the column broadcasts' roots;
  // HPL-MxP's refinement passes its partial sums along every row) then run
  // with all Q ranks; a window of the final solve alone keeps the last
  // panel's owner row and column (docs/fast-mode.md).
  const bool cross = config_.band == FoldBand::CrossBand;
  const bool columns = cross || config_.band == FoldBand::ColumnBand;
  for (std::int64_t k = cross ? std::min(first, steps_ - 1) : first; k <= last_panel + 1 && k < steps_; ++k) {
    const int owner_row = static_cast<int>(k % w.p), owner_col = static_cast<int>(k % w.q);
    for (int c = 0; cross && c < w.q; ++c)
      add_rank(owner_row, c);
    for (int r = 0; columns && r < w.p; ++r)
      add_rank(r, owner_col);
  }
  // The slowest node of the run (spatial variability): HPL runs at the pace
  // of its slowest rank, so a fold that left it out would drop the largest
  // scale loss variability causes (docs/fast-mode.md, "folding").
  if (slowest_node_ >= 0) add_node(slowest_node_);
  // A fault's nodes: a flapped NIC stalls its ranks, and their process row
  // (the broadcast ring) and column (the swaps, the pivot exchanges) wait on
  // them first (sim/fast/fault_windows.hpp).
  for (const int node : fault_nodes) {
    add_node(node);
    for (int l = 0; l < w.ranks_per_node; ++l) {
      const int rank = node * w.ranks_per_node + l;
      const int row = w.column_major ? rank % w.p : rank / w.q,
                col = w.column_major ? rank / w.p : rank % w.q;
      for (int c = 0; c < w.q; ++c)
        add_rank(row, c);
      for (int r = 0; r < w.p; ++r)
        add_rank(r, col);
    }
  }
  for (int node : nodes)
    for (int l = 0; l < w.ranks_per_node; ++l)
      active[static_cast<std::size_t>(node * w.ranks_per_node + l)] = true;
  return active;
}

// The run node with the lowest rate factor over its CPUs and GPUs; -1 when
// every factor is 1 (no variability).
int slowest_node(const PlatformSpec& spec, int nodes) {
  int slowest = -1;
  double lowest = 1.0;
  for (int node = 0; node < nodes; ++node) {
    double f = spec.cpu_rate_factor ? spec.cpu_rate_factor(node) : 1.0;
    for (int l = 0; l < spec.ranks_per_node && spec.gpu_rate_factor; ++l)
      for (int g = 0; g < spec.gpus_per_rank; ++g)
        f = std::min(f, spec.gpu_rate_factor(node * spec.ranks_per_node + l, g));
    if (f < lowest) {
      lowest = f;
      slowest = node;
    }
  }
  return slowest;
}

} // namespace hplsim::sim
