// Sizes as messages show them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>

namespace rdmabench {

// "72 MiB": whole mebibytes, rounded up (a limit's message never shows less than was asked).
inline std::string mib_text(uint64_t bytes) {
  return std::to_string((bytes + (uint64_t{1} << 20) - 1) >> 20) + " MiB";
}

// The binary units sizes are shown in, each 1024 of the one before.
inline constexpr const char* kByteUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};

// "2 B", "4 KiB", "8 MiB", "3 GiB": the largest binary unit in which the size is whole (1500 is
// "1500 B"), as --sizes takes it back (4K, 8M).
inline std::string size_text(uint64_t bytes) {
  size_t unit = 0;
  while (bytes != 0 && bytes % 1024 == 0 && unit + 1 < std::size(kByteUnits)) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + " " + kByteUnits[unit];
}

// An estimate's size, to three significant digits in the largest binary unit under it:
// "3.91 KiB", "62.5 MiB", "2.2 GiB".
inline std::string estimate_size_text(uint64_t bytes) {
  auto value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kByteUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g %s", value, kByteUnits[unit]);
  return text;
}

// The link an estimate gives a payload's time at (the dry runs' "83.6 ms at 100 Gb/s").
inline constexpr int kEstimateLinkGbps = 100;
inline double seconds_at_estimate_link(uint64_t bytes) {
  return static_cast<double>(bytes) * 8 / (kEstimateLinkGbps * 1e9);
}

}  // namespace rdmabench
