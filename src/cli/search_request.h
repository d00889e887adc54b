// What `rdmabench search HOST` is asked, read from its command line before anything connects:
// its options, and the request they make (the argv fuzzer reads every command line through it).
#pragma once

#include <cxxopts.hpp>
#include <string>

#include "cli/serve_search_target.h"
#include "search/expectation_rules.h"
#include "search/search_run.h"

namespace rdmabench {

struct SearchRequest {
  ServeTargetOptions target;
  double budget_s = 1800;
  size_t points = 0;  // --points: at most this many while searching (0: the budget alone)
  std::string space;
  unsigned repetitions = 3;
  double min_effect = kDefaultMinEffect;
  SearchMethod method = SearchMethod::kGuided;
  uint32_t seed = 1;
  std::string state_file, out_file;
};

cxxopts::Options search_options();
// Parses `argv` with `options`; a usage error (exit 2) that says what was wrong.
cxxopts::ParseResult parse_search_arguments(cxxopts::Options& options, int argc, char** argv);
// What every search checks of its arguments before it reads them: no option given twice, none
// it does not take (each a usage error).
void check_search_arguments(const cxxopts::Options& options, const cxxopts::ParseResult& args);
// The request the parsed options make, each value checked; a usage error otherwise.
SearchRequest search_request_of(const cxxopts::ParseResult& args);
// All of it, as search does before it connects: parsed, no option unknown, the space's
// restriction read, the request checked.
SearchRequest parse_search_request(int argc, char** argv);

}  // namespace rdmabench
