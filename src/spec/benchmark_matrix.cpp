#include "spec/benchmark_matrix.h"

#include <sstream>

namespace rdmabench {

std::string OfferedRate::gbps_text() const {
  std::ostringstream text;
  text << gbps;
  return text.str();
}

std::vector<TestSpec> expand_specs(const BenchmarkMatrix& matrix) {
  std::vector<TestSpec> specs;
  for (const auto& [p, sizes] : matrix.patterns)
    for (Mode m : matrix.modes)
      for (const CqChoice& c : matrix.cq_choices)
        for (uint64_t size : sizes)
          for (const OfferedRate& rate : matrix.rates)
            for (uint32_t qps : matrix.qps)
              for (uint32_t chain :
                   m == Mode::kBandwidth ? matrix.post_lists : std::vector<uint32_t>{1}) {
                TestSpec s = matrix.base;
                s.post_list = chain;
                s.pattern = p;
                s.mode = m;
                s.cq = c;
                s.size = size;
                s.rate = rate.per_qp(size, qps);
                s.qps = qps;
                s.threads = std::min(matrix.threads, qps);
                s.bidir = matrix.base.bidir && m == Mode::kBandwidth;
                if (m == Mode::kLatency && rate.gbps > 0) continue;  // refused at parse time
                specs.push_back(s);
              }
  return specs;
}

std::function<std::string(const TestSpec&)> refusal_by(const DeviceLimits& limits) {
  return [limits](const TestSpec& spec) { return spec_refusal(spec, limits); };
}

std::vector<std::string> drop_refused_patterns(
    BenchmarkMatrix& matrix, const std::function<std::string(const TestSpec&)>& refusal) {
  if (!matrix.all_patterns) return {};
  std::vector<std::string> notes;
  std::vector<std::pair<Pattern, std::vector<uint64_t>>> kept;
  for (auto& run : matrix.patterns) {
    TestSpec spec = matrix.base;
    spec.pattern = run.first;
    spec.size = run.second.front();
    const std::string why = refusal(spec);
    if (why.empty())
      kept.push_back(std::move(run));
    else
      notes.push_back(run.first.name() + " (" + why + ")");
  }
  if (kept.empty()) return {};
  matrix.patterns = std::move(kept);
  return notes;
}

std::vector<uint64_t> cut_sizes_to_mtu(BenchmarkMatrix& matrix, uint64_t mtu) {
  std::vector<uint64_t> dropped;
  for (uint64_t size : matrix.sizes)
    if (size > mtu) dropped.push_back(size);
  std::erase_if(matrix.sizes, [&](uint64_t size) { return size > mtu; });
  for (auto& [pattern, sizes] : matrix.patterns)
    std::erase_if(sizes, [&](uint64_t size) { return size > mtu; });
  std::erase_if(matrix.patterns, [](const auto& run) { return run.second.empty(); });
  return dropped;
}

}  // namespace rdmabench
