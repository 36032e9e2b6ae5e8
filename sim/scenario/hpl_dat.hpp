#pragma once
// HPL's own input file, HPL.dat, in the format netlib HPL 2.3 reads
// (testing/ptest/HPL_pdinfo.c of icl-utk-edu/hpl at 9edeab5, the HPL 2.3
// repository; its sample file testing/ptest/HPL.dat): 31 lines, each read
// from its first whitespace-separated token(s), the rest of a line free text.
//
//   1-2  title lines               ignored
//   3-4  output file, device       ignored (hplsim writes its own outputs)
//   5-6  # of Ns, Ns               7-8   # of NBs, NBs
//   9    PMAP (0 row-, 1 column-major)
//   10-12 # of grids, Ps, Qs       13    residual threshold (ignored)
//   14-15 # of PFACTs, PFACTs      16-17 # of NBMINs, NBMINs
//   18-19 # of NDIVs, NDIVs        20-21 # of RFACTs, RFACTs
//   22-23 # of BCASTs, BCASTs      24-25 # of DEPTHs, DEPTHs
//   26   SWAP                      27    swapping threshold
//   28-31 L1 form, U form, equilibration, alignment (ignored)
//
// A line listing several values makes several runs, as HPL makes them. A
// count must be 1..20 (HPL_MAX_PARAM, include/hpl_ptest.h); a
// value HPL would reject, or one hplsim cannot simulate, is an error naming
// the file, the line and the field.
#include <cstdint>
#include <string>
#include <vector>

namespace hplsim::sim {

/// The values of one HPL.dat, in HPL's codes, each list in the file's order.
struct HplDat {
  std::string path;
  std::vector<std::int64_t> ns, nbs;
  bool column_major = false; ///< PMAP 1
  std::vector<int> ps, qs;   ///< grid i is ps[i] x qs[i]
  double threshold = 16.0;
  std::vector<int> pfacts, nbmins, ndivs, rfacts, bcasts, depths; ///< HPL's codes
  int swap = 2;
  int swap_threshold = 64;
  int l1_notran = 0, u_notran = 0, equil = 1, align = 8;
  /// The line each field was read from (1-based), for messages: "Ns", "NBs",
  /// "PMAP", "Ps", "Qs", "PFACTs", "NBMINs", "NDIVs", "RFACTs", "BCASTs",
  /// "DEPTHs", "SWAP", "swapping threshold".
  int line_of(const std::string& field) const;
  std::vector<std::pair<std::string, int>> lines;
  /// What hplsim reads but does not simulate, one sentence per line concerned.
  std::vector<std::string> warnings;

  /// "FILE:LINE: FIELD" for an error message about a field.
  std::string where(const std::string& field) const;
};

/// Parses the text of an HPL.dat; `path` names it in messages. Throws
/// InputError ("HPL.dat:17: NBMINs: ...").
HplDat parse_hpl_dat(const std::string& text, const std::string& path);

/// Reads and parses a file (InputError when it cannot be read).
HplDat read_hpl_dat(const std::string& path);

} // namespace hplsim::sim
