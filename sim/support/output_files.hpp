#pragma once
// Writing outputs: the one place that opens an output file. An output
// directory is checked before any simulation starts (prepare_output_dir), and
// every file is written to a temporary name beside it and renamed into place
// once complete, so a reader never sees half a file and a failed write leaves
// the previous file untouched. Every failure is an OutputError naming the path.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace hplsim::sim {

/// Creates `dir` (and its parents) if needed and checks that a file can be
/// created in it. Throws OutputError naming the directory and the reason.
/// An earlier run's outputs in it (the files hplsim's verbs write) are
/// removed, so that none reads as the new run's, and a note on stderr names
/// them; any other entry is left and a warning names it. Returns the names
/// removed.
std::vector<std::string> prepare_output_dir(const std::string& dir);

/// Writes `path` through `write` (which fills the stream) atomically: the bytes
/// go to "<path>.tmp-<pid>" first, which is renamed to `path` once flushed and
/// closed. Throws OutputError (the temporary is removed) when the file cannot
/// be created, written or renamed.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

/// Checks that `path` could be written (its directory exists and takes a new
/// file), without creating `path`. Throws OutputError.
void check_output_file(const std::string& path);

} // namespace hplsim::sim
