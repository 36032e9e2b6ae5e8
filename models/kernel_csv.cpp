// Reading and writing kernel timing samples (format: kernel_csv.hpp).
#include "models/kernel_csv.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <system_error>

#include "models/kernel_cost_terms.hpp"

namespace hplsim::models {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    out.push_back(trim(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

struct Where {
  const std::string& file;
  int line;
  [[noreturn]] void fail(const std::string& column, const std::string& what) const {
    throw std::invalid_argument(file + ":" + std::to_string(line) + ": column '" + column + "': " + what);
  }
};

std::int64_t parse_dim(const Where& at, const char* column, const std::string& text) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
    at.fail(column, "expected an integer >= 0, got '" + text + "'");
  if (v < 0) at.fail(column, "expected an integer >= 0, got " + text);
  return v;
}

double parse_seconds(const Where& at, const std::string& text) {
  double v = 0.0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
    at.fail("seconds", "expected a number > 0, got '" + text + "'");
  if (!(std::isfinite(v) && v > 0.0)) at.fail("seconds", "expected a finite number > 0, got " + text);
  return v;
}

} // namespace

std::vector<KernelSample> read_kernel_csv(std::istream& in, const std::string& display_name) {
  std::vector<KernelSample> samples;
  std::string raw;
  int line_no = 0;
  bool header_seen = false;
  while (std::getline(in, raw)) {
    ++line_no;
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    if (!header_seen) {
      if (line != kKernelCsvHeader)
        throw std::invalid_argument(display_name + ":" + std::to_string(line_no) + ": header must be '" +
                                    kKernelCsvHeader + "', got '" + line + "'");
      header_seen = true;
      continue;
    }
    const Where at{display_name, line_no};
    const auto fields = split_commas(line);
    if (fields.size() != 5)
      throw std::invalid_argument(display_name + ":" + std::to_string(line_no) + ": expected 5 columns (" +
                                  kKernelCsvHeader + "), got " + std::to_string(fields.size()));
    KernelSample s;
    s.kernel = fields[0];
    try {
      shape_from_record_name(s.kernel, 0, 0, 0);
    } catch (const std::invalid_argument& e) {
      at.fail("kernel", e.what());
    }
    s.m = parse_dim(at, "m", fields[1]);
    s.n = parse_dim(at, "n", fields[2]);
    s.k = parse_dim(at, "k", fields[3]);
    s.seconds = parse_seconds(at, fields[4]);
    s.line = line_no;
    samples.push_back(std::move(s));
  }
  if (!header_seen)
    throw std::invalid_argument(display_name + ":" + std::to_string(line_no + 1) + ": header '" +
                                kKernelCsvHeader + "' missing (empty file)");
  return samples;
}

std::vector<KernelSample> read_kernel_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open kernel timing CSV");
  return read_kernel_csv(in, path);
}

void write_kernel_csv_header(std::ostream& out) {
  out << kKernelCsvHeader << '\n';
}

void write_kernel_csv_row(std::ostream& out, const KernelSample& s) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, s.seconds, std::chars_format::general, 6);
  out << s.kernel << ',' << s.m << ',' << s.n << ',' << s.k << ',' << std::string(buf, res.ptr) << '\n';
}

} // namespace hplsim::models
