#include "sim/report/format.hpp"

#include <gtest/gtest.h>

namespace hplsim::sim {
namespace {

// Expected strings are worked by hand from the rule in format.hpp: `digits`
// significant digits in fixed notation, a unit chosen for the size.
TEST(Format, SignificantDigitsInFixedNotation) {
  EXPECT_EQ(format_sig(1.01339, 4), "1.013");
  EXPECT_EQ(format_sig(0.041234, 3), "0.0412");
  EXPECT_EQ(format_sig(13857.2, 4), "13857");
  EXPECT_EQ(format_sig(0.0, 4), "0");
  EXPECT_EQ(format_sig(-2.5, 2), "-2.5");
}

TEST(Format, RoundingCarryDoesNotAddADigit) {
  EXPECT_EQ(format_sig(9.99996, 4), "10.00");
  EXPECT_EQ(format_sig(0.099999, 3), "0.100");
}

TEST(Format, SmallFiguresKeepTheirDigitsAndZeroChangesHaveOneSign) {
  EXPECT_EQ(format_sig(-0.00001, 2), "-0.000010");
  EXPECT_EQ(format_percent_change(-0.00001), "+0.0%");
}

TEST(Format, RatesTakeTheUnitOfTheirSize) {
  EXPECT_EQ(format_rate(1.01339e18), "1.013 EF/s");
  EXPECT_EQ(format_rate(139.6e12), "139.6 TF/s");
  EXPECT_EQ(format_rate(1874829268683454.2), "1.875 PF/s");
}

TEST(Format, DurationsIntervalsAndChanges) {
  EXPECT_EQ(format_duration(39.21), "39.2 s");
  EXPECT_EQ(format_duration(13857.0), "3.85 h");
  EXPECT_EQ(format_interval(0.385117, 0.652029), "[0.385, 0.652]");
  EXPECT_EQ(format_percent_change(0.3812), "+38.1%");
  EXPECT_EQ(format_percent_change(-0.004), "-0.4%");
  EXPECT_EQ(format_bytes(2.04 * 1024 * 1024 * 1024), "2.04 GiB");
}

TEST(Format, CountsGroupTheirThousands) {
  EXPECT_EQ(format_count(1228800), "1,228,800");
  EXPECT_EQ(format_count(48), "48");
  EXPECT_EQ(format_count(1000), "1,000");
  EXPECT_EQ(format_count(-4096), "-4,096");
  EXPECT_EQ(format_count(0), "0");
}

TEST(Format, ShortDropsTheTrailingZerosOfAnEchoedFigure) {
  // format_sig(0.08) is "0.08000" and format_sig(24) "24.00": the zeros go, the digits stay.
  EXPECT_EQ(format_short(0.08), "0.08");
  EXPECT_EQ(format_short(24.0), "24");
  EXPECT_EQ(format_short(1.5), "1.5");
  EXPECT_EQ(format_short(100.0), "100");
  EXPECT_EQ(format_short(0.123456), "0.1235"); // still 4 significant digits
}

TEST(Format, TheUnitIsChosenForTheRoundedFigure) {
  // 999.96 PF/s rounds to 1000 at 4 digits, which reads as 1.000 EF/s;
  // 59.99 s rounds to 60.0 at 3 digits, which reads as 1.00 min.
  EXPECT_EQ(format_rate(999.96e15), "1.000 EF/s");
  EXPECT_EQ(format_duration(59.99), "1.00 min");
  EXPECT_EQ(format_duration(59.94), "59.9 s");
}

TEST(Format, ExtremeMagnitudesFallBackToExponents) {
  // Fixed notation past 1e30 would print 31+ digits; %g keeps the digits asked for.
  EXPECT_EQ(format_sig(1.5e40, 3), "1.5e+40");
  EXPECT_EQ(format_sig(2.5e-40, 2), "2.5e-40");
}

} // namespace
} // namespace hplsim::sim
