#pragma once
// Appends operations to one rank's program (traces/schedule.proto) and hands
// out the asynchronous tags. One builder per (rank, step): tags start at 1 in
// every step and every asynchronous op a generator starts in a step is waited
// in the same step, so tags never cross a step boundary.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "traces/grid.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::traces {

/// Reuses the op payloads of a previous, heap-allocated step: a generator that
/// is handed the same StepSchedule again allocates (almost) nothing, which is
/// what makes generating a step fast (malloc dominates otherwise).
class OpRecycler {
public:
  /// Takes the payload of every op of `step` and clears it (its RankProgram and
  /// Op objects stay allocated inside the repeated fields for reuse). Does
  /// nothing but Clear() for an arena-allocated step.
  void harvest(StepSchedule& step);

  Compute* compute() { return take(computes_); }
  Send* send() { return take(sends_); }
  Recv* recv() { return take(recvs_); }
  Copy* copy() { return take(copies_); }
  Wait* wait() { return take(waits_); }
  Exchange* exchange() { return take(exchanges_); }
  Sync* sync() { return take(syncs_); }

private:
  // Payloads are handed out in the order they were harvested (the order they
  // were allocated in), which keeps the walk over memory mostly sequential.
  template <class T> struct Pool {
    std::vector<std::unique_ptr<T>> items;
    std::size_t next = 0;
  };
  template <class T> static T* take(Pool<T>& pool) {
    if (pool.next == pool.items.size()) return nullptr;
    T* x = pool.items[pool.next++].release();
    x->Clear();
    return x;
  }
  Pool<Compute> computes_;
  Pool<Send> sends_;
  Pool<Recv> recvs_;
  Pool<Copy> copies_;
  Pool<Wait> waits_;
  Pool<Exchange> exchanges_;
  Pool<Sync> syncs_;
};

class ProgramBuilder {
public:
  explicit ProgramBuilder(RankProgram* program, OpRecycler* recycler = nullptr)
      : program_(program), recycler_(recycler) {}

  /// A builder for one of `op`'s nested programs (PolledUpdate's swap and
  /// arrival): its async tags continue this builder's, so none repeats.
  ProgramBuilder nested(RankProgram* program) {
    ProgramBuilder b(program, nullptr);
    b.next_tag_ = next_tag_;
    return b;
  }
  /// Continues the tags after those a nested builder used.
  void adopt_tags(const ProgramBuilder& nested) { next_tag_ = std::max(next_tag_, nested.next_tag_); }
  /// A PolledUpdate op (its swap and arrival programs are filled by nested builders).
  PolledUpdate* polled_update() { return program_->add_ops()->mutable_polled_update(); }

  int rank() const { return program_->rank(); }
  int size() const { return program_->ops_size(); }

  /// A BLAS call with an empty operand does nothing: m or n <= 0, or a GEMM
  /// with k <= 0 (for the other kernels k is an index or unused).
  static bool is_empty(Kernel kernel, std::int64_t m, std::int64_t n, std::int64_t k) {
    return m <= 0 || n <= 0 || (kernel == KERNEL_GEMM && k <= 0);
  }

  /// Blocking compute; empty shapes are skipped. `device` < 0 leaves Compute.device unset.
  void compute(Kernel kernel, Resource resource, std::int64_t m, std::int64_t n, std::int64_t k, Phase phase,
               Precision precision = FP64, int device = -1) {
    if (is_empty(kernel, m, n, k)) return;
    add_compute(kernel, resource, m, n, k, phase, precision, device);
  }
  /// Asynchronous compute; returns its tag, or 0 (nothing to wait for) when skipped.
  std::uint32_t compute_async(Kernel kernel, Resource resource, std::int64_t m, std::int64_t n,
                              std::int64_t k, Phase phase, Precision precision = FP64, int device = -1) {
    if (is_empty(kernel, m, n, k)) return 0;
    Compute* c = add_compute(kernel, resource, m, n, k, phase, precision, device);
    const std::uint32_t tag = next_tag_++;
    c->set_async_tag(tag);
    return tag;
  }

  void send(int peer, std::int64_t bytes, Phase phase) { add_send(peer, bytes, phase); }
  std::uint32_t send_async(int peer, std::int64_t bytes, Phase phase) {
    const std::uint32_t tag = next_tag_++;
    add_send(peer, bytes, phase)->set_async_tag(tag);
    return tag;
  }
  void recv(int peer, std::int64_t bytes, Phase phase) { add_recv(peer, bytes, phase); }
  std::uint32_t recv_async(int peer, std::int64_t bytes, Phase phase) {
    const std::uint32_t tag = next_tag_++;
    add_recv(peer, bytes, phase)->set_async_tag(tag);
    return tag;
  }

  /// Host<->device copy; zero-byte copies are skipped (async returns 0 then).
  void copy(Copy::Direction direction, std::int64_t bytes, Phase phase) {
    if (bytes > 0) add_copy(direction, bytes, phase);
  }
  std::uint32_t copy_async(Copy::Direction direction, std::int64_t bytes, Phase phase) {
    if (bytes <= 0) return 0;
    const std::uint32_t tag = next_tag_++;
    add_copy(direction, bytes, phase)->set_async_tag(tag);
    return tag;
  }

  /// A point of the program with this id (Mark).
  void mark(std::uint32_t id) { program_->add_ops()->mutable_mark()->set_id(id); }

  /// Waits for `tag`; tag 0 (a skipped async op) is ignored.
  void wait(std::uint32_t tag) {
    if (tag != 0) payload<Wait>(program_->add_ops())->set_async_tag(tag);
  }

  /// Fast mode's collective pivot exchange (Exchange): the max-loc exchange
  /// of one panel column among the members of `column`.
  void exchange(const Communicator& column, int root_member, std::int64_t jb, Phase phase) {
    Exchange* x = payload<Exchange>(program_->add_ops());
    x->set_base(column.base);
    x->set_stride(column.stride);
    x->set_size(column.size);
    x->set_root_member(root_member);
    x->set_jb(jb);
    x->set_phase(phase);
  }

  /// The completion of a collective among the members of `comm` (Sync).
  void sync(const Communicator& comm, Phase phase) {
    Sync* x = payload<Sync>(program_->add_ops());
    x->set_base(comm.base);
    x->set_stride(comm.stride);
    x->set_size(comm.size);
    x->set_phase(phase);
  }

  /// Marks the last op, an Exchange, as a collective from panel column `column` on.
  void mark_collective_from(int column) {
    program_->mutable_ops(program_->ops_size() - 1)->mutable_exchange()->set_collective_from_column(column);
  }

  /// Fast mode's collective panel factorization (Exchange with PanelShape):
  /// this member's whole part of the factorization of a panel of width jb.
  void panel(const Communicator& column, int root_member, std::int64_t jb, const PanelShape& shape,
             Phase phase) {
    exchange(column, root_member, jb, phase);
    Exchange* x = program_->mutable_ops(program_->ops_size() - 1)->mutable_exchange();
    *x->mutable_panel() = shape;
  }

  /// Fast mode's collective swap roll (Exchange with SwapRoll): this member's
  /// part of HPL_rollT for the row swap of `ncols` columns.
  void roll(const Communicator& column, int root_member, std::int64_t jb, const SwapRoll& shape,
            Phase phase) {
    exchange(column, root_member, jb, phase);
    Exchange* x = program_->mutable_ops(program_->ops_size() - 1)->mutable_exchange();
    *x->mutable_roll() = shape;
  }

  /// Marks the receives among ops [first, size()) as standing for `repeat`
  /// messages each (Recv.repeat; fast mode's aggregated pivot exchange).
  void mark_receives_repeated(int first, std::uint32_t repeat) {
    for (int i = first; i < program_->ops_size(); ++i)
      if (program_->ops(i).has_recv()) program_->mutable_ops(i)->mutable_recv()->set_repeat(repeat);
  }

  /// Charges the receives among ops [first, size()) to `timer`'s column
  /// (Recv.timer: the timer rule), leaving them priced as their phase.
  /// `outside_gemm`: only where none of the rank's GEMMs of the step runs (Recv.timer_outside_gemm).
  void charge_receives_to(int first, Phase timer, bool outside_gemm) {
    for (int i = first; i < program_->ops_size(); ++i)
      if (program_->ops(i).has_recv()) {
        Recv* r = program_->mutable_ops(i)->mutable_recv();
        r->set_timer(timer);
        if (outside_gemm) r->set_timer_outside_gemm(true);
      }
  }

  /// Marks the sends and receives among ops [first, size()) as GPU-memory
  /// buffers (Send.device / Recv.device: GPU-aware MPI, no host staging).
  void mark_device_buffers(int first) {
    for (int i = first; i < program_->ops_size(); ++i) {
      auto* op = program_->mutable_ops(i);
      if (op->has_send()) op->mutable_send()->set_device(true);
      if (op->has_recv()) op->mutable_recv()->set_device(true);
    }
  }

  /// HPL_sdrv (src/comm/HPL_sdrv.c): MPI_Irecv, blocking MPI_Send, MPI_Wait, each
  /// side skipped when its count is zero.
  void send_recv(int peer, std::int64_t send_bytes, std::int64_t recv_bytes, Phase phase) {
    if (recv_bytes > 0 && send_bytes > 0) {
      const std::uint32_t tag = recv_async(peer, recv_bytes, phase);
      send(peer, send_bytes, phase);
      wait(tag);
    } else if (recv_bytes > 0) {
      recv(peer, recv_bytes, phase);
    } else if (send_bytes > 0) {
      send(peer, send_bytes, phase);
    }
  }

private:
  Compute* add_compute(Kernel kernel, Resource resource, std::int64_t m, std::int64_t n, std::int64_t k,
                       Phase phase, Precision precision, int device) {
    Compute* c = payload<Compute>(program_->add_ops());
    c->set_kernel(kernel);
    c->set_resource(resource);
    c->set_m(m);
    c->set_n(n);
    c->set_k(k);
    if (precision != FP64) c->set_precision(precision);
    c->set_phase(phase);
    if (device >= 0) c->set_device(device);
    return c;
  }
  Send* add_send(int peer, std::int64_t bytes, Phase phase) {
    Send* s = payload<Send>(program_->add_ops());
    s->set_peer(peer);
    s->set_bytes(bytes);
    s->set_phase(phase);
    return s;
  }
  Recv* add_recv(int peer, std::int64_t bytes, Phase phase) {
    Recv* r = payload<Recv>(program_->add_ops());
    r->set_peer(peer);
    r->set_bytes(bytes);
    r->set_phase(phase);
    return r;
  }
  Copy* add_copy(Copy::Direction direction, std::int64_t bytes, Phase phase) {
    Copy* c = payload<Copy>(program_->add_ops());
    c->set_direction(direction);
    c->set_bytes(bytes);
    c->set_phase(phase);
    return c;
  }

  // The op's payload of type T, recycled when possible (heap-allocated ops only).
  template <class T> T* payload(Op* op) {
    T* x = nullptr;
    if (recycler_ != nullptr && op->GetArena() == nullptr) {
      if constexpr (std::is_same_v<T, Compute>) {
        if ((x = recycler_->compute()) != nullptr) op->set_allocated_compute(x);
      } else if constexpr (std::is_same_v<T, Send>) {
        if ((x = recycler_->send()) != nullptr) op->set_allocated_send(x);
      } else if constexpr (std::is_same_v<T, Recv>) {
        if ((x = recycler_->recv()) != nullptr) op->set_allocated_recv(x);
      } else if constexpr (std::is_same_v<T, Copy>) {
        if ((x = recycler_->copy()) != nullptr) op->set_allocated_copy(x);
      } else if constexpr (std::is_same_v<T, Exchange>) {
        if ((x = recycler_->exchange()) != nullptr) op->set_allocated_exchange(x);
      } else if constexpr (std::is_same_v<T, Sync>) {
        if ((x = recycler_->sync()) != nullptr) op->set_allocated_sync(x);
      } else {
        if ((x = recycler_->wait()) != nullptr) op->set_allocated_wait(x);
      }
      if (x != nullptr) return x;
    }
    if constexpr (std::is_same_v<T, Compute>)
      return op->mutable_compute();
    else if constexpr (std::is_same_v<T, Send>)
      return op->mutable_send();
    else if constexpr (std::is_same_v<T, Recv>)
      return op->mutable_recv();
    else if constexpr (std::is_same_v<T, Copy>)
      return op->mutable_copy();
    else if constexpr (std::is_same_v<T, Exchange>)
      return op->mutable_exchange();
    else if constexpr (std::is_same_v<T, Sync>)
      return op->mutable_sync();
    else
      return op->mutable_wait();
  }

  RankProgram* program_;
  OpRecycler* recycler_;
  std::uint32_t next_tag_ = 1;
};

} // namespace hplsim::traces
