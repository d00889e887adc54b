// run's option schema: every option, its group, help and default (the help is --help's text).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "runner/benchmark_suite.h"

namespace rdmabench {

// How a search point's value of a run option is set on the request `run` would build from it
// (typed, with no command line in between). Called only for a value that is not the option's
// fallback (a flag's "on"); the value is one the option's range declares.
using PointSetter = void (*)(BenchmarkMatrix& request, const std::string& value);

cxxopts::Options run_options();

// A run option's range as `rdmabench search` explores it: powers of two from `low` to `high`
// (`every`: each whole number), or for a flag off and on, or `listed` values; `fallback` what
// a run takes without it ("": no value, so the search always gives it), `start` where the
// search begins.
struct SearchedRange {
  std::string option;  // "qps"
  uint64_t low = 0, high = 0;
  std::string fallback, start;
  bool flag = false;
  bool every = false;       // each whole number, not powers of two
  bool size_units = false;  // written 64K, 1M (--sizes), not 65536
  // Values in the order a rule compares them, unordered for the search (a pair cover's
  // option): the fallback among them is a word for "not given" ("auto"), never passed on.
  std::vector<std::string> listed = {};
  PointSetter set = nullptr;
};
// Every run option with a declared range and its setter, beside their declarations: an option
// added here is searched (rdmabench search) with no edit to the search.
const std::vector<SearchedRange>& searched_ranges();

// The run options set on the path by the out-of-band bootstrap alone, and why rdma_cm does not
// honour them: given with --cm rdmacm, refused with the reason (--cm auto takes oob for them);
// a search over rdma_cm leaves them out of its space (search_dimensions.h, honoured_space).
struct OobOnlyRunOption {
  const char* option;  // "mtu"
  const char* why;
};
const std::vector<OobOnlyRunOption>& oob_only_run_options();
// Whether `option` ("mtu") is one of them.
bool is_oob_only_run_option(const std::string& option);

// The groups --help shows (not the testing-only one).
inline const std::vector<std::string> kRunHelpGroups = {
    "What to run", "Scale out and queues", "Connection", "Output", "Pass or fail (health checks)"};

}  // namespace rdmabench
