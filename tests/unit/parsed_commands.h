// Command lines of run, mesh and search parsed as main would hand them on, for the tests of what
// each option takes: the request built, or the usage error that refuses it.
#pragma once

#include <string>
#include <vector>

#include "cli/mesh_command.h"
#include "cli/run_request.h"
#include "cli/search_request.h"
#include "command_line.h"

namespace rdmabench::testing {

// `rdmabench run h ARGS...`'s plan.
inline RunPlan parsed_run(std::vector<std::string> args) {
  args.insert(args.begin(), {"run", "h"});
  CommandLine line(std::move(args));
  return parse_run_request(line.argc(), line.argv()).value();
}

// `rdmabench mesh ARGS...`'s job.
inline MeshRequest parsed_mesh(std::vector<std::string> args) {
  args.insert(args.begin(), "mesh");
  CommandLine line(std::move(args));
  return parse_mesh_request(line.argc(), line.argv()).value();
}

// `rdmabench search h ARGS...`'s request.
inline SearchRequest parsed_search(std::vector<std::string> args) {
  args.insert(args.begin(), {"search", "h"});
  CommandLine line(std::move(args));
  return parse_search_request(line.argc(), line.argv());
}

// The usage error one of the above gives for `args` (a failure of the test where it accepts).
template <typename Parse>
std::string refusal_of(Parse parse, const std::vector<std::string>& args) {
  return usage_refusal([&] { parse(args); });
}

}  // namespace rdmabench::testing
