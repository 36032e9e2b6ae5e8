#include "traces/grid.hpp"

namespace hplsim::traces {

std::int64_t numroc(std::int64_t n, std::int64_t nb, int proc, int nprocs) {
  // Whole blocks are dealt round-robin from process 0; the block after the last
  // full round goes to process (full_blocks mod nprocs), possibly partial.
  const std::int64_t full_blocks = n / nb;
  const std::int64_t rounds = full_blocks / nprocs;
  const std::int64_t extra = full_blocks % nprocs;
  std::int64_t count = rounds * nb;
  if (proc < extra)
    count += nb;
  else if (proc == extra)
    count += n % nb;
  return count;
}

} // namespace hplsim::traces
