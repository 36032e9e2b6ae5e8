// HPL.dat input (sim/scenario/hpl_dat.hpp): netlib HPL 2.3's sample file, and
// every kind of bad line named by its file, line and field.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "sim/scenario/hpl_dat.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {
namespace {

std::string sample_text() {
  std::ifstream in(std::string(HPLSIM_SOURCE_DIR) + "/scenarios/hpl-dat/netlib-hpl-2.3-sample.dat");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The sample with line `line` (1-based) replaced.
std::string with_line(int line, const std::string& text) {
  std::istringstream in(sample_text());
  std::string out, l;
  for (int i = 1; std::getline(in, l); ++i)
    out += (i == line ? text : l) + "\n";
  return out;
}

std::string error_of(const std::string& text) {
  try {
    parse_hpl_dat(text, "HPL.dat");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// The values are those of testing/ptest/HPL.dat of netlib HPL 2.3 (icl-utk-edu/hpl at 9edeab5).
TEST(HplDat, ReadsNetlibsSampleFile) {
  const HplDat d = parse_hpl_dat(sample_text(), "HPL.dat");
  EXPECT_EQ(d.ns, (std::vector<std::int64_t>{29, 30, 34, 35}));
  EXPECT_EQ(d.nbs, (std::vector<std::int64_t>{1, 2, 3, 4}));
  EXPECT_FALSE(d.column_major);
  EXPECT_EQ(d.ps, (std::vector<int>{2, 1, 4}));
  EXPECT_EQ(d.qs, (std::vector<int>{2, 4, 1}));
  EXPECT_DOUBLE_EQ(d.threshold, 16.0);
  EXPECT_EQ(d.pfacts, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(d.nbmins, (std::vector<int>{2, 4}));
  EXPECT_EQ(d.ndivs, (std::vector<int>{2}));
  EXPECT_EQ(d.rfacts, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(d.bcasts, (std::vector<int>{0}));
  EXPECT_EQ(d.depths, (std::vector<int>{0}));
  EXPECT_EQ(d.swap, 2);
  EXPECT_EQ(d.swap_threshold, 64);
  EXPECT_EQ(d.equil, 1);
  EXPECT_EQ(d.align, 8);
  EXPECT_EQ(d.line_of("NBMINs"), 17);
  EXPECT_EQ(d.line_of("swapping threshold"), 27);
  // The lines read but not simulated are named.
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_NE(d.warnings[0].find("line 13 (residual threshold"), std::string::npos) << d.warnings[0];
  EXPECT_NE(d.warnings[0].find("line 15 (PFACTs"), std::string::npos) << d.warnings[0];
  EXPECT_NE(d.warnings[0].find("lines 28-31"), std::string::npos) << d.warnings[0];
}

TEST(HplDat, WindowsLineEndsAndExtraLinesAreTaken) {
  std::string crlf;
  for (const char c : sample_text())
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(parse_hpl_dat(crlf + "trailing text HPL ignores\n", "HPL.dat").nbmins, (std::vector<int>{2, 4}));
}

TEST(HplDat, BadLinesAreErrorsNamingTheLine) {
  struct Case {
    int line;
    std::string text, says;
  };
  const std::vector<Case> cases = {
      {5, "x            # of problems sizes (N)",
       "HPL.dat:5: # of problems sizes (N): \"x\" is not a whole number"},
      {5, "21           # of problems sizes (N)",
       "HPL.dat:5: # of problems sizes (N): 21 is not between 1 and 20"},
      {6, "29 30 34     Ns", "HPL.dat:6: Ns: 4 values expected (line 5), 3 found before \"Ns\""},
      {6, "29 30 -3 35  Ns", "HPL.dat:6: Ns: -3: N must be >= 1"},
      {8, "1 2 3 0      NBs", "HPL.dat:8: NBs: 0: NB must be >= 1"},
      {9, "2            PMAP", "HPL.dat:9: PMAP: 2: 0 (row-major) or 1 (column-major)"},
      {12, "2 4         Qs", "HPL.dat:12: Qs: 3 values expected (the grids line), 2 found before \"Qs\""},
      {13, "abc         threshold", "HPL.dat:13: threshold: \"abc\" is not a number"},
      {15, "0 1 3        PFACTs", "HPL.dat:15: PFACTs: 3: 0=left, 1=Crout, 2=Right"},
      {17, "2 0          NBMINs", "HPL.dat:17: NBMINs: 0: NBMIN must be >= 1"},
      {19, "1            NDIVs", "HPL.dat:19: NDIVs: 1: NDIV must be >= 2"},
      {23, "6            BCASTs", "HPL.dat:23: BCASTs: 6: 0=1rg, 1=1rM"},
      {25, "2            DEPTHs", "HPL.dat:25: DEPTHs: 2: hplsim simulates look-ahead depth 0 or 1"},
      {26, "3            SWAP", "HPL.dat:26: SWAP: 3: 0=bin-exch, 1=long, 2=mix"},
      {27, "-1           swapping threshold", "HPL.dat:27: swapping threshold: -1: must be >= 0"},
      {30, "", "HPL.dat:30: Equilibration: the line is empty"},
  };
  for (const Case& c : cases) {
    const std::string e = error_of(with_line(c.line, c.text));
    EXPECT_NE(e.find(c.says), std::string::npos) << "line " << c.line << ": " << e;
  }
  // A file that stops early names the first line missing.
  const std::string text = sample_text();
  std::size_t cut = 0;
  for (int i = 0; i < 20; ++i)
    cut = text.find('\n', cut) + 1;
  EXPECT_NE(error_of(text.substr(0, cut)).find("HPL.dat:21: RFACTs: the file ends here"), std::string::npos);
}

TEST(HplDat, AMissingFileIsAnError) {
  EXPECT_THROW(read_hpl_dat("/nonexistent/HPL.dat"), InputError);
}

} // namespace
} // namespace hplsim::sim
