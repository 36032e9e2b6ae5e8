#include "sim/bench/rma_alltoallv.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include <simgrid/s4u.hpp>

#include "sim/bench/bench_scenario.hpp"
#include "sim/bench/coll_matcher.hpp"
#include "sim/bench/comm_waiter.hpp"
#include "sim/bench/osu_node_flows.hpp"
#include "sim/engine/engine_setup.hpp"
#include "sim/engine/machine.hpp"
#include "sim/support/errors.hpp"
#include "traces/mpi_collectives.hpp"

namespace hplsim::sim {

namespace {
namespace sg4 = simgrid::s4u;

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform draw on [0, 1) for the pair (i, j), one stream per salt.
double pair_unit(std::uint64_t seed, int i, int j, std::uint64_t salt) {
  const std::uint64_t h = splitmix(splitmix(splitmix(seed ^ salt) + static_cast<std::uint64_t>(i)) +
                                   static_cast<std::uint64_t>(j));
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

mpi::CollCall select_call(const ResolvedScenario& sc, mpi::Collective collective, int size, int ppn,
                          std::int64_t bytes) {
  mpi::CollCall call;
  call.collective = collective;
  call.size = size;
  call.ppn = ppn;
  call.bytes = bytes;
  if (!mpi::select_algorithm(sc.machine.mpi, call))
    throw InputError("machine.mpi: no rule of " +
                     (sc.machine.mpi_path.empty() ? sc.base_dir : sc.machine.mpi_path) +
                     " selects an algorithm for " + mpi::collective_name(collective) + " of " +
                     std::to_string(bytes) + " bytes on " + std::to_string(size) + " processes (" +
                     std::to_string(ppn) + " per node): add a rule");
  return call;
}

// The puts of one epoch as node-level flows (the scheme of osu_node_flows.hpp): a node's puts to another
// node travel as at most NodeFlows::kFlowsPerGroup flows of their summed bytes, each priced by the
// protocol model as one put of the mean size; a rank's puts within its node as one flow. A node's flows
// start when its last rank has opened the epoch; its origins' completion (flush) is when its outgoing
// flows are over, a target's notification when its incoming flows are.
class PutEpoch {
public:
  PutEpoch(const Platform& platform, int nodes, int ppn)
      : platform_(platform), nodes_(nodes), ppn_(ppn), out_(static_cast<std::size_t>(nodes)),
        out_comms_(static_cast<std::size_t>(nodes)), in_(static_cast<std::size_t>(nodes)),
        puts_(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(ppn), 0) {}

  /// From one actor, before any rank runs the epoch: the flows for count(i, j) bytes (0: no put).
  template <class Count> void plan(Count count) {
    const int ranks = nodes_ * ppn_;
    for (auto& flows : out_)
      flows.clear();
    for (std::size_t n = 0; n < in_.size(); ++n) {
      in_[n] = std::make_unique<CommWaiter>();
      out_comms_[n].clear();
    }
    std::fill(puts_.begin(), puts_.end(), 0);
    for (int a = 0; a < nodes_; ++a) {
      std::map<int, std::vector<std::tuple<int, int, std::int64_t>>> to_node;
      for (int i = a * ppn_; i < (a + 1) * ppn_; ++i) {
        Flow local;
        for (int j = 0; j < ranks; ++j) {
          const std::int64_t bytes = count(i, j);
          if (bytes <= 0 || i == j) continue; // a put to itself is a local copy (SMPI: no message)
          ++puts_[static_cast<std::size_t>(i)];
          if (j / ppn_ == a) {
            if (local.messages++ == 0) {
              local.src = platform_.cpu(i);
              local.dst = platform_.cpu(j);
            }
            local.bytes += bytes;
          } else
            to_node[j / ppn_].emplace_back(i, j, bytes);
        }
        if (local.messages > 0) add(a, a, local);
      }
      for (const auto& [b, puts] : to_node) {
        const auto n = static_cast<int>(puts.size());
        const int parts = std::min(n, NodeFlows::kFlowsPerGroup);
        for (int part = 0; part < parts; ++part) {
          const int begin = part * (n / parts) + std::min(part, n % parts);
          const int end = begin + n / parts + (part < n % parts ? 1 : 0);
          Flow f;
          f.src = platform_.cpu(std::get<0>(puts[static_cast<std::size_t>(begin)]));
          f.dst = platform_.cpu(std::get<1>(puts[static_cast<std::size_t>(begin)]));
          for (int k = begin; k < end; ++k)
            f.bytes += std::get<2>(puts[static_cast<std::size_t>(k)]);
          f.messages = end - begin;
          add(a, b, f);
        }
      }
    }
  }

  int puts_of(int rank) const { return puts_[static_cast<std::size_t>(rank)]; }

  /// From one rank of `node`: starts the node's flows.
  void start(int node) {
    for (const auto& [to, f] : out_[static_cast<std::size_t>(node)]) {
      const std::int64_t message = std::max<std::int64_t>(f.bytes / f.messages, 1);
      if (f.messages > 1)
        announce_aggregate_flow(f.src, f.dst, static_cast<double>(f.bytes), static_cast<double>(message));
      sg4::CommPtr comm = sg4::Comm::sendto_async(f.src, f.dst, static_cast<std::uint64_t>(f.bytes));
      out_comms_[static_cast<std::size_t>(node)].push_back(comm);
      CommWaiter& in = *in_[static_cast<std::size_t>(to)];
      in.comms.push_back(comm);
      in.one_started();
    }
  }

  /// From one rank of `node`: until the node's outgoing flows are over.
  void wait_out(int node) {
    std::vector<sg4::CommPtr> left;
    for (const sg4::CommPtr& c : out_comms_[static_cast<std::size_t>(node)])
      if (!c->test()) left.push_back(c);
    while (!left.empty())
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(sg4::Comm::wait_any(left)));
  }

  /// From one rank of `node`: until every flow into the node has started and ended.
  void wait_in(int node) { in_[static_cast<std::size_t>(node)]->wait_all(); }

private:
  struct Flow {
    sg4::Host *src = nullptr, *dst = nullptr;
    std::int64_t bytes = 0;
    int messages = 0;
  };
  void add(int from, int to, const Flow& f) {
    out_[static_cast<std::size_t>(from)].emplace_back(to, f);
    ++in_[static_cast<std::size_t>(to)]->missing;
  }

  const Platform& platform_;
  int nodes_, ppn_;
  std::vector<std::vector<std::pair<int, Flow>>> out_;
  std::vector<std::vector<sg4::CommPtr>> out_comms_;
  std::vector<std::unique_ptr<CommWaiter>> in_;
  std::vector<int> puts_;
};

double registration_s(const RmaCosts& c, std::int64_t bytes, bool deregister) {
  const double pages = static_cast<double>((bytes + c.page_bytes - 1) / c.page_bytes);
  return deregister ? c.deregister_base_s + pages * c.deregister_per_page_s
                    : c.register_base_s + pages * c.register_per_page_s;
}

} // namespace

std::string rma_variant_name(RmaVariant v) {
  switch (v) {
  case RmaVariant::Baseline:
    return "baseline";
  case RmaVariant::FencePersistent:
    return "fence-persistent";
  case RmaVariant::LockPersistent:
    return "lock-persistent";
  }
  return "?";
}

std::int64_t rma_count(const RmaAlltoallvBench& b, int i, int j, std::int64_t bytes) {
  if (!b.sparse) return bytes;
  if (i != j && pair_unit(b.seed, i, j, 1) >= b.density) return 0;
  return std::max<std::int64_t>(
      1, static_cast<std::int64_t>(static_cast<double>(bytes) * (0.5 + pair_unit(b.seed, i, j, 2))));
}

std::vector<std::int64_t> rma_sizes(const RmaAlltoallvBench& b) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t s = b.min_bytes; s <= b.max_bytes; s *= 2)
    sizes.push_back(s);
  return sizes;
}

void check_rma_alltoallv(const ResolvedScenario& sc, const RmaAlltoallvBench& b) {
  check_bench_ranks(sc, b.nodes, b.ppn);
  if (b.min_bytes < 1 || b.min_bytes > b.max_bytes || b.max_bytes > (std::int64_t{1} << 24))
    throw InputError("--min-bytes " + std::to_string(b.min_bytes) + " --max-bytes " +
                     std::to_string(b.max_bytes) + ": 1 <= min <= max <= 16777216 (16 MiB)");
  if (b.sparse && !(b.density > 0 && b.density <= 1))
    throw InputError("--density " + std::to_string(b.density) + ": must be in (0, 1]");
  for (mpi::Collective c : {mpi::BARRIER, mpi::ALLGATHER, mpi::ALLTOALL})
    (void)select_call(sc, c, b.nodes * b.ppn, b.ppn, c == mpi::ALLGATHER ? b.costs.window_info_bytes : 8);
}

std::vector<RmaAlltoallvRow> simulate_rma_alltoallv(const ResolvedScenario& sc, const RmaAlltoallvBench& b) {
  check_rma_alltoallv(sc, b);
  const int ranks = b.nodes * b.ppn;
  ResolvedScenario s = bench_scenario(sc, b.nodes, b.ppn);
  s.machine.variability = {};
  s.machine.placement.gpu_aware_mpi = false;
  s.faults.Clear();
  BuiltMachine m = build_machine(s, [](PlatformSpec& spec) { spec.gpus_per_rank = 0; });

  const mpi::CollCall barrier = select_call(sc, mpi::BARRIER, ranks, b.ppn, 0);
  const mpi::CollCall allgather = select_call(sc, mpi::ALLGATHER, ranks, b.ppn, b.costs.window_info_bytes);
  const mpi::CollCall alltoall = select_call(sc, mpi::ALLTOALL, ranks, b.ppn, b.costs.metadata_bytes);
  const double reduce_bytes_per_s =
      sc.machine.mpi.has_reduce_bytes_per_s() ? sc.machine.mpi.reduce_bytes_per_s() : 0.0;

  const std::vector<std::int64_t> sizes = rma_sizes(b);
  std::vector<RmaAlltoallvRow> rows(sizes.size());
  std::vector<std::int64_t> window_bytes(static_cast<std::size_t>(ranks), 0);
  CollMatcher matcher(*m.platform, ranks);
  PutEpoch data(*m.platform, b.nodes, b.ppn), flags(*m.platform, b.nodes, b.ppn);
  sg4::BarrierPtr all = sg4::Barrier::create(static_cast<unsigned>(ranks));
  std::vector<sg4::BarrierPtr> node_bar;
  for (int n = 0; n < b.nodes; ++n)
    node_bar.push_back(sg4::Barrier::create(static_cast<unsigned>(b.ppn)));
  const RmaCosts& c = b.costs;

  for (int r = 0; r < ranks; ++r) {
    sg4::Actor::create("rma" + std::to_string(r), m.platform->cpu(r), [&, r]() {
      const int node = r / b.ppn;
      const bool leader = r % b.ppn == 0;
      const mpi::CollProgram barrier_prog = mpi::collective_program(barrier, r);
      const mpi::CollProgram allgather_prog = mpi::collective_program(allgather, r);
      const mpi::CollProgram alltoall_prog = mpi::collective_program(alltoall, r);
      auto coll = [&](const mpi::CollProgram& p) { matcher.run(r, p, reduce_bytes_per_s); };
      auto on_node = [&](auto&& leader_part) {
        node_bar[static_cast<std::size_t>(node)]->wait();
        if (leader) leader_part();
        node_bar[static_cast<std::size_t>(node)]->wait();
      };
      auto puts = [&](PutEpoch& e) {
        on_node([&]() { e.start(node); });
        sg4::this_actor::sleep_for(e.puts_of(r) * c.put_issue_s);
      };
      auto win_create = [&]() {
        sg4::this_actor::sleep_for(registration_s(c, window_bytes[static_cast<std::size_t>(r)], false));
        coll(allgather_prog);
        coll(barrier_prog);
      };
      auto win_free = [&]() {
        coll(barrier_prog);
        coll(barrier_prog);
        sg4::this_actor::sleep_for(registration_s(c, window_bytes[static_cast<std::size_t>(r)], true));
      };
      auto fence_epoch = [&]() {
        coll(barrier_prog); // MPI_Win_fence(MPI_MODE_NOPRECEDE): SMPI's one barrier
        puts(data);
        coll(barrier_prog); // MPI_Win_fence closing the epoch: barrier, completion, barrier (SMPI)
        on_node([&]() { data.wait_out(node); });
        coll(barrier_prog);
      };
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        for (int v = 0; v < kRmaVariants; ++v) {
          const auto variant = static_cast<RmaVariant>(v);
          all->wait();
          if (r == 0) {
            const std::int64_t bytes = sizes[i];
            data.plan([&](int a, int t) { return rma_count(b, a, t, bytes); });
            flags.plan([&](int a, int t) { return rma_count(b, a, t, bytes) > 0 ? c.flag_bytes : 0; });
            std::fill(window_bytes.begin(), window_bytes.end(), 0);
            for (int a = 0; a < ranks; ++a)
              for (int t = 0; t < ranks; ++t)
                window_bytes[static_cast<std::size_t>(t)] += rma_count(b, a, t, bytes);
          }
          all->wait();
          const double t0 = sg4::Engine::get_clock();
          if (variant != RmaVariant::Baseline) {
            coll(alltoall_prog);
            win_create(); // MPI_Win_lock_all after it: SMPI takes each target's lock locally, no message
          }
          all->wait();
          const double t1 = sg4::Engine::get_clock();
          if (variant == RmaVariant::Baseline) {
            coll(alltoall_prog);
            win_create();
            fence_epoch();
            win_free();
          } else if (variant == RmaVariant::FencePersistent) {
            fence_epoch();
          } else {
            puts(data);
            on_node([&]() { data.wait_out(node); }); // MPI_Win_flush_all
            puts(flags);
            on_node([&]() { flags.wait_in(node); }); // every origin's flag is in
          }
          all->wait();
          const double t2 = sg4::Engine::get_clock();
          if (variant != RmaVariant::Baseline) win_free(); // MPI_Win_unlock_all is local likewise
          all->wait();
          if (r == 0) {
            RmaAlltoallvRow& row = rows[i];
            row.bytes = sizes[i];
            row.init_s[static_cast<std::size_t>(v)] = (t1 - t0) + (sg4::Engine::get_clock() - t2);
            row.iteration_s[static_cast<std::size_t>(v)] = t2 - t1;
            row.total_s[static_cast<std::size_t>(v)] =
                row.init_s[static_cast<std::size_t>(v)] + b.iterations * (t2 - t1);
          }
        }
      }
    });
  }
  m.engine->run();
  if (aggregate_flows_not_started() != 0)
    throw std::logic_error("RMA Alltoallv: " + std::to_string(aggregate_flows_not_started()) +
                           " announced flows never started");
  return rows;
}

std::int64_t rma_break_even_bytes(const std::vector<RmaAlltoallvRow>& rows, RmaVariant variant) {
  const auto v = static_cast<std::size_t>(variant);
  std::int64_t from = 0;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    if (it->total_s[v] >= it->total_s[0]) break;
    from = it->bytes;
  }
  return from;
}

} // namespace hplsim::sim
