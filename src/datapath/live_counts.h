// What a running side has sent so far, per thread, for a report while the run goes on
// (`run --report-every`), read by another thread. Each lane thread keeps its own slot (a cache
// line each, so the threads never share one) and stores its running count of completed sends
// after each batch of completions with a relaxed atomic store: on x86-64 a plain store, with no
// lock, fence, allocation or call. The reader sums relaxed loads.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace rdmabench {

class LiveCounts {
 public:
  explicit LiveCounts(uint32_t threads) : slots_(threads) {}
  std::atomic<uint64_t>& slot(uint32_t thread) { return slots_.at(thread).sends; }
  // Every thread's count (a moment's snapshot; each slot only grows within a run).
  uint64_t total() const {
    uint64_t sum = 0;
    for (const Slot& s : slots_) sum += s.sends.load(std::memory_order_relaxed);
    return sum;
  }
  // Before a run starts (no lane thread is running then; IntervalReport does it).
  void reset() {
    for (Slot& s : slots_) s.sends.store(0, std::memory_order_relaxed);
  }

 private:
  struct alignas(64) Slot {
    std::atomic<uint64_t> sends{0};
  };
  std::vector<Slot> slots_;
};

}  // namespace rdmabench
