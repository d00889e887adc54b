// Reading the small text files of /sys and /proc: what rdmabench's host facts are made of.
#pragma once

#include <filesystem>
#include <string>

namespace rdmabench {

// The file's first line (a sysfs attribute's value), or "" when it is missing or unreadable.
std::string first_line(const std::filesystem::path& file);
// The whole file (/proc/meminfo, /proc/self/status), or "" when it is missing or unreadable.
std::string whole_file(const std::filesystem::path& file);

}  // namespace rdmabench
