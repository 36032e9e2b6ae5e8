#include "traces/program_builder.hpp"

namespace hplsim::traces {

void OpRecycler::harvest(StepSchedule& step) {
  if (step.GetArena() == nullptr) {
    for (RankProgram& program : *step.mutable_ranks())
      for (Op& op : *program.mutable_ops()) {
        switch (op.kind_case()) {
        case Op::kCompute:
          computes_.items.emplace_back(op.release_compute());
          break;
        case Op::kSend:
          sends_.items.emplace_back(op.release_send());
          break;
        case Op::kRecv:
          recvs_.items.emplace_back(op.release_recv());
          break;
        case Op::kCopy:
          copies_.items.emplace_back(op.release_copy());
          break;
        case Op::kWait:
          waits_.items.emplace_back(op.release_wait());
          break;
        case Op::kExchange:
          exchanges_.items.emplace_back(op.release_exchange());
          break;
        case Op::kSync:
          syncs_.items.emplace_back(op.release_sync());
          break;
        case Op::kPolledUpdate: // rare (one per CPU rank and step): not recycled
        case Op::kMark:         // a few per rank, in the final solve only
        case Op::KIND_NOT_SET:
          break;
        }
      }
  }
  step.Clear();
}

} // namespace hplsim::traces
