// Reading the small text files of /sys and /proc: what rdmabench's host facts are made of.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace rdmabench {

// The most either reads of a file: a sysfs attribute is at most a page, and the /proc files
// read whole (meminfo, a process's status) are under 2 KiB; a file that is neither (a fake
// tree, a FUSE mount) is read no further.
inline constexpr std::size_t kMaxSysfsLine = 4096;
inline constexpr std::size_t kMaxProcFile = 64 * 1024;

// The file's first line (a sysfs attribute's value) up to kMaxSysfsLine bytes, or "" when it is
// missing or unreadable.
std::string first_line(const std::filesystem::path& file);
// The file (/proc/meminfo, /proc/self/status) up to kMaxProcFile bytes, or "" when it is
// missing or unreadable.
std::string whole_file(const std::filesystem::path& file);

}  // namespace rdmabench
