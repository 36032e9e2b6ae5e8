#include "traces/schedule_validator.hpp"

#include <deque>
#include <functional>
#include <map>
#include <tuple>
#include <unordered_map>

#include "traces/grid.hpp"

namespace hplsim::traces {

namespace {

std::int64_t pair_key(int src, int dst, int ranks) {
  return static_cast<std::int64_t>(src) * ranks + dst;
}

struct Collector {
  ValidationReport& report;
  const ValidationOptions& options;
  void error(const std::string& what) {
    if (report.errors.size() < options.max_errors) report.errors.push_back(what);
  }
};

std::string where(std::int64_t step, int rank, int op) {
  return "step " + std::to_string(step) + " rank " + std::to_string(rank) + " op " + std::to_string(op) +
         ": ";
}

// Abstract execution (see the header). Each rank walks its ops; sends and
// receives are "posted" when reached and a message is matched once both ends
// are posted.
class DeadlockCheck {
public:
  DeadlockCheck(int ranks, const std::vector<std::vector<const Op*>>& programs)
      : ranks_(ranks), programs_(programs), pc_(static_cast<std::size_t>(ranks), 0),
        posted_(static_cast<std::size_t>(ranks), false), tags_(static_cast<std::size_t>(ranks)),
        queued_(static_cast<std::size_t>(ranks), true) {}

  /// Returns the ranks that could not finish.
  std::vector<int> run() {
    std::deque<int> runnable;
    for (int r = 0; r < ranks_; ++r)
      runnable.push_back(r);
    while (!runnable.empty()) {
      const int r = runnable.front();
      runnable.pop_front();
      queued_[static_cast<std::size_t>(r)] = false;
      advance(r, runnable);
    }
    std::vector<int> stuck;
    for (int r = 0; r < ranks_; ++r)
      if (pc_[static_cast<std::size_t>(r)] < programs_[static_cast<std::size_t>(r)].size())
        stuck.push_back(r);
    return stuck;
  }

  const Op* current(int r) const {
    const auto& prog = programs_[static_cast<std::size_t>(r)];
    const std::size_t pc = pc_[static_cast<std::size_t>(r)];
    return pc < prog.size() ? prog[pc] : nullptr;
  }

private:
  struct Pair {
    std::int64_t sends = 0, recvs = 0;
  };
  struct Posted {
    std::int64_t key = -1; // pair, -1 for a compute or copy
    std::int64_t index = 0;
    bool is_send = false;
  };

  bool matched(const Posted& p) const {
    if (p.key < 0) return true;
    auto it = pairs_.find(p.key);
    return p.is_send ? it->second.recvs > p.index : it->second.sends > p.index;
  }

  void wake(int r, std::deque<int>& runnable) {
    if (!queued_[static_cast<std::size_t>(r)]) {
      queued_[static_cast<std::size_t>(r)] = true;
      runnable.push_back(r);
    }
  }

  void advance(int r, std::deque<int>& runnable) {
    const auto ru = static_cast<std::size_t>(r);
    const auto& prog = programs_[ru];
    while (pc_[ru] < prog.size()) {
      const Op& op = *prog[pc_[ru]];
      if (op.has_send() || op.has_recv()) {
        const bool is_send = op.has_send();
        const int peer = is_send ? op.send().peer() : op.recv().peer();
        const std::uint32_t tag = is_send ? op.send().async_tag() : op.recv().async_tag();
        const bool async = is_send ? op.send().has_async_tag() : op.recv().has_async_tag();
        const std::int64_t key = is_send ? pair_key(r, peer, ranks_) : pair_key(peer, r, ranks_);
        if (!posted_[ru]) {
          Pair& pair = pairs_[key];
          current_[ru] = {key, is_send ? pair.sends++ : pair.recvs++, is_send};
          posted_[ru] = true;
          wake(peer, runnable);
        }
        if (async) {
          tags_[ru][tag] = current_[ru];
        } else if (!matched(current_[ru])) {
          return; // blocked until the peer posts its end
        }
        posted_[ru] = false;
      } else if (op.has_sync()) {
        if (!sync_reached(r, op.sync(), runnable)) return; // blocked until every member is there
      } else if (op.has_wait()) {
        auto& tags = tags_[ru];
        auto it = tags.find(op.wait().async_tag());
        if (it != tags.end()) {
          if (!matched(it->second)) return;
          tags.erase(it);
        }
      } else if (op.has_compute() && op.compute().has_async_tag()) {
        tags_[ru][op.compute().async_tag()] = Posted{};
      } else if (op.has_copy() && op.copy().has_async_tag()) {
        tags_[ru][op.copy().async_tag()] = Posted{};
      }
      ++pc_[ru];
    }
  }

  // A Sync is a barrier: member r's n-th Sync of a communicator meets the
  // other members' n-th. True once all `size` members have reached it.
  bool sync_reached(int r, const Sync& x, std::deque<int>& runnable) {
    const auto ru = static_cast<std::size_t>(r);
    const auto comm = std::make_tuple(x.base(), x.stride(), x.size());
    const std::int64_t n = syncs_done_[{ru, comm}];
    const auto meeting = std::make_tuple(x.base(), x.stride(), x.size(), n);
    if (!posted_[ru]) {
      posted_[ru] = true;
      if (++arrived_[meeting] == x.size()) {
        const Communicator c{x.base(), x.stride(), x.size()};
        for (int m = 0; m < x.size(); ++m)
          if (c.rank_of(m) >= 0 && c.rank_of(m) < ranks_) wake(c.rank_of(m), runnable);
      }
    }
    if (arrived_[meeting] < x.size()) return false;
    posted_[ru] = false;
    ++syncs_done_[{ru, comm}];
    return true;
  }

  int ranks_;
  std::map<std::pair<std::size_t, std::tuple<int, int, int>>, std::int64_t> syncs_done_;
  std::map<std::tuple<int, int, int, std::int64_t>, int> arrived_;
  const std::vector<std::vector<const Op*>>& programs_;
  std::vector<std::size_t> pc_;
  std::vector<bool> posted_;
  std::unordered_map<std::size_t, Posted> current_;
  std::vector<std::unordered_map<std::uint32_t, Posted>> tags_;
  std::vector<bool> queued_;
  std::unordered_map<std::int64_t, Pair> pairs_;
};

std::string describe(const Op* op) {
  if (op == nullptr) return "end";
  if (op->has_send()) return "Send to " + std::to_string(op->send().peer());
  if (op->has_recv()) return "Recv from " + std::to_string(op->recv().peer());
  if (op->has_wait()) return "Wait " + std::to_string(op->wait().async_tag());
  if (op->has_sync())
    return "Sync of " + std::to_string(op->sync().size()) + " from " + std::to_string(op->sync().base());
  return "op";
}

} // namespace

std::string ValidationReport::summary() const {
  if (errors.empty()) return "ok";
  std::string s;
  for (const auto& e : errors)
    s += e + "\n";
  return s;
}

ValidationReport validate_schedule(int ranks, const std::vector<const StepSchedule*>& window,
                                   const ValidationOptions& options) {
  ValidationReport report;
  Collector c{report, options};
  std::vector<std::vector<const Op*>> programs(static_cast<std::size_t>(std::max(ranks, 0)));
  std::unordered_map<std::int64_t, std::vector<std::int64_t>> sent, received;
  std::vector<std::unordered_map<std::uint32_t, std::int64_t>> in_flight(programs.size());
  std::int64_t previous_step = -1;
  for (const StepSchedule* step : window) {
    const std::int64_t k = step->step();
    if (k <= previous_step)
      c.error("step " + std::to_string(k) + " follows step " + std::to_string(previous_step));
    previous_step = k;
    std::vector<bool> seen(programs.size(), false);
    for (const RankProgram& prog : step->ranks()) {
      const int r = prog.rank();
      if (r < 0 || r >= ranks) {
        c.error("step " + std::to_string(k) + ": rank " + std::to_string(r) + " out of [0, " +
                std::to_string(ranks) + ")");
        continue;
      }
      const auto ru = static_cast<std::size_t>(r);
      if (seen[ru])
        c.error("step " + std::to_string(k) + ": rank " + std::to_string(r) + " has two programs");
      seen[ru] = true;
      auto& tags = in_flight[ru];
      // A PolledUpdate's nested ops are checked, and executed by the deadlock
      // check, in place of it: its swap, then its arrival (the latest the
      // replay can run them; earlier only unblocks the ring sooner).
      std::function<void(const Op&, int)> visit = [&](const Op& op, int i) {
        ++report.ops;
        if (op.has_polled_update()) {
          const PolledUpdate& u = op.polled_update();
          if (u.peer() < 0 || u.peer() >= ranks || u.peer() == r) c.error(where(k, r, i) + "bad polled peer");
          if (u.m() < 0 || u.n() < 0 || u.jb() < 1 || u.chunk() < 1)
            c.error(where(k, r, i) + "bad polled update shape");
          if (u.arrival().ops_size() == 0 || !u.arrival().ops(0).has_recv() ||
              u.arrival().ops(0).recv().peer() != u.peer())
            c.error(where(k, r, i) + "polled update's arrival does not start with a receive from its peer");
          for (const Op& x : u.swap().ops())
            visit(x, i);
          for (const Op& x : u.arrival().ops())
            visit(x, i);
          return;
        }
        programs[ru].push_back(&op);
        bool async = false;
        std::uint32_t tag = 0;
        switch (op.kind_case()) {
        case Op::kCompute: {
          const Compute& x = op.compute();
          if (!x.has_kernel() || !x.has_resource() || !x.has_phase())
            c.error(where(k, r, i) + "compute lacks kernel/resource/phase");
          if (x.m() < 0 || x.n() < 0 || x.k() < 0) c.error(where(k, r, i) + "negative compute shape");
          async = x.has_async_tag();
          tag = x.async_tag();
          break;
        }
        case Op::kSend:
        case Op::kRecv: {
          const bool is_send = op.has_send();
          const int peer = is_send ? op.send().peer() : op.recv().peer();
          const std::int64_t bytes = is_send ? op.send().bytes() : op.recv().bytes();
          if (peer < 0 || peer >= ranks || peer == r) {
            c.error(where(k, r, i) + "bad peer " + std::to_string(peer));
            break;
          }
          if (bytes < 0) c.error(where(k, r, i) + "negative bytes");
          if (!(is_send ? op.send().has_phase() : op.recv().has_phase()))
            c.error(where(k, r, i) + "message lacks a phase");
          if (is_send) {
            sent[pair_key(r, peer, ranks)].push_back(bytes);
            ++report.messages;
            report.message_bytes += bytes;
          } else {
            received[pair_key(peer, r, ranks)].push_back(bytes);
          }
          async = is_send ? op.send().has_async_tag() : op.recv().has_async_tag();
          tag = is_send ? op.send().async_tag() : op.recv().async_tag();
          break;
        }
        case Op::kCopy:
          if (op.copy().bytes() < 0) c.error(where(k, r, i) + "negative copy bytes");
          async = op.copy().has_async_tag();
          tag = op.copy().async_tag();
          break;
        case Op::kExchange: {
          const Exchange& x = op.exchange();
          if (Communicator{x.base(), x.stride(), x.size()}.member_of(r) < 0)
            c.error(where(k, r, i) + "exchange does not include its rank");
          if (x.root_member() < 0 || x.root_member() >= x.size())
            c.error(where(k, r, i) + "bad exchange root");
          if (x.jb() <= 0 || !x.has_phase()) c.error(where(k, r, i) + "exchange lacks jb/phase");
          if (x.has_panel()) {
            const PanelShape& p = x.panel();
            if (p.n() <= 0 || p.nb() <= 0 || p.row_begin() < 0 || p.row_begin() + x.jb() > p.n() ||
                p.nbmin() < 1 || p.ndiv() < 2 || p.pfact() < 0 || p.pfact() > 2)
              c.error(where(k, r, i) + "bad panel shape");
          }
          if (x.has_roll()) {
            const SwapRoll& s = x.roll();
            if (x.has_panel() || s.n() <= 0 || s.nb() <= 0 || s.row_begin() < 0 ||
                s.row_begin() + x.jb() > s.n() || s.ncols() <= 0)
              c.error(where(k, r, i) + "bad swap roll");
          }
          break;
        }
        case Op::kSync: {
          const Sync& x = op.sync();
          if (x.size() < 1 || Communicator{x.base(), x.stride(), x.size()}.member_of(r) < 0)
            c.error(where(k, r, i) + "sync does not include its rank");
          if (!x.has_phase()) c.error(where(k, r, i) + "sync lacks a phase");
          break;
        }
        case Op::kWait:
          if (tags.erase(op.wait().async_tag()) == 0)
            c.error(where(k, r, i) + "waits for tag " + std::to_string(op.wait().async_tag()) +
                    " not in flight");
          break;
        case Op::kPolledUpdate: // handled above
        case Op::kMark:
          break;
        case Op::KIND_NOT_SET:
          c.error(where(k, r, i) + "empty op");
          break;
        }
        if (async && !tags.emplace(tag, k).second)
          c.error(where(k, r, i) + "tag " + std::to_string(tag) + " already in flight");
      };
      for (int i = 0; i < prog.ops_size(); ++i)
        visit(prog.ops(i), i);
    }
    if (options.tags_within_step)
      for (std::size_t r = 0; r < in_flight.size(); ++r)
        for (const auto& [tag, started] : in_flight[r])
          if (started == k)
            c.error("step " + std::to_string(k) + " rank " + std::to_string(r) + ": tag " +
                    std::to_string(tag) + " not waited within its step");
  }
  for (std::size_t r = 0; r < in_flight.size(); ++r)
    for (const auto& [tag, started] : in_flight[r])
      c.error("rank " + std::to_string(r) + ": tag " + std::to_string(tag) + " (step " +
              std::to_string(started) + ") never waited");
  const auto pair_name = [&](std::int64_t key) {
    return std::to_string(key / ranks) + "->" + std::to_string(key % ranks);
  };
  for (const auto& [key, bytes] : sent) {
    auto it = received.find(key);
    const std::size_t n_recv = it == received.end() ? 0 : it->second.size();
    if (n_recv != bytes.size()) {
      c.error("pair " + pair_name(key) + ": " + std::to_string(bytes.size()) + " sends, " +
              std::to_string(n_recv) + " receives");
      continue;
    }
    for (std::size_t i = 0; i < bytes.size(); ++i)
      if (bytes[i] != it->second[i]) {
        c.error("pair " + pair_name(key) + ": message " + std::to_string(i) + " sent with " +
                std::to_string(bytes[i]) + " bytes, received with " + std::to_string(it->second[i]));
        break;
      }
  }
  for (const auto& [key, bytes] : received)
    if (sent.find(key) == sent.end())
      c.error("pair " + pair_name(key) + ": " + std::to_string(bytes.size()) + " receives, no send");

  if (options.check_deadlock && report.errors.empty()) {
    DeadlockCheck check(ranks, programs);
    const std::vector<int> stuck = check.run();
    if (!stuck.empty()) {
      std::string what = "deadlock: " + std::to_string(stuck.size()) + " ranks cannot finish, e.g.";
      for (std::size_t i = 0; i < stuck.size() && i < 4; ++i)
        what += " rank " + std::to_string(stuck[i]) + " at " + describe(check.current(stuck[i])) + ";";
      c.error(what);
    }
  }
  return report;
}

} // namespace hplsim::traces
