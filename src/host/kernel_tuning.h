// The words of a kernel command line that change how fast the host runs: idle states, isolated
// and tickless CPUs, frequency drivers, the clock source, the IOMMU, PCIe power saving,
// mitigations. A run's context records them, since a guest booted with idle=poll and one
// without differ by more than the tools being compared (siw's read latency did).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rdmabench {

inline constexpr size_t kMaxTuningWords = 16;
inline constexpr size_t kMaxTuningWordLength = 48;

// The tuning words among `cmdline`'s, in its order, as it says them ("idle=poll", "nosmt",
// "isolcpus=managed_irq,2-5"); at most kMaxTuningWords. A known key whose word is longer than
// kMaxTuningWordLength or holds a letter outside [A-Za-z0-9.,:_=/+-] is kept as "key=?".
std::vector<std::string> kernel_tuning_words(std::string_view cmdline);

// The words as a command line says them, space-separated ("" for none).
std::string kernel_tuning_text(const std::vector<std::string>& words);

// Whether `word` is one kernel_tuning_words can return: what a peer's list is checked against.
bool is_kernel_tuning_word(std::string_view word);

}  // namespace rdmabench
