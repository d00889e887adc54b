// One measured pair of a mesh as its client rank keeps it, and what a benchmark's pairs are
// judged on.
#pragma once

#include <map>
#include <string>

#include "mesh/schedule.h"

namespace rdmabench {

// One measured pair: the counters of its run (run_counters), or why it failed.
struct PairResult {
  std::string benchmark;  // TestSpec::name(), e.g. write/bw/busy/65536
  MeshPair pair;
  std::map<std::string, double> counters;
  std::string error;  // non-empty: the run failed, no counters
  int exit_code = 0;  // the failure's ExitCode
  std::string mode;   // the spec's mode, "bw" or "lat": what the pair is judged on
};

// What a benchmark is judged on, by its spec's mode: bytes_per_second for bw (higher is
// better), lat_p50_us for lat (lower is better).
struct JudgedFigure {
  std::string counter;
  bool higher_is_better = true;
};
JudgedFigure judged_figure(const std::string& mode);

}  // namespace rdmabench
