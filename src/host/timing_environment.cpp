#include "host/timing_environment.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "host/kernel_cmdline.h"
#include "host/kernel_tuning.h"
#include "host/sysfs_file.h"

namespace rdmabench {

namespace {

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

// QEMU's -icount shift=N takes N from 0 to 10.
std::optional<int> icount_shift_of(std::string_view said) {
  if (said.size() == 1 && said[0] >= '0' && said[0] <= '9') return said[0] - '0';
  if (said == "10") return 10;
  return std::nullopt;
}

// A version as the command line says it, kept where it is a short word of letters, digits and
// . + ~ : _ - (QEMU's "7.2.22", Debian's "1:7.2+dfsg-7+deb12u18"), else "".
std::string version_word(std::string_view said) {
  constexpr size_t kMaxVersion = 64;
  const auto fits = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view(".+~:_-").find(c) != std::string_view::npos;
  };
  if (said.empty() || said.size() > kMaxVersion || !std::all_of(said.begin(), said.end(), fits))
    return "";
  return std::string(said);
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
  std::string clock = describe_clock();
  if (kernel_tuning.empty()) return clock;
  return clock + "; kernel command line: " + kernel_tuning_text(kernel_tuning);
}

std::string TimingEnvironment::describe_clock() const {
  if (!deterministic())
    return software_emulated() ? "real time, in a software-emulated guest (QEMU TCG: its "
                                 "timing is the emulator's, busy polling most of all)"
                               : "real time";
  const std::string qemu = qemu_version.empty() ? "(version unsaid)" : qemu_version;
  if (!icount_shift) return "deterministic: QEMU " + qemu + " -icount (shift unsaid)";
  const std::string shift = std::to_string(*icount_shift);
  return "deterministic: QEMU " + qemu + " -icount shift=" + shift +
         " (guest time counts instructions, 2^" + shift + " ns each)";
}

TimingEnvironment parse_timing_environment(std::string_view kernel_cmdline,
                                           std::string_view hypervisor) {
  TimingEnvironment env;
  const std::string_view said = kernel_cmdline_value(kernel_cmdline, "rdmabench.accel");
  env.acceleration = std::string(hypervisor);
  for (const std::string_view known : kAccelerations)
    if (said == known) env.acceleration = std::string(said);
  env.kernel_tuning = kernel_tuning_words(kernel_cmdline);
  if (kernel_cmdline_value(kernel_cmdline, "rdmabench.timing") != "icount") return env;
  env.mode = "icount";
  env.icount_shift =
      icount_shift_of(kernel_cmdline_value(kernel_cmdline, "rdmabench.icount_shift"));
  env.qemu_version = version_word(kernel_cmdline_value(kernel_cmdline, "rdmabench.qemu"));
  return env;
}

TimingEnvironment timing_environment() {
  return parse_timing_environment(first_line("/proc/cmdline"), cpuid_hypervisor());
}

}  // namespace rdmabench
