// What a run sweeps when its command line does not say: a profile. A bare `rdmabench run HOST`
// takes the quick one (write bw and lat at three sizes, seconds on a NIC, as perftest runs one
// test); `--profile full` (or any of --pattern, --mode, --cq, --sizes) the whole sweep.
#pragma once

#include <cstdint>
#include <cxxopts.hpp>
#include <optional>
#include <string>

#include "spec/transport.h"

namespace rdmabench {

struct WhatToRun {
  std::string profile;  // quick or full
  std::string pattern, mode, cq, sizes;
  std::optional<uint64_t> iters;     // messages per QP, unless --iters or --duration says
  bool chosen_for_the_user = false;  // a bare run: nothing of the four given, no --profile
  bool pattern_given = false;        // --pattern on the command line
};

// The profiles' names and what each runs, for --help.
std::string profile_help();

// The profile --profile names (or the bare run's), with each of --pattern, --mode, --cq and
// --sizes given on the command line taking its place (a --benchmark_filter counts as naming what
// to run). Throws Error(kUsage) for an unknown one.
WhatToRun what_to_run(const cxxopts::ParseResult& args);

// The quick profile's pattern: write, or send where the transport carries no write (ud) or the
// receives are shared (--srq: write's target takes none).
std::string quick_pattern(const Transport& transport, bool srq);

// The line a bare run prints on standard error: what it chose (`summary`, the plan's own
// words: runner/suite_preview.h) and how to get the full sweep.
std::string bare_run_note(const WhatToRun& w, const std::string& summary);

}  // namespace rdmabench
