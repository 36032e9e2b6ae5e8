// sim/engine/asan_fibers.cpp under AddressSanitizer: an exception that unwinds
// frames on an actor's stack leaves no stale poisoning below the frame that
// catches it. Without the annotated swapcontext, ASan refuses to clean a stack
// it cannot place ("ASan is ignoring requested __asan_handle_no_return") and
// the unwound frames' redzones and out-of-scope marks stay behind, which this
// test sees (or ASan's own runtime reports first, as it did on the flap-abort
// tests). Outside AddressSanitizer builds there is nothing to check: skipped;
// scripts/sanitize.sh runs it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/asan_fibers.hpp"
#include "sim/engine/engine_setup.hpp"
#include "tests/sim/engine/isolated.hpp"

#if HPLSIM_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace hplsim::sim {
namespace {

namespace sg4 = simgrid::s4u;

#if HPLSIM_ASAN
struct Thrown {};

// One frame per level, each with a buffer ASan guards with redzones and marks
// out of scope when its block ends, and a string whose destructor runs on the
// unwind path: ~300 bytes of instrumented frame a level.
[[gnu::noinline]] std::size_t dive(int depth) {
  std::string kept(40, 'x');
  {
    volatile char scoped[128];
    for (auto& c : scoped)
      c = static_cast<char>(depth);
    kept[0] = scoped[depth % 128];
  }
  if (depth == 0) throw Thrown{};
  return dive(depth - 1) + kept.size();
}

// Whether the dead stack 1-3 KiB below this frame (where dive's frames were)
// carries any poisoning.
[[gnu::noinline]] bool dead_stack_below_is_clean() {
  char here = 0;
  const auto at = reinterpret_cast<std::uintptr_t>(&here);
  return __asan_region_is_poisoned(reinterpret_cast<void*>(at - 3072), 2048) == nullptr;
}
#endif

TEST(AsanFibers, AnExceptionUnwindingAnActorsFramesLeavesItsStackClean) {
#if !HPLSIM_ASAN
  GTEST_SKIP() << "checks AddressSanitizer's view of actor stacks; scripts/sanitize.sh runs it";
#else
  const std::vector<double> v = run_isolated([]() {
    auto engine = create_engine();
    auto* zone = sg4::create_full_zone("zone");
    sg4::Host* host = zone->create_host("host", 1e9);
    zone->seal();
    double clean = -1.0;
    sg4::Actor::create("thrower", host, [&clean]() {
      // 32 levels (~10 KiB of frames) unwound three times, with a context
      // switch between rounds, as the retries of a flap do before the abort.
      for (int round = 0; round < 3; ++round) {
        try {
          dive(32);
        } catch (const Thrown&) {
        }
        sg4::this_actor::sleep_for(1.0);
      }
      try {
        dive(32);
      } catch (const Thrown&) {
      }
      clean = dead_stack_below_is_clean() ? 1.0 : 0.0;
    });
    engine->run();
    return std::vector<double>{clean};
  });
  // 1.0: nothing poisoned below the catching frame (0.0: stale shadow left).
  EXPECT_EQ(v.at(0), 1.0);
#endif
}

} // namespace
} // namespace hplsim::sim
