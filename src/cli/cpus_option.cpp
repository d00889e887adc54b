#include "cli/cpus_option.h"

#include <unistd.h>

#include <variant>

#include "core/cpu_ranges.h"
#include "core/error.h"

namespace rdmabench {

std::vector<int> parse_cpu_list(const std::string& text) {
  const long online = sysconf(_SC_NPROCESSORS_CONF);
  auto bad = [&](const std::string& why) {
    return Error(ExitCode::kUsage, "--cpus '" + text + "': " + why +
                                       " (examples: 0,1 or 2-5; this machine has CPUs 0-" +
                                       std::to_string(online - 1) + ")");
  };
  auto parsed = parse_cpu_ranges(text);
  if (const auto* why = std::get_if<std::string>(&parsed)) throw bad(*why);
  auto& cpus = std::get<std::vector<int>>(parsed);
  for (const int cpu : cpus)
    if (cpu >= online) throw bad("CPU " + std::to_string(cpu) + " does not exist");
  return cpus;
}

}  // namespace rdmabench
