#include "sim/scenario/hpl_dat.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <sstream>

#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {

// HPL_MAX_PARAM (netlib HPL 2.3, include/hpl_ptest.h): the most values a line may list.
constexpr int kMaxParam = 20;

std::vector<std::string> tokens_of(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string t; in >> t;)
    out.push_back(t);
  return out;
}

class Reader {
public:
  Reader(const std::string& text, HplDat& dat) : dat_(dat) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back(line);
    }
  }

  [[noreturn]] void fail(int line, const std::string& field, const std::string& what) const {
    throw InputError(dat_.path + ":" + std::to_string(line) + ": " + field + ": " + what);
  }

  // The next line (HPL reads the file line by line with fgets).
  const std::string& next(const std::string& field) {
    if (at_ >= lines_.size())
      fail(static_cast<int>(at_) + 1, field,
           "the file ends here (an HPL 2.3 HPL.dat has 31 lines: netlib HPL 2.3, testing/ptest/HPL.dat)");
    dat_.lines.emplace_back(field, static_cast<int>(at_) + 1);
    return lines_[at_++];
  }
  int line() const { return static_cast<int>(at_); }

  template <typename T> static bool parses(const std::string& token, T& v) {
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    return ec == std::errc() && end == token.data() + token.size();
  }

  template <typename T> T number(const std::string& token, const std::string& field) const {
    T v{};
    if (!parses(token, v))
      fail(line(), field,
           "\"" + token + "\" is not a " + (std::is_integral_v<T> ? "whole number" : "number"));
    return v;
  }

  // A line whose first token is the value.
  template <typename T> T single(const std::string& field) {
    const std::vector<std::string> t = tokens_of(next(field));
    if (t.empty()) fail(line(), field, "the line is empty, a value was expected");
    return number<T>(t[0], field);
  }

  // A "# of X" line, then the line listing that many values.
  template <typename T> std::vector<T> list(const std::string& count_field, const std::string& field) {
    const int count = single<int>(count_field);
    const int count_line = line();
    if (count < 1 || count > kMaxParam)
      fail(count_line, count_field,
           std::to_string(count) + " is not between 1 and " + std::to_string(kMaxParam) +
               " (HPL_MAX_PARAM, netlib HPL 2.3 include/hpl_ptest.h)");
    return values<T>(count, "line " + std::to_string(count_line), field);
  }

  // The next line's first `count` values; `counted_on` says where the count is.
  template <typename T>
  std::vector<T> values(int count, const std::string& counted_on, const std::string& field) {
    const std::vector<std::string> t = tokens_of(next(field));
    const std::string expected = std::to_string(count) + " values expected (" + counted_on + "), ";
    std::vector<T> out;
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
      if (i >= t.size()) fail(line(), field, expected + std::to_string(i) + " found");
      T v{};
      if (i > 0 && !parses(t[i], v))
        fail(line(), field, expected + std::to_string(i) + " found before \"" + t[i] + "\"");
      out.push_back(number<T>(t[i], field));
    }
    return out;
  }

private:
  HplDat& dat_;
  std::vector<std::string> lines_;
  std::size_t at_ = 0;
};

template <typename T>
void check_each(const Reader& r, const HplDat& dat, const std::vector<T>& values, const std::string& field,
                T lo, T hi, const std::string& what) {
  for (const T v : values)
    if (v < lo || v > hi) r.fail(dat.line_of(field), field, std::to_string(v) + ": " + what);
}

} // namespace

int HplDat::line_of(const std::string& field) const {
  for (const auto& [name, line] : lines)
    if (name == field) return line;
  return 0;
}

std::string HplDat::where(const std::string& field) const {
  return path + ":" + std::to_string(line_of(field)) + ": " + field;
}

HplDat parse_hpl_dat(const std::string& text, const std::string& path) {
  HplDat dat;
  dat.path = path;
  Reader r(text, dat);
  r.next("title");
  r.next("title");
  r.next("output file name");
  r.single<int>("device out");
  dat.ns = r.list<std::int64_t>("# of problems sizes (N)", "Ns");
  dat.nbs = r.list<std::int64_t>("# of NBs", "NBs");
  const int pmap = r.single<int>("PMAP");
  if (pmap != 0 && pmap != 1)
    r.fail(r.line(), "PMAP", std::to_string(pmap) + ": 0 (row-major) or 1 (column-major)");
  dat.column_major = pmap == 1;
  dat.ps = r.list<int>("# of process grids (P x Q)", "Ps");
  // Qs: as many as Ps, the count on the grids line.
  dat.qs = r.values<int>(static_cast<int>(dat.ps.size()), "the grids line", "Qs");
  dat.threshold = r.single<double>("threshold");
  dat.pfacts = r.list<int>("# of panel fact", "PFACTs");
  dat.nbmins = r.list<int>("# of recursive stopping criterium", "NBMINs");
  dat.ndivs = r.list<int>("# of panels in recursion", "NDIVs");
  dat.rfacts = r.list<int>("# of recursive panel fact.", "RFACTs");
  dat.bcasts = r.list<int>("# of broadcast", "BCASTs");
  dat.depths = r.list<int>("# of lookahead depth", "DEPTHs");
  dat.swap = r.single<int>("SWAP");
  dat.swap_threshold = r.single<int>("swapping threshold");
  dat.l1_notran = r.single<int>("L1 form");
  dat.u_notran = r.single<int>("U form");
  dat.equil = r.single<int>("Equilibration");
  dat.align = r.single<int>("memory alignment");

  // Values HPL 2.3 rejects (HPL_pdinfo.c), and those it would replace
  // silently by a default (PFACT, RFACT, BCAST, SWAP out of range): a typo
  // here is refused, not run as something else.
  check_each<std::int64_t>(r, dat, dat.ns, "Ns", 1, INT64_MAX, "N must be >= 1");
  check_each<std::int64_t>(r, dat, dat.nbs, "NBs", 1, INT64_MAX, "NB must be >= 1");
  check_each(r, dat, dat.ps, "Ps", 1, INT32_MAX, "P must be >= 1");
  check_each(r, dat, dat.qs, "Qs", 1, INT32_MAX, "Q must be >= 1");
  check_each(r, dat, dat.pfacts, "PFACTs", 0, 2, "0=left, 1=Crout, 2=Right");
  check_each(r, dat, dat.nbmins, "NBMINs", 1, INT32_MAX, "NBMIN must be >= 1");
  check_each(r, dat, dat.ndivs, "NDIVs", 2, INT32_MAX, "NDIV must be >= 2");
  check_each(r, dat, dat.rfacts, "RFACTs", 0, 2, "0=left, 1=Crout, 2=Right");
  check_each(r, dat, dat.bcasts, "BCASTs", 0, 5, "0=1rg, 1=1rM, 2=2rg, 3=2rM, 4=Lng, 5=LnM");
  check_each(r, dat, dat.depths, "DEPTHs", 0, 1, "hplsim simulates look-ahead depth 0 or 1");
  if (dat.swap < 0 || dat.swap > 2)
    r.fail(dat.line_of("SWAP"), "SWAP", std::to_string(dat.swap) + ": 0=bin-exch, 1=long, 2=mix");
  if (dat.swap_threshold < 0)
    r.fail(dat.line_of("swapping threshold"), "swapping threshold",
           std::to_string(dat.swap_threshold) + ": must be >= 0");

  const auto line = [&](const char* field) { return std::to_string(dat.line_of(field)); };
  dat.warnings.push_back(
      path +
      ": read, not simulated: lines 3-4 (output file and device: hplsim writes its own outputs), line " +
      line("threshold") + " (residual threshold: no numerical check is simulated), line " + line("PFACTs") +
      " (PFACTs: the base case of the panel factorization is priced alike for left, Crout and right-looking, "
      "one column kernel per panel column (traces/hpl_pfact.hpp), so the runs vary RFACT only), lines " +
      line("L1 form") + "-" + line("memory alignment") +
      " (L1 and U storage, equilibration, alignment: they change the arithmetic's layout, not the "
      "simulated kernels' shapes)");
  return dat;
}

HplDat read_hpl_dat(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the HPL.dat file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_hpl_dat(text.str(), path);
}

} // namespace hplsim::sim
