#pragma once
// One participant of the OSU executors' matching (sim/bench/osu_collectives.cpp, osu_node_flows.cpp): the
// transfers it waits for, started by whichever end of each arrives second.
#include <cstddef>
#include <vector>

#include <simgrid/s4u.hpp>

namespace hplsim::sim {

struct CommWaiter {
  simgrid::s4u::SemaphorePtr ready = simgrid::s4u::Semaphore::create(0);
  std::vector<simgrid::s4u::CommPtr> comms; ///< started so far
  int missing = 0;                          ///< posted, not started yet
  bool waiting = false;

  /// The other end started one of its missing transfers; wakes it when it waits for that last one.
  void one_started() {
    if (--missing == 0 && waiting) {
      waiting = false;
      ready->release();
    }
  }

  /// From its actor: blocks until every posted transfer has started and ended, then forgets them.
  void wait_all() {
    while (missing > 0) {
      waiting = true;
      ready->acquire(); // released by the end that starts the last missing transfer
    }
    waiting = false;
    // wait_any, not wait: both ends wait on one host-to-host comm, and with
    // SimGrid 3.32 Comm::wait then leaks sleep actions it allocates
    // (ActivityImpl::wait_for; LeakSanitizer); wait_any allocates none.
    std::vector<simgrid::s4u::CommPtr> left;
    for (const simgrid::s4u::CommPtr& c : comms)
      if (!c->test()) left.push_back(c); // an empty message may be over already
    while (!left.empty())
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(simgrid::s4u::Comm::wait_any(left)));
    comms.clear();
  }
};

} // namespace hplsim::sim
