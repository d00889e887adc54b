// Looking a metric family and a sample's label up in what a translator made
// (runner/run_metrics.h, mesh/mesh_metrics.h, host/doctor_metrics.h), for their tests.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "core/openmetrics.h"

namespace rdmabench::testing {

// The family named `name`, or nullptr.
inline const MetricFamily* find_family(const std::vector<MetricFamily>& all,
                                       const std::string& name) {
  for (const MetricFamily& f : all)
    if (f.name == name) return &f;
  return nullptr;
}

// The family named `name`; throws when there is none.
inline const MetricFamily& family_named(const std::vector<MetricFamily>& all,
                                        const std::string& name) {
  if (const MetricFamily* f = find_family(all, name)) return *f;
  throw std::runtime_error("no metric family " + name);
}

// The value of the sample's label `name`, or "<absent>".
inline std::string label_value(const MetricSample& s, const std::string& name) {
  for (const MetricLabel& l : s.labels)
    if (l.name == name) return l.value;
  return "<absent>";
}

}  // namespace rdmabench::testing
