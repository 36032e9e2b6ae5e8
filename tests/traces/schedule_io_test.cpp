#include "traces/schedule_io.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "traces/hpl_generator.hpp"

using namespace hplsim::traces;

TEST(ScheduleIo, RoundTripsAGeneratedRun) {
  HplConfig c;
  c.n = 120;
  c.nb = 16;
  c.p = 2;
  c.q = 3;
  c.depth = 1;
  c.gpu = true;
  c.host_staged = true;
  const HplScheduleGenerator g(c);
  std::stringstream buffer;
  std::vector<std::string> written;
  {
    ScheduleWriter w(buffer);
    w.write_header(g.header());
    StepSchedule s;
    for (std::int64_t k = 0; k <= g.steps(); ++k) {
      g.step(k, s);
      w.write_step(s);
      written.push_back(s.SerializeAsString());
    }
  }
  ScheduleReader r(buffer);
  ScheduleHeader h;
  ASSERT_TRUE(r.read_header(h));
  EXPECT_EQ(h.SerializeAsString(), g.header().SerializeAsString());
  StepSchedule s;
  std::size_t i = 0;
  while (r.read_step(s)) {
    ASSERT_LT(i, written.size());
    EXPECT_EQ(s.SerializeAsString(), written[i]) << "step " << i;
    ++i;
  }
  EXPECT_EQ(i, written.size()); // steps 0..8 and the final solve
  EXPECT_EQ(i, 9u);
}

TEST(ScheduleIo, TruncatedStreamThrows) {
  HplConfig c;
  c.n = 64;
  c.nb = 16;
  c.p = 2;
  c.q = 2;
  const HplScheduleGenerator g(c);
  std::stringstream buffer;
  {
    ScheduleWriter w(buffer);
    w.write_header(g.header());
    StepSchedule s;
    g.step(0, s);
    w.write_step(s);
  }
  std::string bytes = buffer.str();
  bytes.resize(bytes.size() - 5);
  std::stringstream cut(bytes);
  ScheduleReader r(cut);
  ScheduleHeader h;
  ASSERT_TRUE(r.read_header(h));
  StepSchedule s;
  EXPECT_THROW(r.read_step(s), std::runtime_error);
}
