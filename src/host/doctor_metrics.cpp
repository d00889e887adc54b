#include "host/doctor_metrics.h"

#include <algorithm>
#include <map>
#include <utility>

namespace rdmabench {

namespace {

double level_value(Level level) {
  return level == Level::kFail ? 2 : level == Level::kWarn ? 1 : 0;
}

}  // namespace

std::vector<MetricFamily> doctor_metrics(const std::vector<Finding>& findings, int exit_status,
                                         const std::string& host) {
  MetricFamily exit{"rdmabench_doctor_exit_code",
                    "rdmabench doctor's exit status (0: every finding ok; 10: a warning; 11: a "
                    "failure; 3: no RDMA device)",
                    {{{{"host", host}}, static_cast<double>(exit_status)}}};
  MetricFamily level{"rdmabench_doctor_finding_level",
                     "how a check stands on a subject: 0 ok, 1 warn, 2 fail (the worst, where a "
                     "check has several findings on one subject)",
                     {}};
  MetricFamily fact{"rdmabench_doctor_fact_info",
                    "1 for each fact a mesh compares between hosts, the fact in the value label",
                    {}};
  std::map<std::pair<std::string, std::string>, size_t> at;  // (subject, check) -> sample
  for (const Finding& f : findings) {
    const auto key = std::make_pair(f.subject, f.check);
    const std::vector<MetricLabel> labels = {
        {"host", host}, {"subject", f.subject}, {"check", f.check}};
    if (auto [it, added] = at.emplace(key, level.samples.size()); !added) {
      double& v = level.samples[it->second].value;
      v = std::max(v, level_value(f.level));
      continue;
    }
    level.samples.push_back({labels, level_value(f.level)});
    if (f.compared) {
      std::vector<MetricLabel> with_value = labels;
      with_value.push_back({"value", f.value});
      fact.samples.push_back({with_value, 1});
    }
  }
  return {exit, level, fact};
}

}  // namespace rdmabench
