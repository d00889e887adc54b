#include "host/timing_environment.h"

#include <array>
#include <cstring>
#include <fstream>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

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

// What CPUID says runs this host: "none" without the hypervisor bit, else hypervisor_of its
// signature ("none" on a CPU without CPUID).
std::string cpuid_hypervisor() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0 || (ecx & (1u << 31)) == 0) return "none";
  __cpuid(0x40000000, eax, ebx, ecx, edx);
  std::array<char, 12> signature{};
  std::memcpy(signature.data(), &ebx, 4);
  std::memcpy(signature.data() + 4, &ecx, 4);
  std::memcpy(signature.data() + 8, &edx, 4);
  return hypervisor_of({signature.data(), signature.size()});
#else
  return "none";
#endif
}

constexpr std::array<std::string_view, 8> kAccelerations = {"none",   "kvm",    "tcg", "tcg-icount",
                                                            "hyperv", "vmware", "xen", "other"};

}  // namespace

std::string hypervisor_of(std::string_view signature) {
  constexpr std::pair<std::string_view, std::string_view> kKnown[] = {{"KVMKVMKVM", "kvm"},
                                                                      {"TCGTCGTCGTCG", "tcg"},
                                                                      {"Microsoft Hv", "hyperv"},
                                                                      {"VMwareVMware", "vmware"},
                                                                      {"XenVMMXenVMM", "xen"}};
  for (const auto& [prefix, name] : kKnown)
    if (signature.starts_with(prefix)) return std::string(name);
  return "other";
}

std::string TimingEnvironment::describe() const {
  if (!deterministic())
    return software_emulated() ? "real time, in a software-emulated guest (QEMU TCG: its "
                                 "timing is the emulator's, busy polling most of all)"
                               : "real time";
  return "deterministic: QEMU " + qemu_version + " -icount shift=" + icount_shift +
         " (guest time counts instructions, 2^" + icount_shift + " ns each)";
}

TimingEnvironment parse_timing_environment(std::string_view kernel_cmdline,
                                           std::string_view hypervisor) {
  TimingEnvironment env;
  const std::string said = parameter(kernel_cmdline, "rdmabench.accel");
  env.acceleration = std::string(hypervisor);
  for (const std::string_view known : kAccelerations)
    if (said == known) env.acceleration = said;
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
  return parse_timing_environment(line, cpuid_hypervisor());
}

}  // namespace rdmabench
