#include "sim/engine/asan_fibers.hpp"

#if HPLSIM_ASAN
#include <cstddef>
#include <cstdint>
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#include <ucontext.h>

// ASan's own swapcontext (it clears the shadow of the stack switched to, then
// calls libc's). libasan defines `swapcontext` as a weak alias of it, so the
// strong definition below is the one SimGrid's calls bind to.
extern "C" int __interceptor_swapcontext(ucontext_t* from, const ucontext_t* to);

namespace {

// The main thread's stack, where SimGrid's maestro runs.
const char* main_bottom = nullptr;
std::size_t main_size_bytes = 0;
// The maestro's context: the one switched away from while on the main stack.
const ucontext_t* maestro = nullptr;
// A switch was started and not yet finished: true while a new actor runs its
// first stretch (it starts in SimGrid's trampoline, not in the call below).
bool switching = false;

// The first switch is always the maestro's, on the main thread.
void record_main_stack() {
  if (main_bottom != nullptr) return;
  pthread_attr_t attr;
  void* bottom = nullptr;
  std::size_t size_bytes = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &bottom, &size_bytes);
    pthread_attr_destroy(&attr);
  }
  main_bottom = static_cast<const char*>(bottom);
  main_size_bytes = size_bytes;
}

bool on_main_stack() {
  const char here = 0;
  const char* sp = &here;
  return sp >= main_bottom && sp < main_bottom + main_size_bytes;
}

} // namespace

extern "C" int swapcontext(ucontext_t* from, const ucontext_t* to) {
  if (switching) { // the end of a new actor's first stretch: finish its switch
    __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
    switching = false;
  }
  record_main_stack();
  if (on_main_stack()) maestro = from;
  // An actor's stack is the one SimGrid gave makecontext; the maestro's
  // ucontext has none (it was only ever saved into).
  const void* bottom = to == maestro ? main_bottom : to->uc_stack.ss_sp;
  const std::size_t size_bytes = to == maestro ? main_size_bytes : to->uc_stack.ss_size;
  // nullptr: no fake stack to keep (scripts/sanitize.sh runs with
  // detect_stack_use_after_return=0).
  __sanitizer_start_switch_fiber(nullptr, bottom, size_bytes);
  switching = true;
  const int status = __interceptor_swapcontext(from, to);
  // Back on `from`'s stack: some context switched to it.
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
  switching = false;
  return status;
}

namespace hplsim::sim {

void annotate_actor_stacks_for_asan() {
  record_main_stack();
}

} // namespace hplsim::sim

#else

namespace hplsim::sim {

void annotate_actor_stacks_for_asan() {}

} // namespace hplsim::sim

#endif
