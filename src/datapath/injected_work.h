// Testing only: a slowdown of known size in the software path, to prove that the regression
// gate catches one (./tools/test builds it in its own build directory with
// meson -Dinject_post_work=N -Dinject_post_work_per_kib=M). In a normal build both are 0 and
// injected_post_work() compiles to nothing.
//
// Each iteration is exactly two instructions (dec, jnz), so in the deterministic guest, where
// guest time counts instructions, the added time per message is known in advance:
// 2 * (N + M * size / 1024) * 2^icount_shift ns.
#pragma once

#include <cstdint>

#ifndef RDMABENCH_INJECT_POST_WORK
#define RDMABENCH_INJECT_POST_WORK 0
#endif
#ifndef RDMABENCH_INJECT_POST_WORK_PER_KIB
#define RDMABENCH_INJECT_POST_WORK_PER_KIB 0
#endif

namespace rdmabench {

inline constexpr uint64_t kInjectedWork = RDMABENCH_INJECT_POST_WORK;
inline constexpr uint64_t kInjectedWorkPerKib = RDMABENCH_INJECT_POST_WORK_PER_KIB;

// Called once per posted message of `bytes` bytes.
inline void injected_post_work(uint64_t bytes) {
  if constexpr (kInjectedWork > 0 || kInjectedWorkPerKib > 0) {
    uint64_t n = kInjectedWork + kInjectedWorkPerKib * bytes / 1024;
    if (n == 0) return;
#if defined(__x86_64__)
    asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
    for (volatile uint64_t i = n; i > 0; i = i - 1) {
    }
#endif
  } else {
    (void)bytes;
  }
}

}  // namespace rdmabench
