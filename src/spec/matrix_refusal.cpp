#include "spec/matrix_refusal.h"

#include <algorithm>

namespace rdmabench {

namespace {

// Chains, both directions and Gb/s rates shape bw streams; expand_specs gives lat runs none of
// them, so a suite of lat alone that asks for one is refused rather than run without it.
std::string bw_only_refusal(const BenchmarkMatrix& m) {
  const bool chained = std::any_of(m.post_lists.begin(), m.post_lists.end(),
                                   [](uint32_t chain) { return chain != 1; });
  if (chained && !m.runs(Mode::kBandwidth))
    return "--post-list chains bw sends: give --mode bw or all";
  if (m.base.bidir && !m.runs(Mode::kBandwidth)) return "--bidir needs bw mode (--mode bw or all)";
  const bool in_gbps =
      std::any_of(m.rates.begin(), m.rates.end(), [](const OfferedRate& r) { return r.gbps > 0; });
  if (in_gbps && m.runs(Mode::kLatency))
    return "--rate in Gb/s paces bw streams only, and lat runs round trips: give --mode bw, or a "
           "rate in round trips per second";
  return "";
}

std::string rate_refusal(const BenchmarkMatrix& m) {
  for (const OfferedRate& r : m.rates)
    for (const uint64_t size : m.sizes)
      if (r.gbps > 0 && r.per_second_at(size) > kMaxRate)
        return "--rate " + r.gbps_text() + "gbps at " + std::to_string(size) + " B is " +
               std::to_string(r.per_second_at(size)) + " messages a second, more than " +
               std::to_string(kMaxRate) + ": give larger --sizes or a lower rate";
  return "";
}

}  // namespace

std::string matrix_refusal(const BenchmarkMatrix& matrix) {
  if (std::string why = bw_only_refusal(matrix); !why.empty()) return why;
  if (std::string why = rate_refusal(matrix); !why.empty()) return why;
  for (const TestSpec& spec : expand_specs(matrix))
    if (std::string why = spec_refusal(spec); !why.empty()) return why;
  return "";
}

}  // namespace rdmabench
