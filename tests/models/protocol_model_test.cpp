// Protocol model: piecewise factors, overheads, eager switch, validation, rescaling.
#include <gtest/gtest.h>

#include <stdexcept>

#include "models/protocol_model.hpp"

namespace hm = hplsim::models;

namespace {

hm::ProtocolParams two_segments() {
  hm::ProtocolParams p;
  p.set_send_overhead_s(1e-6);
  p.set_recv_overhead_s(2e-6);
  p.set_send_overhead_per_byte_s(1e-12);
  p.set_eager_threshold_bytes(16384);
  p.set_rendezvous_extra_latency_s(3e-6);
  auto* s0 = p.add_segments();
  s0->set_min_bytes(0);
  s0->set_latency_factor(1.5);
  s0->set_bandwidth_factor(0.3);
  auto* s1 = p.add_segments();
  s1->set_min_bytes(16384);
  s1->set_latency_factor(4.0);
  s1->set_bandwidth_factor(0.9);
  return p;
}

} // namespace

TEST(ProtocolModel, FactorsArePiecewiseBySize) {
  const hm::ProtocolModel m(two_segments());
  EXPECT_DOUBLE_EQ(m.latency_factor(0), 1.5);
  EXPECT_DOUBLE_EQ(m.latency_factor(16383), 1.5);
  EXPECT_DOUBLE_EQ(m.latency_factor(16384), 4.0); // a segment applies from its min_bytes up
  EXPECT_DOUBLE_EQ(m.bandwidth_factor(1e9), 0.9);
  EXPECT_DOUBLE_EQ(m.bandwidth_factor(100), 0.3);
}

TEST(ProtocolModel, NoSegmentsMeansUnitFactors) {
  const hm::ProtocolModel m(hm::ProtocolParams{});
  EXPECT_DOUBLE_EQ(m.latency_factor(1e6), 1.0);
  EXPECT_DOUBLE_EQ(m.bandwidth_factor(1e6), 1.0);
  EXPECT_TRUE(m.is_eager(1e12)); // no threshold: everything eager
  EXPECT_DOUBLE_EQ(m.send_overhead_s(1e6), 0.0);
}

TEST(ProtocolModel, UnsetFactorInASegmentIsOne) {
  hm::ProtocolParams p;
  p.add_segments()->set_min_bytes(0);
  const hm::ProtocolModel m(p);
  EXPECT_DOUBLE_EQ(m.latency_factor(10), 1.0);
  EXPECT_DOUBLE_EQ(m.bandwidth_factor(10), 1.0);
}

TEST(ProtocolModel, OverheadsHaveConstantAndPerBytePart) {
  const hm::ProtocolModel m(two_segments());
  // send: 1e-6 + 1e6 B * 1e-12 s/B = 2e-6 s; recv: constant 2e-6 s.
  EXPECT_NEAR(m.send_overhead_s(1e6), 2e-6, 1e-18);
  EXPECT_NEAR(m.recv_overhead_s(1e6), 2e-6, 1e-18);
}

TEST(ProtocolModel, EagerBelowThresholdRendezvousFromIt) {
  const hm::ProtocolModel m(two_segments());
  EXPECT_TRUE(m.is_eager(16383));
  EXPECT_FALSE(m.is_eager(16384));
  EXPECT_DOUBLE_EQ(m.rendezvous_extra_latency_s(100), 0.0);
  EXPECT_DOUBLE_EQ(m.rendezvous_extra_latency_s(1 << 20), 3e-6);
}

TEST(ProtocolModel, RejectsFirstSegmentNotAtZero) {
  hm::ProtocolParams p;
  p.add_segments()->set_min_bytes(64);
  EXPECT_THROW(hm::ProtocolModel{p}, std::invalid_argument);
}

TEST(ProtocolModel, RejectsUnsortedSegments) {
  hm::ProtocolParams p = two_segments();
  p.add_segments()->set_min_bytes(1024);
  EXPECT_THROW(hm::ProtocolModel{p}, std::invalid_argument);
}

TEST(ProtocolModel, RejectsZeroBandwidthFactor) {
  hm::ProtocolParams p = two_segments();
  p.mutable_segments(1)->set_bandwidth_factor(0.0);
  try {
    const hm::ProtocolModel m(p);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("segments[1].bandwidth_factor"), std::string::npos) << e.what();
  }
}

TEST(ProtocolModel, RejectsNegativeOverhead) {
  hm::ProtocolParams p;
  p.set_recv_overhead_s(-1e-6);
  EXPECT_THROW(hm::ProtocolModel{p}, std::invalid_argument);
}

TEST(ProtocolModel, RejectsNegativeMessageSize) {
  const hm::ProtocolModel m(two_segments());
  EXPECT_THROW(m.latency_factor(-1), std::invalid_argument);
}

TEST(ProtocolModel, RescaleKeepsMessageTimes) {
  hm::ProtocolParams p = two_segments();
  p.set_reference_path_latency_s(1e-6);
  p.set_reference_path_bandwidth_bytes_per_s(12.5e9);
  const hm::ProtocolParams q = hm::rescale_protocol(p, 2e-6, 25e9);
  const hm::ProtocolModel a(p), b(q);
  for (double bytes : {8.0, 20000.0}) {
    // L * lf and B * bf are what the time depends on: identical after rescaling.
    EXPECT_NEAR(1e-6 * a.latency_factor(bytes), 2e-6 * b.latency_factor(bytes), 1e-18);
    EXPECT_NEAR(12.5e9 * a.bandwidth_factor(bytes), 25e9 * b.bandwidth_factor(bytes), 1e-3);
  }
  EXPECT_DOUBLE_EQ(q.reference_path_latency_s(), 2e-6);
}

TEST(ProtocolModel, RescaleWithoutReferenceLatencyKeepsLatencyFactors) {
  hm::ProtocolParams p = two_segments();
  p.set_reference_path_bandwidth_bytes_per_s(12.5e9);
  const hm::ProtocolParams q = hm::rescale_protocol(p, 2e-6, 25e9);
  EXPECT_DOUBLE_EQ(q.segments(0).latency_factor(), 1.5);
  EXPECT_DOUBLE_EQ(q.segments(0).bandwidth_factor(), 0.15); // 0.3 * 12.5/25
  EXPECT_FALSE(q.has_reference_path_latency_s());
}

TEST(ProtocolModel, TimePerByteIsALatencyOfItsSegmentOnly) {
  // Segment 0 adds 2e-10 s per byte to the latency, segment 1 (from 1,000 B)
  // nothing: a 500 B message gets 100 ns more, a 2,000 B one none, and
  // neither bandwidth factor moves (unset: 1).
  hm::ProtocolParams p;
  auto* s0 = p.add_segments();
  s0->set_min_bytes(0);
  s0->set_time_per_byte_s(2e-10);
  p.add_segments()->set_min_bytes(1000);
  const hm::ProtocolModel m(p);
  EXPECT_NEAR(m.message_latency_s(1e-6, 500), 1e-6 + 500 * 2e-10, 1e-15);
  EXPECT_NEAR(m.message_latency_s(1e-6, 2000), 1e-6, 1e-15);
  EXPECT_DOUBLE_EQ(m.bandwidth_factor(500), 1.0);
  s0->set_time_per_byte_s(-1.0);
  EXPECT_THROW(hm::ProtocolModel{p}, std::invalid_argument);
}

TEST(ProtocolModel, IntraNodeDefaultsToPricedAndCanBeLeftToTheLinks) {
  hm::ProtocolParams p;
  EXPECT_TRUE(hm::ProtocolModel(p).prices_intra_node());
  p.set_intra_node(false);
  EXPECT_FALSE(hm::ProtocolModel(p).prices_intra_node());
}
