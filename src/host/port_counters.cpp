#include "host/port_counters.h"

#include <array>
#include <cctype>
#include <fstream>
#include <string_view>
#include <thread>

namespace rdmabench {

namespace fs = std::filesystem;

namespace {

// Files in a counter folder that hold a setting, not a count.
constexpr std::array<std::string_view, 1> kNotCounters = {"lifespan"};

// The netdev statistics a row keeps (the others are link-layer detail).
constexpr std::array<std::string_view, 8> kNetdevStatistics = {
    "tx_bytes",   "rx_bytes",   "tx_packets", "rx_packets",
    "tx_dropped", "rx_dropped", "tx_errors",  "rx_errors"};

// The longest jiffy of a Linux kernel (HZ=100): the kernel's lifespan check counts jiffies from
// the one its last reading fell in.
constexpr std::chrono::milliseconds kCoarsestJiffy{10};

bool read_count(const fs::path& file, uint64_t& value) {
  std::ifstream in(file);
  return static_cast<bool>(in >> value);
}

std::string lower_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    out += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
  }
  return out;
}

void read_folder(const fs::path& folder, const std::string& prefix, CounterSnapshot& out) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    bool skip = false;
    for (std::string_view n : kNotCounters) skip = skip || name == n;
    uint64_t value = 0;
    const std::string key = prefix + lower_name(name);
    if (!skip && valid_counter_name(key) && read_count(entry.path(), value)) out[key] = value;
  }
}

fs::path port_folder(const fs::path& sysfs, const PortPlace& place) {
  return sysfs / "class" / "infiniband" / place.device / "ports" / std::to_string(place.port);
}

}  // namespace

PortCounters::PortCounters(PortPlace place, fs::path sysfs)
    : place_(std::move(place)), sysfs_(std::move(sysfs)) {
  uint64_t lifespan_ms = 0;
  if (read_count(port_folder(sysfs_, place_) / "hw_counters" / "lifespan", lifespan_ms))
    fresh_after_ =
        std::chrono::milliseconds(lifespan_ms) + kCoarsestJiffy + std::chrono::milliseconds(1);
}

CounterSnapshot PortCounters::read() const {
  if (fresh_after_.count() > 0) std::this_thread::sleep_for(fresh_after_);
  CounterSnapshot out;
  const fs::path port = port_folder(sysfs_, place_);
  read_folder(port / "hw_counters", "hw_", out);
  read_folder(port / "counters", "port_", out);
  if (!place_.netdev.empty()) {
    const fs::path stats = sysfs_ / "class" / "net" / place_.netdev / "statistics";
    for (std::string_view name : kNetdevStatistics) {
      uint64_t value = 0;
      if (read_count(stats / name, value)) out["netdev_" + std::string(name)] = value;
    }
  }
  return out;
}

CounterSnapshot counter_deltas(const CounterSnapshot& before, const CounterSnapshot& after) {
  CounterSnapshot out;
  for (const auto& [name, value] : after) {
    const auto it = before.find(name);
    if (it != before.end()) out[name] = value >= it->second ? value - it->second : 0;
  }
  return out;
}

}  // namespace rdmabench
