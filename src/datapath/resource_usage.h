// This thread's CPU time and context switches (what a completion strategy costs).
#pragma once

#include <sys/resource.h>
#include <time.h>

#include <cstdint>

namespace rdmabench {

struct ResourceUsage {
  uint64_t cpu_ns = 0;
  int64_t voluntary_switches = 0;
  int64_t involuntary_switches = 0;

  static ResourceUsage now() noexcept {
    ResourceUsage u;
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    u.cpu_ns =
        static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
    rusage ru{};
    getrusage(RUSAGE_THREAD, &ru);
    u.voluntary_switches = ru.ru_nvcsw;
    u.involuntary_switches = ru.ru_nivcsw;
    return u;
  }
  ResourceUsage operator-(const ResourceUsage& o) const noexcept {
    return {cpu_ns - o.cpu_ns, voluntary_switches - o.voluntary_switches,
            involuntary_switches - o.involuntary_switches};
  }
};

}  // namespace rdmabench
