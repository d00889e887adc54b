#include "host/kernel_tuning.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/comma_list.h"
#include "host/kernel_cmdline.h"

namespace rdmabench {

namespace {

// Keys as the kernel's parameters documentation spells them (a word "key" or "key=value").
constexpr std::array<std::string_view, 33> kTuningKeys = {"idle",
                                                          "cpuidle.off",
                                                          "cpuidle.governor",
                                                          "intel_idle.max_cstate",
                                                          "processor.max_cstate",
                                                          "intel_pstate",
                                                          "amd_pstate",
                                                          "cpufreq.default_governor",
                                                          "isolcpus",
                                                          "nohz",
                                                          "nohz_full",
                                                          "rcu_nocbs",
                                                          "rcu_nocb_poll",
                                                          "irqaffinity",
                                                          "threadirqs",
                                                          "skew_tick",
                                                          "nosmt",
                                                          "mitigations",
                                                          "clocksource",
                                                          "tsc",
                                                          "nowatchdog",
                                                          "nmi_watchdog",
                                                          "nosoftlockup",
                                                          "preempt",
                                                          "iommu",
                                                          "intel_iommu",
                                                          "amd_iommu",
                                                          "iommu.passthrough",
                                                          "iommu.strict",
                                                          "pcie_aspm",
                                                          "transparent_hugepage",
                                                          "default_hugepagesz",
                                                          "hugepages"};

bool fits(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
         std::string_view(".,:_=/+-").find(c) != std::string_view::npos;
}

std::string_view key_of(std::string_view word) {
  return word.substr(0, word.find('='));
}

bool known_key(std::string_view key) {
  return std::find(kTuningKeys.begin(), kTuningKeys.end(), key) != kTuningKeys.end();
}

bool printable_word(std::string_view word) {
  return !word.empty() && word.size() <= kMaxTuningWordLength &&
         std::all_of(word.begin(), word.end(), fits);
}

}  // namespace

std::vector<std::string> kernel_tuning_words(std::string_view cmdline) {
  std::vector<std::string> out;
  for (const std::string_view word : kernel_cmdline_words(cmdline)) {
    if (out.size() == kMaxTuningWords) break;
    const std::string_view key = key_of(word);
    if (!known_key(key)) continue;
    out.emplace_back(printable_word(word) ? word : std::string(key) + "=?");
  }
  return out;
}

std::string kernel_tuning_text(const std::vector<std::string>& words) {
  return join_comma_list(
      words, [](const std::string& word) { return word; }, " ");
}

bool is_kernel_tuning_word(std::string_view word) {
  const std::string_view key = key_of(word);
  if (!known_key(key)) return false;
  return printable_word(word) || word.substr(key.size()) == "=?";
}

}  // namespace rdmabench
