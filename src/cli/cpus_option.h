// --cpus of run and serve: a CPU list of this machine, "0,2-3" -> {0, 2, 3}.
#pragma once

#include <string>
#include <vector>

namespace rdmabench {

// The CPUs `text` names. Throws Error(kUsage) when malformed or beyond this machine's CPUs.
std::vector<int> parse_cpu_list(const std::string& text);

}  // namespace rdmabench
