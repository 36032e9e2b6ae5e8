#pragma once
// Parameters of an HPL 2.3 run as the panel-schedule generator needs them
// (the HPL.dat lines, plus the GPU execution style of rocHPL / Aurora HPL).
// Defaults are the values of netlib HPL 2.3's sample testing/ptest/HPL.dat
// (github.com/icl-utk-edu/hpl at 9edeab5; a copy is
// scenarios/hpl-dat/netlib-hpl-2.3-sample.dat), the first where it lists
// several: PMAP 0, NBMIN 2, NDIV 2, BCAST 0 = 1ring, DEPTH 0, SWAP 2 = mix,
// swapping threshold 64; except PFACT/RFACT, Right here where the sample's
// first of "0 1 2" is left-looking.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "traces/hpl_code.hpp"

namespace hplsim::traces {

struct HplConfig {
  enum class Pfact { Right, Left, Crout };
  enum class Bcast { OneRing, OneRingM, TwoRing, TwoRingM, Blong, BlongM };
  enum class Swap { BinaryExchange, SpreadRoll, Mix };
  /// MPI semantics of the pivot reductions of the panel columns (docs/faults.md,
  /// "Collective versus point-to-point"). P2P: HPL 2.3's point-to-point
  /// messages (HPL_pdmxswp), as netlib sends them. Collective: each column's
  /// reduction is an MPI_Allreduce, whose messages are followed by a Sync of
  /// the process column (no member leaves before the last one is done).
  /// Hybrid (Aurora HPL): as Collective, except the first column of each
  /// panel, whose reduction stays point-to-point. The panel broadcast is HPL's
  /// `bcast` variant in all three (MPI_Bcast does not synchronize its members).
  enum class PanelExchange { P2P, Hybrid, Collective };
  /// Which timer a wait for a panel that has not arrived is charged to
  /// (docs/replay.md, "The timer rule"). The open codes charge it to the call
  /// that blocks on the panel, a broadcast call: netlib HPL 2.3's
  /// `HPL_bcast` probe loop in HPL_pdupdateTT (inside its UPDATE timer),
  /// rocHPL's LBCAST (HPL_pdpanel_bcast), HPL-GPU's BCAST; all three are
  /// hplsim's BCAST column. AsyncBcast [I]: the broadcast progresses in the
  /// background, and the first call that blocks on the panel is the row
  /// swap, which needs its pivots: the wait is SWAP. The rule moves time
  /// between phase columns and never changes a step's length.
  enum class TimerRule { Netlib, RocHpl, HplGpu, AsyncBcast };

  std::int64_t n = 0;  ///< matrix order N
  std::int64_t nb = 0; ///< block size NB
  int p = 1;           ///< process rows
  int q = 1;           ///< process columns
  int depth = 0;       ///< look-ahead depth, 0 or 1
  bool column_major = false;
  /// Panel factorization variant, used for both HPL.dat's RFACT (recursion)
  /// and PFACT (the base case); see traces/hpl_pfact.hpp.
  Pfact pfact = Pfact::Right;
  int nbmin = 2; ///< recursion stops at panels of at most NBMIN columns (>= 1)
  int ndiv = 2;  ///< panels are split in NDIV parts per recursion level (>= 2)
  Bcast bcast = Bcast::OneRing;
  Swap swap = Swap::Mix;
  int swap_threshold = 64; ///< Mix: spread-roll when the local width exceeds it
  PanelExchange panel_exchange = PanelExchange::P2P;
  TimerRule timer_rule = TimerRule::Netlib;
  /// True when a wait for a panel is charged to SWAP (else to BCAST).
  bool panel_wait_in_swap() const { return timer_rule == TimerRule::AsyncBcast; }
  /// True when panel column `c`'s pivot reduction is a collective.
  bool collective_column(std::int64_t c) const {
    return panel_exchange == PanelExchange::Collective || (panel_exchange == PanelExchange::Hybrid && c > 0);
  }
  /// The code whose step is replayed (traces/hpl_code.hpp): with gpu, its
  /// panel place picks the panel piece (CPU with staging copies, or the GPU).
  HplCode code = HplCode::Netlib23;
  PanelPlace panel_place() const { return code_facts(code).panel; }
  bool device_panel() const { return gpu && panel_place() != PanelPlace::Cpu; }
  /// GEMM/TRSM (and row pack/unpack) on the GPU, panel factorization on the CPU
  /// with D2H/H2D staging (rocHPL's first public release, ROCm/rocHPL e8378a9).
  bool gpu = false;
  /// Messages from host buffers (Aurora: GPU-aware MPI off): swapped rows and the
  /// received panel are staged through D2H/H2D copies. Requires gpu.
  bool host_staged = false;
  /// GPU look-ahead: fraction of the local columns in the second update section
  /// (rocHPL's --frac, default 0.6 in src/HPL_pdinfo.cpp of ROCm/rocHPL e8378a9).
  double gpu_split_fraction = 0.6;
  /// Fast mode only (docs/fast-mode.md, "5. Aggregated pivot exchange"): the
  /// pivot max-loc exchanges of `pivot_group` consecutive panel columns are
  /// emitted as ONE exchange carrying their bytes, whose receives are marked
  /// Recv.repeat so the replay charges the other exchanges' latencies. 1 = HPL's
  /// one exchange per column (reference mode).
  int pivot_group = 1;
  /// Fast mode only (docs/fast-mode.md, "7. Collective pivot exchange"): each
  /// column's pivot exchange is one Exchange op priced by the replay from the
  /// members' route latencies instead of HPL_pdmxswp's messages. Takes
  /// precedence over pivot_group.
  bool pivot_collective = false;
  /// Fast mode only (docs/fast-mode.md, "9. Collective panel factorization"): a
  /// process row's whole part of a panel factorization is one Exchange op with
  /// its PanelShape set, priced by the replay (its kernels from the kernel
  /// models, on the CPU or, for a code that factors the panel on the GPU, on
  /// the GPU with its flag copies; its jb pivot exchanges as pivot_collective
  /// prices them). Needs gpu: a CPU panel's cores free of the update.
  bool panel_collective = false;
  /// Fast mode only (docs/fast-mode.md, "12. Collective swap roll"): each
  /// member's part of HPL_rollT (the spread-roll swap's P - 1 ring steps) is
  /// one Exchange op with its SwapRoll set, priced by the replay from the
  /// members' routes instead of the roll's P - 1 messages each way, from host
  /// or device buffers (SwapRoll.device: GPU-aware MPI's overhead and rate cap).
  bool roll_collective = false;
  /// Fast mode's fault windows (sim/fast/fault_windows.hpp): the process
  /// columns whose pivot exchanges and swap rolls stay messages when
  /// pivot_collective, panel_collective and roll_collective are on (a flapped NIC's ranks' columns: the only
  /// exchanges its flap can fail).
  std::vector<int> message_pivot_columns;
  bool messages_for_column(int pcol) const {
    return std::find(message_pivot_columns.begin(), message_pivot_columns.end(), pcol) !=
           message_pivot_columns.end();
  }
  /// Fast mode only (docs/fast-mode.md, "8. Grouped swap roll"): HPL_rollT's
  /// P - 1 steps go in groups of this many consecutive steps, each group one
  /// exchange per ring neighbour carrying that neighbour's bytes, its receives
  /// marked Recv.repeat so the replay charges the group's other latencies.
  /// 1 = step by step (reference mode); otherwise even (the two positions that
  /// meet across the ring's end when P is odd do so one step apart).
  int swap_roll_group = 1;
};

/// Throws std::invalid_argument naming the first bad field, expected vs actual.
void validate(const HplConfig& config);

std::string to_string(HplConfig::Pfact pfact);
std::string to_string(HplConfig::Bcast bcast);
std::string to_string(HplConfig::Swap swap);
std::string to_string(HplConfig::PanelExchange exchange);
std::string to_string(HplConfig::TimerRule rule);

} // namespace hplsim::traces
