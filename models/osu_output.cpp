// OSU Micro-Benchmarks output parsing (format: osu_output.hpp).
#include "models/osu_output.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <istream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace hplsim::models {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

[[noreturn]] void fail(const std::string& name, int line, const std::string& what) {
  throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + what);
}

} // namespace

OsuTable parse_osu_output(std::istream& in, const std::string& display_name) {
  OsuTable table;
  bool header_seen = false;
  double scale = 0.0; // value unit -> SI
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    const std::string line = trim(raw);
    if (line.empty()) continue;
    if (line[0] == '#') {
      const std::string text = trim(line.substr(1));
      if (table.title.empty() && !header_seen && text.rfind("Size", 0) != 0) table.title = text;
      if (text.rfind("Size", 0) == 0) {
        if (text.find("Latency") != std::string::npos && text.find("(us)") != std::string::npos) {
          table.kind = OsuKind::Latency;
          scale = 1e-6;
        } else if (text.find("Bandwidth") != std::string::npos && text.find("(MB/s)") != std::string::npos) {
          table.kind = OsuKind::Bandwidth;
          scale = 1e6;
        } else {
          fail(display_name, line_no,
               "unrecognised OSU header '" + line + "' (expected 'Latency (us)' or 'Bandwidth (MB/s)')");
        }
        header_seen = true;
      }
      continue;
    }
    if (!header_seen)
      fail(display_name, line_no,
           "data before the '# Size  Latency (us)' / '# Size  Bandwidth (MB/s)' header");
    std::istringstream fields(line);
    std::string size_text, value_text;
    fields >> size_text >> value_text;
    long long size = 0;
    const auto [ptr, ec] = std::from_chars(size_text.data(), size_text.data() + size_text.size(), size);
    if (ec != std::errc() || ptr != size_text.data() + size_text.size() || size < 0)
      fail(display_name, line_no, "size must be an integer >= 0, got '" + size_text + "'");
    double value = 0.0;
    const auto [vptr, vec] = std::from_chars(value_text.data(), value_text.data() + value_text.size(), value);
    if (value_text.empty() || vec != std::errc() || vptr != value_text.data() + value_text.size())
      fail(display_name, line_no, "expected '<size> <value>', got '" + line + "'");
    if (!(std::isfinite(value) && value > 0.0))
      fail(display_name, line_no, "value must be > 0, got " + value_text);
    const double bytes = static_cast<double>(size);
    if (!table.points.empty() && !(bytes > table.points.back().bytes))
      fail(display_name, line_no,
           "sizes must increase, got " + size_text + " after " +
               std::to_string(static_cast<long long>(table.points.back().bytes)));
    table.points.push_back({bytes, value * scale});
  }
  if (!header_seen)
    fail(display_name, line_no + 1, "no '# Size  Latency (us)' or '# Size  Bandwidth (MB/s)' header found");
  if (table.points.empty()) fail(display_name, line_no + 1, "no data lines after the header");
  return table;
}

OsuTable read_osu_output(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open OSU output");
  return parse_osu_output(in, path);
}

} // namespace hplsim::models
