#pragma once
// One way to print a figure, everywhere hplsim prints one (stdout, reports,
// tables): a unit chosen for the figure's size and a few significant digits,
// and one interval format. The CSV and JSON outputs keep full precision for
// programs; what a person reads goes through these.
#include <string>

#include "sim/report/units.hpp"

namespace hplsim::sim {

// x with `digits` significant digits in fixed notation ("1.013", "0.0412",
// "13857" keeps its integer digits); never an exponent, never trailing garbage.
std::string format_sig(double x, int digits = 4);

// A rate in the unit of its own size: "1.013 EF/s", "139.6 TF/s".
std::string format_rate(double flops_per_s, int digits = 4);

// A rate in a given unit (a table whose rows share the unit of its largest).
std::string format_in_unit(double value, Unit unit, int digits = 4);

// A duration: seconds below a minute, then min, then h ("39.2 s", "3.85 h").
std::string format_duration(double seconds, int digits = 3);

// A signed relative difference as a percentage: "+37.2%", "-0.4%".
std::string format_percent_change(double fraction, int decimals = 1);

// A probability or fraction: "0.653".
std::string format_fraction(double x, int digits = 3);

// The one interval format: "[0.623, 0.682]" (each end with `digits`
// significant digits, in whatever unit the caller scaled to).
std::string format_interval(double low, double high, int digits = 3);

// Bytes in binary units: "2.04 GiB", "512 MiB".
std::string format_bytes(double bytes, int digits = 3);

// A count with its thousands grouped: "1,228,800", "-4,096", "48".
std::string format_count(long long count);

// format_sig without the trailing zeros of its decimals: a figure the user
// gave, echoed ("0.08", "24", "1.5").
std::string format_short(double x, int digits = 4);

} // namespace hplsim::sim
