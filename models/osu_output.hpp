#pragma once
// Parsing OSU Micro-Benchmarks point-to-point outputs (osu_latency, osu_bw,
// osu_bibw; OMB 5.x-7.x text format):
//   # OSU MPI Latency Test v5.6.2
//   # Size          Latency (us)
//   0                       1.13
// and "# Size      Bandwidth (MB/s)" for osu_bw / osu_bibw. Other '#' lines
// are comments; extra columns after the value (OMB -f: min, max, iterations)
// are ignored. OMB's MB is 10^6 bytes. Values are returned in SI units.
#include <iosfwd>
#include <string>
#include <vector>

namespace hplsim::models {

enum class OsuKind {
  Latency,   // osu_latency: one-way latency (half the ping-pong round trip)
  Bandwidth, // osu_bw (uni-directional, windowed) or osu_bibw
};

struct OsuPoint {
  double bytes = 0.0;
  double value = 0.0; // seconds (Latency) or bytes per second (Bandwidth)
};

struct OsuTable {
  OsuKind kind = OsuKind::Latency;
  std::string title;            // the first '#' line, e.g. "OSU MPI Latency Test v5.6.2"
  std::vector<OsuPoint> points; // increasing sizes
};

/// Throws std::invalid_argument "name:line: ..." when the "# Size ..." header
/// is missing or unrecognised, a data line is not "<size> <value> ...", a size
/// is not an integer >= 0 or not increasing, or a value is not > 0.
OsuTable parse_osu_output(std::istream& in, const std::string& display_name);

/// Same from a file; std::runtime_error if it cannot be opened.
OsuTable read_osu_output(const std::string& path);

} // namespace hplsim::models
