// run --report-every S: while a bw benchmark's timed run goes on, a line every S seconds with
// what the client sent in that interval (iperf3's -i, perftest's --run_infinitely). A thread of
// its own reads the lanes' live counts (datapath/live_counts.h), so the data path only stores
// a number; the lines go to standard error, never into the table.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "datapath/live_counts.h"

namespace rdmabench {

// "[  2.0-  3.0 s] write/bw/busy/65536   1234 msgs   77.12 MiB/s   0.647 Gb/s"
std::string interval_line(const std::string& benchmark, double from_s, double to_s, uint64_t msgs,
                          uint64_t size);

// The best interval a report saw (perftest's BW peak): its payload bytes over the time that
// interval really took (the reporter's wake-up may come late), written by the reporter's
// thread and read once the report is destroyed (its thread joined).
struct PeakInterval {
  std::optional<double> bytes_per_second;  // none: no interval ended
  void take(uint64_t bytes, double seconds) noexcept {
    if (seconds <= 0) return;
    const double rate = static_cast<double>(bytes) / seconds;
    if (!bytes_per_second || rate > *bytes_per_second) bytes_per_second = rate;
  }
};

class IntervalReport {
 public:
  // Where a line goes (from the reporter's own thread).
  using Emit = std::function<void(const std::string& line)>;
  // Resets `live` (call it before the run starts) and reports it every `every` until
  // destroyed, which stops the thread at once; the best interval goes into `peak`.
  IntervalReport(Emit emit, std::string benchmark, uint64_t size, LiveCounts& live,
                 std::chrono::milliseconds every, PeakInterval& peak);
  IntervalReport(const IntervalReport&) = delete;
  IntervalReport& operator=(const IntervalReport&) = delete;

 private:
  void report(const std::stop_token& stop);

  Emit emit_;
  std::string benchmark_;
  uint64_t size_;
  LiveCounts& live_;
  std::chrono::milliseconds every_;
  PeakInterval& peak_;
  std::jthread thread_;  // last: destroyed (stopped and joined) before what it reads
};

}  // namespace rdmabench
