#include "control/host_doctor.h"

#include <algorithm>

#include "bench/pattern_catalogue.h"
#include "datapath/endpoint.h"
#include "host/doctor_facts.h"
#include "spec/test_spec.h"

namespace rdmabench {

uint64_t default_run_registered_bytes() {
  uint64_t most = 0;
  TestSpec spec;
  for (const Pattern& pattern : registered_patterns())
    for (const Mode mode : {Mode::kBandwidth, Mode::kLatency})
      for (const uint64_t size : parse_sizes(kDefaultSizes)) {
        if (!pattern->sizes.accepts(size)) continue;  // a default run skips it
        spec.pattern = pattern;
        spec.mode = mode;
        spec.size = size;
        for (const Side side : {Side::kClient, Side::kServer})
          most = std::max(most, registered_bytes(spec, side));
      }
  return most;
}

std::vector<Finding> doctor_findings() {
  return run_checks(gather_doctor_facts(default_run_registered_bytes()));
}

nlohmann::json compared_findings(const std::vector<Finding>& findings, const std::string& device) {
  nlohmann::json compared = nlohmann::json::object();
  for (const Finding& f : findings) {
    if (!f.compared) continue;
    std::string key;
    if (f.subject == "host" || f.subject == device) {
      key = f.check;
    } else if (f.subject.starts_with(device + " ")) {
      key = f.subject.substr(device.size() + 1) + " " + f.check;  // "port 1 MTU"
    } else {
      continue;  // another device of this host
    }
    compared[key] = f.value;
  }
  return compared;
}

}  // namespace rdmabench
