#include "sim/oracle/kernel_totals.hpp"

#include <ostream>

#include "sim/support/output_files.hpp"

namespace hplsim::sim {

void write_kernel_totals(const std::vector<RankKernelTotals>& totals, const std::string& path) {
  write_file_atomically(path, [&](std::ostream& out) {
    out.precision(9);
    out << "{\n  \"kernel_seconds\": [\n";
    for (std::size_t r = 0; r < totals.size(); ++r) {
      out << "    {\"rank\": " << r;
      for (int p = 0; p < traces::Phase_ARRAYSIZE; ++p)
        out << ", \"" << traces::Phase_Name(static_cast<traces::Phase>(p)) << "\": [" << totals[r][p].calls
            << ", " << totals[r][p].seconds << "]";
      out << "}" << (r + 1 < totals.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
  });
}

} // namespace hplsim::sim
