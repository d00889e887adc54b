#include "core/clock.h"

#include <time.h>

#include "core/error.h"

namespace rdmabench {

ClockCheck verify_clock() {
  ClockCheck check;
  timespec res{};
  clock_getres(CLOCK_MONOTONIC, &res);
  check.resolution_ns = res.tv_sec * 1'000'000'000LL + res.tv_nsec;
  // A thousand reads: where the kernel cannot read the clock in user space (a guest on an
  // emulated HPET) each is a system call, and 100,000 made 0.25-0.41 s of every client's start
  // (a run of 100 round trips in the deterministic guest: 1.74-2.12 s, now 1.38-1.75 s).
  constexpr int kReads = 1000;
  uint64_t prev = now_ns();
  for (int i = 0; i < kReads; ++i) {
    const uint64_t t = now_ns();
    if (t < prev) check.monotonic = false;
    prev = t;
  }
  if (!check.monotonic) throw Error(ExitCode::kInternal, "CLOCK_MONOTONIC stepped backwards");
  if (check.resolution_ns > 1000)
    throw Error(ExitCode::kInternal, "CLOCK_MONOTONIC resolution is " +
                                         std::to_string(check.resolution_ns) + " ns (> 1 us)");
  return check;
}

}  // namespace rdmabench
