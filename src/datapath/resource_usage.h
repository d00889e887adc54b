// This thread's CPU time, context switches and page faults (what a completion strategy costs,
// and where the kernel took the thread's time: a fault that waits, say for the mm's lock while
// khugepaged collapses a range, sleeps it as a blocking call would).
#pragma once

#include <sys/resource.h>
#include <time.h>

#include <cstdint>

namespace rdmabench {

struct ResourceUsage {
  uint64_t cpu_ns = 0;
  int64_t voluntary_switches = 0;
  int64_t involuntary_switches = 0;
  int64_t page_faults = 0;  // minor and major

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
    u.page_faults = ru.ru_minflt + ru.ru_majflt;
    return u;
  }
  ResourceUsage operator-(const ResourceUsage& o) const noexcept {
    return {cpu_ns - o.cpu_ns, voluntary_switches - o.voluntary_switches,
            involuntary_switches - o.involuntary_switches, page_faults - o.page_faults};
  }
};

}  // namespace rdmabench
