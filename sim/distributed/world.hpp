#pragma once
// A study split across the processes of an MPI job (`mpirun -n K hplsim run
// --trials ...`, `mpirun -n K hplsim plan ...`; docs/studies.md, "Under
// MPI"): item i of a study (a trial, a plan point) is done by rank i mod K,
// and rank 0 gathers every item's answer, in item order, and writes the files
// alone, so they are byte-identical to the single-process run.
//
// hplsim joins an MPI job only when it was built with MPI (HPLSIM_WITH_MPI,
// CMake option HPLSIM_MPI) and an MPI launcher started it; otherwise the
// world has one process and nothing here calls MPI.
//
// Why this is a library of its own, linked first: SimGrid's libsimgrid.so
// exports the whole MPI API (SMPI's MPI_Init, MPI_Gatherv, ...). The hplsim
// executable names Open MPI's library before SimGrid's, so the dynamic
// linker binds every MPI_* call to Open MPI; World checks that it did
// (MPI_Get_library_version) and refuses to run a study otherwise.
#include <cstddef>
#include <string>
#include <vector>

namespace hplsim::sim {

class World {
public:
  /// Joins the MPI job when there is one (call once, first thing in main).
  World(int& argc, char**& argv);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  /// The process's world (a world of one when none was made).
  static const World& current();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  /// Is item `i` of a study this process's to do (i mod size == rank)?
  bool owns(std::size_t i) const {
    return i % static_cast<std::size_t>(size_) == static_cast<std::size_t>(rank_);
  }

  /// Rank 0 receives every rank's `mine`, in rank order; the others receive
  /// an empty vector. Collective: every rank calls it once per study.
  std::vector<std::string> gather(const std::string& mine) const;

  /// Ends the whole job with `exit_code` (an error on any rank; MPI_Abort).
  /// Returns only in a world of one.
  void abort(int exit_code) const;

private:
  World() = default;
  int rank_ = 0, size_ = 1;
  bool joined_ = false;
};

/// Packs item answers (index, bytes) into one string and back: what a rank
/// sends to gather().
std::string pack_items(const std::vector<std::pair<std::size_t, std::string>>& items);
std::vector<std::pair<std::size_t, std::string>> unpack_items(const std::string& packed);

} // namespace hplsim::sim
