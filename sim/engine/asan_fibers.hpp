#pragma once
// AddressSanitizer builds only (scripts/sanitize.sh): tells ASan which stack
// each SimGrid actor runs on.
//
// Debian's SimGrid is built without ASan's fiber annotations, so when an actor
// runs, ASan still believes the thread is on the main stack. A C++ exception on
// an actor's stack (a run's abort, the kill of every rank) then cannot be
// cleaned up after: before each throw and each resumed unwind ASan clears the
// shadow of the stack it believes in, finds a range of terabytes between the
// main stack's top and the actor's stack, refuses ("ASan is ignoring requested
// __asan_handle_no_return") and leaves the unwound frames' poisoning in place.
// The next unwind then reports a stack-use-after-scope inside ASan's own
// runtime (google/sanitizers#189). docs/hardening.md has the report and the fix.
//
// The fix is what SimGrid does when it is built with ASan: announce every
// context switch with __sanitizer_start_switch_fiber / _finish_switch_fiber.
// This file interposes swapcontext (the call SimGrid's ucontext factory makes
// for every switch, engine_setup.cpp) and annotates it.

// 1 in AddressSanitizer builds (gcc defines __SANITIZE_ADDRESS__ under
// -fsanitize=address; clang 14 only answers __has_feature), else 0.
#if defined(__SANITIZE_ADDRESS__)
#define HPLSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HPLSIM_ASAN 1
#endif
#endif
#ifndef HPLSIM_ASAN
#define HPLSIM_ASAN 0
#endif

namespace hplsim::sim {

/// Links the annotated swapcontext into the program and records the main
/// stack's bounds; call once before the first simulation (create_engine does).
/// A no-op outside AddressSanitizer builds.
void annotate_actor_stacks_for_asan();

} // namespace hplsim::sim
