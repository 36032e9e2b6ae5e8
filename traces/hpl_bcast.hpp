#pragma once
// The six panel broadcasts of HPL 2.3 along a process row (src/comm/HPL_1ring.c,
// HPL_1rinM.c, HPL_2ring.c, HPL_2rinM.c, HPL_blong.c, HPL_blonM.c), as the
// messages one member sends and receives. Members are process columns; the
// root is the column that factored the panel.
#include <cstdint>

#include "traces/comm_pattern.hpp"
#include "traces/hpl_config.hpp"

namespace hplsim::traces {

/// Doubles of the broadcast panel (PANEL->len in src/panel/HPL_pdpanel_init.c
/// when Q > 1): the local part of L below the diagonal block (ml2 x jb), the
/// jb x jb block L1, the jb pivots (DPIV) and one word of DINFO.
/// ml2 = local rows of the process row below the panel's diagonal block.
inline std::int64_t panel_length_doubles(std::int64_t ml2, std::int64_t jb) {
  return ml2 * jb + jb * jb + jb + 1;
}

/// Ring broadcasts are progressed by probing (MPI_Iprobe then MPI_Recv and a
/// forwarding MPI_Send) between chunks of the trailing update; the blong
/// variants run to completion in their first call (their probe is compiled out:
/// `#if 0` in HPL_blong.c / HPL_blonM.c).
bool bcast_is_probed(HplConfig::Bcast variant);

/// The messages member `me` of a row of `size` members exchanges to broadcast
/// `len_doubles` doubles from member `root`, in program order. For the probed
/// variants a non-root member's pattern starts with its one Recv, followed by
/// its forwarding Sends. Empty for size <= 1.
void bcast_pattern(HplConfig::Bcast variant, int me, int root, int size, std::int64_t len_doubles,
                   Pattern& out);

/// The same for a buffer of `count` elements of `element_bytes` each (the blong
/// variants cut it in chunks of whole elements, as MPI counts do).
void bcast_pattern(HplConfig::Bcast variant, int me, int root, int size, std::int64_t count,
                   std::int64_t element_bytes, Pattern& out);

} // namespace hplsim::traces
