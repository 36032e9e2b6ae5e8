// OSU micro-benchmark output parsing.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "models/osu_output.hpp"

namespace hm = hplsim::models;

namespace {

std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    hm::parse_osu_output(in, "osu.txt");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(OsuOutput, ParsesLatencyInSeconds) {
  std::istringstream in(
      "# OSU MPI Latency Test v5.6.2\n# Size          Latency (us)\n0                       1.13\n"
      "1                       1.12\n8192                    3.60\n");
  const hm::OsuTable t = hm::parse_osu_output(in, "osu.txt");
  EXPECT_EQ(t.kind, hm::OsuKind::Latency);
  EXPECT_EQ(t.title, "OSU MPI Latency Test v5.6.2");
  ASSERT_EQ(t.points.size(), 3u);
  EXPECT_DOUBLE_EQ(t.points[2].bytes, 8192.0);
  EXPECT_NEAR(t.points[2].value, 3.60e-6, 1e-18); // us -> s
}

TEST(OsuOutput, ParsesBandwidthInBytesPerSecond) {
  std::istringstream in("# OSU MPI Bandwidth Test v7.1\n# Datatype: MPI_CHAR.\n# Size      Bandwidth (MB/s)\n"
                        "1                       3.34\n4194304             12000.50\n");
  const hm::OsuTable t = hm::parse_osu_output(in, "osu.txt");
  EXPECT_EQ(t.kind, hm::OsuKind::Bandwidth);
  ASSERT_EQ(t.points.size(), 2u);
  EXPECT_NEAR(t.points[1].value, 12000.50e6, 1e-3); // OMB's MB is 10^6 bytes
}

TEST(OsuOutput, ReadsOmb7HeaderAndIgnoresExtraColumns) {
  // OMB 7 with -f: "Avg Latency(us)" then min, max latency and iterations.
  std::istringstream in("# OSU MPI Latency Test v7.1\n"
                        "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n"
                        "8                       1.10              1.05              1.20       10000\n");
  const hm::OsuTable t = hm::parse_osu_output(in, "osu.txt");
  EXPECT_EQ(t.kind, hm::OsuKind::Latency);
  EXPECT_NEAR(t.points[0].value, 1.10e-6, 1e-18); // the first value column, in s
}

TEST(OsuOutput, RejectsUnrecognisedHeader) {
  const std::string e = error_of("# Size      Messages/s\n8 100\n");
  EXPECT_NE(e.find("osu.txt:1: unrecognised OSU header"), std::string::npos) << e;
}

TEST(OsuOutput, RejectsMissingHeader) {
  const std::string e = error_of("0 1.13\n");
  EXPECT_NE(e.find("osu.txt:1:"), std::string::npos) << e;
}

TEST(OsuOutput, RejectsNonNumericLine) {
  const std::string e = error_of("# Size          Latency (us)\n0 1.13\nfoo bar\n");
  EXPECT_NE(e.find("osu.txt:3:"), std::string::npos) << e;
}

TEST(OsuOutput, RejectsDecreasingSizes) {
  const std::string e = error_of("# Size          Latency (us)\n8 1.13\n4 1.10\n");
  EXPECT_NE(e.find("osu.txt:3: sizes must increase"), std::string::npos) << e;
}

TEST(OsuOutput, RejectsZeroValue) {
  EXPECT_NE(error_of("# Size          Latency (us)\n8 0.0\n").find("must be > 0"), std::string::npos);
}

TEST(OsuOutput, RejectsHeaderWithoutData) {
  EXPECT_NE(error_of("# Size          Latency (us)\n").find("no data"), std::string::npos);
}
