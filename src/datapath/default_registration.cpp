#include "datapath/default_registration.h"

#include <algorithm>

#include "bench/pattern_catalogue.h"
#include "datapath/endpoint.h"
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

}  // namespace rdmabench
