#include "host/timing_environment.h"

#include <fstream>
#include <sstream>

namespace rdmabench {

namespace {

// The value of `key=value` among the space-separated words of a command line, or "".
std::string parameter(std::string_view cmdline, std::string_view key) {
  std::istringstream words{std::string(cmdline)};
  std::string word;
  while (words >> word) {
    if (word.size() > key.size() && word.compare(0, key.size(), key) == 0 &&
        word[key.size()] == '=')
      return word.substr(key.size() + 1);
  }
  return "";
}

}  // namespace

std::string TimingEnvironment::describe() const {
  if (!deterministic()) return "real time";
  return "deterministic: QEMU " + qemu_version + " -icount shift=" + icount_shift +
         " (guest time counts instructions, 2^" + icount_shift + " ns each)";
}

TimingEnvironment parse_timing_environment(std::string_view kernel_cmdline) {
  TimingEnvironment env;
  if (parameter(kernel_cmdline, "rdmabench.timing") != "icount") return env;
  env.mode = "icount";
  env.icount_shift = parameter(kernel_cmdline, "rdmabench.icount_shift");
  env.qemu_version = parameter(kernel_cmdline, "rdmabench.qemu");
  if (env.icount_shift.empty()) env.icount_shift = "?";
  if (env.qemu_version.empty()) env.qemu_version = "?";
  return env;
}

TimingEnvironment timing_environment() {
  std::ifstream in("/proc/cmdline");
  std::string line;
  std::getline(in, line);
  return parse_timing_environment(line);
}

}  // namespace rdmabench
