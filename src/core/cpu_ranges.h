// The CPU list format of the kernel (sysfs local_cpulist, node cpulist, cpu/online) and of
// --cpus: "0-3,8,10-11" -> {0, 1, 2, 3, 8, 10, 11}, and back.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rdmabench {

// The CPUs of `text` in the order written, or why it is not a CPU list ("'x' is not a CPU
// number", "range '5-2' goes down", "no CPUs"). A trailing newline is allowed (sysfs ends
// its files with one).
std::variant<std::vector<int>, std::string> parse_cpu_ranges(std::string_view text);

// {0, 2, 3} -> "0,2,3"; "" when empty.
std::string cpu_list_text(const std::vector<int>& cpus);

}  // namespace rdmabench
