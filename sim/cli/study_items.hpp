#pragma once
// A study's items (plan points, sweep points) run where they belong: this
// process's share of them (all of them, or item i mod size == rank under MPI:
// sim/distributed/world.hpp), each in a process of its own (one SimGrid engine
// per process), `workers` at a time; rank 0 then gathers every rank's answers.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hplsim::sim {

/// On rank 0: every item's answer, in item order. Elsewhere: nullopt (the
/// rank has sent its answers and has nothing more to do). `done(i)` is called
/// as each of this rank's items finishes. With `cost`, a rank starts its
/// dearest items first (longest processing time first: the last item to
/// finish is then a cheap one, and fewer CPUs idle at the end); the answers
/// do not depend on it.
std::optional<std::vector<std::string>> run_study_items(std::size_t count, int workers,
                                                        const std::function<std::string(std::size_t)>& work,
                                                        const std::function<void(std::size_t)>& done,
                                                        const std::function<double(std::size_t)>& cost = {});

} // namespace hplsim::sim
