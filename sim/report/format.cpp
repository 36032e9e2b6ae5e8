#include "sim/report/format.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace hplsim::sim {

std::string format_sig(double x, int digits) {
  if (!std::isfinite(x)) return std::isnan(x) ? "n/a" : (x > 0 ? "inf" : "-inf");
  if (x == 0.0) return "0";
  if (digits < 1) digits = 1;
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(x))));
  // Beyond these magnitudes fixed notation is unreadable anyway: %g then.
  if (magnitude > 30 || magnitude < -30) {
    char wide[64];
    std::snprintf(wide, sizeof wide, "%.*g", digits, x);
    return wide;
  }
  int decimals = digits - 1 - magnitude;
  if (decimals < 0) decimals = 0;
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, x);
  // Rounding can carry into a new digit (9.9996 at 4 digits prints "10.000"):
  // redo it with one decimal fewer.
  std::string text = buffer;
  if (decimals > 0) {
    const double rounded = std::fabs(std::strtod(buffer, nullptr));
    if (rounded > 0.0 && static_cast<int>(std::floor(std::log10(rounded))) > magnitude) {
      std::snprintf(buffer, sizeof buffer, "%.*f", decimals - 1, x);
      text = buffer;
    }
  }
  return text;
}

std::string format_in_unit(double value, Unit unit, int digits) {
  return format_sig(value / unit.scale, digits) + " " + unit.name;
}

namespace {

/// `value` in the unit `pick` chooses for it, chosen again for the rounded
/// figure: 999.96 PF/s at 4 digits reads 1.000 EF/s, 59.97 s at 3 reads 1.00 min.
std::string format_picked(double value, Unit (*pick)(double), int digits) {
  const Unit unit = pick(std::fabs(value));
  const double rounded = std::strtod(format_sig(value / unit.scale, digits).c_str(), nullptr) * unit.scale;
  return format_in_unit(value, pick(std::fabs(rounded)), digits);
}

} // namespace

std::string format_rate(double flops_per_s, int digits) {
  return format_picked(flops_per_s, rate_unit, digits);
}

std::string format_duration(double seconds, int digits) {
  return format_picked(seconds, time_unit, digits);
}

std::string format_percent_change(double fraction, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%+.*f%%", decimals, 100.0 * fraction);
  std::string text = buffer;
  // A change that rounds to zero reads "+0.0%", not "-0.0%".
  if (text[0] == '-' && text.find_first_of("123456789") == std::string::npos) text[0] = '+';
  return text;
}

std::string format_fraction(double x, int digits) {
  return format_sig(x, digits);
}

std::string format_interval(double low, double high, int digits) {
  return "[" + format_sig(low, digits) + ", " + format_sig(high, digits) + "]";
}

std::string format_bytes(double bytes, int digits) {
  static const char* const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int index = 0;
  double value = bytes;
  while (std::fabs(value) >= 1024.0 && index < 5) {
    value /= 1024.0;
    ++index;
  }
  return format_sig(value, index == 0 ? 6 : digits) + " " + names[index];
}

std::string format_count(long long count) {
  const std::string digits =
      std::to_string(count < 0 ? -(count + 1) + 1ULL : static_cast<unsigned long long>(count));
  std::string text;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return count < 0 ? "-" + text : text;
}

std::string format_short(double x, int digits) {
  std::string text = format_sig(x, digits);
  if (text.find('.') == std::string::npos) return text;
  while (text.back() == '0')
    text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

} // namespace hplsim::sim
