#include "runner/suite_refusal.h"

#include <algorithm>

namespace rdmabench {

namespace {

// Chains, both directions and Gb/s rates shape bw streams; expand_specs gives lat runs none of
// them, so a suite of lat alone that asks for one is refused rather than run without it.
std::string bw_only_refusal(const SuiteOptions& so) {
  const bool chained = std::any_of(so.post_lists.begin(), so.post_lists.end(),
                                   [](uint32_t chain) { return chain != 1; });
  if (chained && !so.runs(Mode::kBandwidth))
    return "--post-list chains bw sends: give --mode bw or all";
  if (so.base.bidir && !so.runs(Mode::kBandwidth))
    return "--bidir needs bw mode (--mode bw or all)";
  const bool in_gbps = std::any_of(so.rates.begin(), so.rates.end(),
                                   [](const OfferedRate& r) { return r.gbps > 0; });
  if (in_gbps && so.runs(Mode::kLatency))
    return "--rate in Gb/s paces bw streams only, and lat runs round trips: give --mode bw, or a "
           "rate in round trips per second";
  return "";
}

std::string rate_refusal(const SuiteOptions& so) {
  for (const OfferedRate& r : so.rates)
    for (const uint64_t size : so.sizes)
      if (r.gbps > 0 && r.per_second_at(size) > kMaxRate)
        return "--rate " + r.gbps_text() + "gbps at " + std::to_string(size) + " B is " +
               std::to_string(r.per_second_at(size)) + " messages a second, more than " +
               std::to_string(kMaxRate) + ": give larger --sizes or a lower rate";
  return "";
}

}  // namespace

std::string suite_refusal(const SuiteOptions& options) {
  if (std::string why = bw_only_refusal(options); !why.empty()) return why;
  if (std::string why = rate_refusal(options); !why.empty()) return why;
  for (const TestSpec& spec : expand_specs(options))
    if (std::string why = spec_refusal(spec); !why.empty()) return why;
  return "";
}

}  // namespace rdmabench
