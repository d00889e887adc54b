#include "runner/interval_report.h"

#include <condition_variable>
#include <cstdio>
#include <mutex>

namespace rdmabench {

std::string interval_line(const std::string& benchmark, double from_s, double to_s, uint64_t msgs,
                          uint64_t size) {
  const double seconds = to_s - from_s;
  const double bytes_per_s = seconds > 0 ? static_cast<double>(msgs * size) / seconds : 0;
  char line[256];
  std::snprintf(line, sizeof line, "[%6.1f-%6.1f s] %s %10llu msgs %12.2f MiB/s %10.3f Gb/s",
                from_s, to_s, benchmark.c_str(), static_cast<unsigned long long>(msgs),
                bytes_per_s / (1 << 20), bytes_per_s * 8 / 1e9);
  return line;
}

IntervalReport::IntervalReport(Emit emit, std::string benchmark, uint64_t size, LiveCounts& live,
                               std::chrono::milliseconds every, PeakInterval& peak)
    : emit_(std::move(emit)),
      benchmark_(std::move(benchmark)),
      size_(size),
      live_(live),
      every_(every),
      peak_(peak) {
  // Zero before the run begins, whenever this thread first looks: a send is never missed.
  live_.reset();
  thread_ = std::jthread([this](const std::stop_token& stop) { report(stop); });
}

void IntervalReport::report(const std::stop_token& stop) {
  std::mutex mutex;  // only for the wait: nothing else takes it
  std::condition_variable_any wake;
  const auto start = std::chrono::steady_clock::now();
  uint64_t before = 0;  // the constructor reset the counts before this thread began
  auto read_before = start;
  for (auto next = start + every_;; next += every_) {
    std::unique_lock lock(mutex);
    wake.wait_until(lock, stop, next, [] { return false; });
    if (stop.stop_requested()) return;
    const uint64_t now = live_.total();
    const auto read_at = std::chrono::steady_clock::now();
    const double to_s = std::chrono::duration<double>(next - start).count();
    const double from_s = to_s - std::chrono::duration<double>(every_).count();
    emit_(interval_line(benchmark_, from_s, to_s, now - before, size_));
    peak_.take((now - before) * size_,
               std::chrono::duration<double>(read_at - read_before).count());
    before = now;
    read_before = read_at;
  }
}

}  // namespace rdmabench
