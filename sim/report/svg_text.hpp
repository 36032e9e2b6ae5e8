#pragma once
// What every SVG figure hplsim writes shares: locale-free numbers for
// coordinates and tick labels, escaped text, tick steps.
#include <array>
#include <charconv>
#include <cmath>
#include <string>

namespace hplsim::sim::svg {

/// Fixed two decimals for coordinates; locale-free.
inline std::string px(double v) {
  std::array<char, 64> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, 2);
  return std::string(buf.data(), r.ptr);
}

/// Tick label: up to 6 significant digits, shortest form.
inline std::string label(double v) {
  std::array<char, 64> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::general, 6);
  return std::string(buf.data(), r.ptr);
}

inline std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// 1, 2 or 5 times a power of ten, at least `raw` (> 0).
inline double nice_step(double raw) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * magnitude >= raw) return m * magnitude;
  return 10.0 * magnitude;
}

} // namespace hplsim::sim::svg
