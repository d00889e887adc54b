// Runs one body per thread of a side (thread t drives lane t), started together after a
// barrier, each pinned to its CPU when --cpus gave a list. The threads share nothing but the
// abort flag: when one fails, it raises the flag so the others stop instead of waiting out
// --timeout, and the first failure is what the caller sees.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "datapath/run_watch.h"

namespace rdmabench {

// Pins the calling thread to `cpu`. Throws Error(kUsage) naming the CPU when refused.
void pin_this_thread(int cpu);

// body(t) for t in [0, threads): on the calling thread when threads == 1, on threads of their
// own otherwise. Thread t is pinned to cpus[t % cpus.size()] when cpus is not empty.
void run_team(uint32_t threads, const std::vector<int>& cpus, const RunAbort& abort,
              const std::function<void(uint32_t)>& body);

}  // namespace rdmabench
