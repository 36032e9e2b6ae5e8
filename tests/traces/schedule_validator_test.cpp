#include "traces/schedule_validator.hpp"

#include <gtest/gtest.h>

#include "traces/program_builder.hpp"

using namespace hplsim::traces;

namespace {

struct Two {
  StepSchedule step;
  ProgramBuilder a, b;
  Two() : a(add(0)), b(add(1)) {}
  RankProgram* add(int rank) {
    RankProgram* p = step.add_ranks();
    p->set_rank(rank);
    return p;
  }
  ValidationReport check(const ValidationOptions& o = {}) const { return validate_schedule(2, {&step}, o); }
};

bool mentions(const ValidationReport& r, const std::string& what) {
  return r.summary().find(what) != std::string::npos;
}

} // namespace

TEST(ScheduleValidator, AcceptsAPairwiseExchange) {
  // Async send + blocking receive + wait on both sides cannot deadlock.
  Two t;
  const auto ta = t.a.send_async(1, 100, SWAP);
  t.a.recv(1, 200, SWAP);
  t.a.wait(ta);
  const auto tb = t.b.send_async(0, 200, SWAP);
  t.b.recv(0, 100, SWAP);
  t.b.wait(tb);
  const ValidationReport r = t.check();
  EXPECT_TRUE(r.ok()) << r.summary();
  EXPECT_EQ(r.messages, 2);
  EXPECT_EQ(r.message_bytes, 300);
}

TEST(ScheduleValidator, RejectsByteMismatch) {
  Two t;
  t.a.send(1, 100, BCAST);
  t.b.recv(0, 99, BCAST);
  EXPECT_TRUE(mentions(t.check(), "sent with 100 bytes, received with 99"));
}

TEST(ScheduleValidator, RejectsMissingReceive) {
  Two t;
  t.a.send(1, 100, BCAST);
  t.a.send(1, 100, BCAST);
  t.b.recv(0, 100, BCAST);
  EXPECT_TRUE(mentions(t.check(), "2 sends, 1 receives"));
}

TEST(ScheduleValidator, RejectsUnwaitedAndUnknownTags) {
  Two t;
  t.a.compute_async(KERNEL_GEMM, GPU, 10, 10, 10, GEMM);
  t.b.wait(7);
  const ValidationReport r = t.check();
  EXPECT_TRUE(mentions(r, "never waited"));
  EXPECT_TRUE(mentions(r, "not in flight"));
}

TEST(ScheduleValidator, RejectsATagReusedWhileInFlight) {
  Two t;
  RankProgram* p = t.step.mutable_ranks(0);
  for (int i = 0; i < 2; ++i) {
    Compute* c = p->add_ops()->mutable_compute();
    c->set_kernel(KERNEL_GEMM);
    c->set_resource(GPU);
    c->set_phase(GEMM);
    c->set_async_tag(3);
  }
  p->add_ops()->mutable_wait()->set_async_tag(3);
  EXPECT_TRUE(mentions(t.check(), "already in flight"));
}

TEST(ScheduleValidator, DetectsARendezvousDeadlock) {
  // Both ranks block in a send first: under rendezvous neither receive is posted.
  Two t;
  t.a.send(1, 100, SWAP);
  t.a.recv(1, 100, SWAP);
  t.b.send(0, 100, SWAP);
  t.b.recv(0, 100, SWAP);
  EXPECT_TRUE(mentions(t.check(), "deadlock"));
  ValidationOptions no_deadlock_check;
  no_deadlock_check.check_deadlock = false;
  EXPECT_TRUE(t.check(no_deadlock_check).ok());
}

TEST(ScheduleValidator, TagsWithinStepOptionFlagsTagsCrossingSteps) {
  StepSchedule s0, s1;
  s0.set_step(0);
  s1.set_step(1);
  RankProgram* p0 = s0.add_ranks();
  p0->set_rank(0);
  ProgramBuilder b0(p0);
  const auto tag = b0.compute_async(KERNEL_GEMM, GPU, 10, 10, 10, GEMM);
  RankProgram* p1 = s1.add_ranks();
  p1->set_rank(0);
  ProgramBuilder b1(p1);
  b1.wait(tag);
  EXPECT_TRUE(validate_schedule(1, {&s0, &s1}).ok());
  ValidationOptions strict;
  strict.tags_within_step = true;
  EXPECT_FALSE(validate_schedule(1, {&s0, &s1}, strict).ok());
}

TEST(ScheduleValidator, RejectsSelfMessagesAndOutOfRangePeers) {
  Two t;
  t.a.send(0, 10, BCAST);
  t.b.send(5, 10, BCAST);
  const ValidationReport r = t.check();
  EXPECT_TRUE(mentions(r, "bad peer 0"));
  EXPECT_TRUE(mentions(r, "bad peer 5"));
}

TEST(ScheduleValidator, TreatsASyncAsABarrier) {
  // Both members reach the Sync: fine. A Sync that one member never reaches
  // leaves the other stuck: a deadlock; so does a Sync placed before the
  // receive its partner's blocking send needs.
  const Communicator both{0, 1, 2};
  {
    Two t;
    t.a.send(1, 100, PFACT);
    t.a.sync(both, PFACT);
    t.b.recv(0, 100, PFACT);
    t.b.sync(both, PFACT);
    EXPECT_TRUE(t.check().ok()) << t.check().summary();
  }
  {
    Two t;
    t.a.sync(both, PFACT);
    EXPECT_TRUE(mentions(t.check(), "deadlock")) << t.check().summary();
    EXPECT_TRUE(mentions(t.check(), "Sync of 2"));
  }
  {
    Two t;
    t.a.send(1, 100, PFACT);
    t.a.sync(both, PFACT);
    t.b.sync(both, PFACT);
    t.b.recv(0, 100, PFACT);
    EXPECT_TRUE(mentions(t.check(), "deadlock")) << t.check().summary();
  }
  {
    Two t; // a Sync that does not include its rank
    t.a.sync(Communicator{1, 1, 1}, PFACT);
    EXPECT_TRUE(mentions(t.check(), "sync does not include its rank"));
  }
}

TEST(ScheduleValidator, ChecksASwapRollsShape) {
  // A collective swap roll (Exchange with a SwapRoll) whose two members agree
  // is fine; no columns, or a panel past the matrix, is a generator bug.
  const Communicator both{0, 1, 2};
  const auto roll = [](std::int64_t ncols, std::int64_t row_begin) {
    SwapRoll s;
    s.set_n(1000);
    s.set_nb(100);
    s.set_row_begin(row_begin);
    s.set_ncols(ncols);
    return s;
  };
  {
    Two t;
    t.a.roll(both, 0, 100, roll(400, 200), SWAP);
    t.b.roll(both, 0, 100, roll(400, 200), SWAP);
    EXPECT_TRUE(t.check().ok()) << t.check().summary();
  }
  {
    Two t;
    t.a.roll(both, 0, 100, roll(0, 200), SWAP);
    t.b.roll(both, 0, 100, roll(400, 950), SWAP);
    const ValidationReport r = t.check();
    EXPECT_TRUE(mentions(r, "rank 0") && mentions(r, "bad swap roll")) << r.summary();
    EXPECT_TRUE(mentions(r, "rank 1")) << r.summary();
  }
}
