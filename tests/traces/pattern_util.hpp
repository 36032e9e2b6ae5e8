#pragma once
// Test helpers: patterns as comparable tuples, step statistics.
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "traces/comm_pattern.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::traces::test {

// (kind, peer, send bytes, recv bytes); kind: 'S' Send, 'R' Recv, 'X' HPL_sdrv, 'Y' Issend+Recv.
using Msg = std::tuple<char, int, std::int64_t, std::int64_t>;

inline std::vector<Msg> flat(const Pattern& p) {
  std::vector<Msg> out;
  for (const PeerMsg& m : p) {
    char k = 'S';
    switch (m.kind) {
    case PeerMsg::Kind::Send:
      k = 'S';
      break;
    case PeerMsg::Kind::Recv:
      k = 'R';
      break;
    case PeerMsg::Kind::SendRecv:
      k = 'X';
      break;
    case PeerMsg::Kind::SyncSendRecv:
      k = 'Y';
      break;
    }
    out.emplace_back(k, m.peer, m.send_bytes, m.recv_bytes);
  }
  return out;
}

inline Msg S(int peer, std::int64_t bytes) {
  return {'S', peer, bytes, 0};
}
inline Msg R(int peer, std::int64_t bytes) {
  return {'R', peer, 0, bytes};
}
inline Msg X(int peer, std::int64_t send, std::int64_t recv) {
  return {'X', peer, send, recv};
}
inline Msg Y(int peer, std::int64_t send, std::int64_t recv) {
  return {'Y', peer, send, recv};
}

struct PhaseStats {
  std::int64_t sends = 0, send_bytes = 0, computes = 0, copies = 0, copy_bytes = 0;
};

/// Per-phase counts over every program of a step.
inline std::map<Phase, PhaseStats> phase_stats(const StepSchedule& s) {
  std::map<Phase, PhaseStats> out;
  for (const RankProgram& r : s.ranks())
    for (const Op& op : r.ops()) {
      if (op.has_send()) {
        auto& x = out[op.send().phase()];
        ++x.sends;
        x.send_bytes += op.send().bytes();
      } else if (op.has_compute()) {
        ++out[op.compute().phase()].computes;
      } else if (op.has_copy()) {
        auto& x = out[op.copy().phase()];
        ++x.copies;
        x.copy_bytes += op.copy().bytes();
      }
    }
  return out;
}

inline const RankProgram* program_of(const StepSchedule& s, int rank) {
  for (const RankProgram& r : s.ranks())
    if (r.rank() == rank) return &r;
  return nullptr;
}

} // namespace hplsim::traces::test
