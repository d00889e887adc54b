#include "cli/subcommands.h"

#include <vector>

#include "cli/devices_command.h"
#include "cli/doctor_command.h"
#include "cli/mesh_command.h"
#include "cli/nearest_name.h"
#include "cli/run_command.h"
#include "cli/search_command.h"
#include "cli/serve_command.h"
#include "cli/study_command.h"
#include "cli/version_command.h"

namespace rdmabench {

const std::map<std::string_view, Subcommand>& subcommands() {
  static const std::map<std::string_view, Subcommand> table = {
      {"devices", {run_devices_command, "list RDMA devices, ports and GIDs"}},
      {"doctor",
       {run_doctor_command,
        "pre-flight check of this host: ports, PCIe, NUMA, governor, GIDs, memlock"}},
      {"serve", {run_serve_command, "serve benchmarks to clients (one at a time)"}},
      {"run", {run_run_command, "run benchmarks against a server, write JSON"}},
      {"study",
       {run_study_command, "a preset sweep: polling (CQ strategies x loads, with repetitions)"}},
      {"search",
       {run_search_command,
        "hunt for performance anomalies over the registered space against a server"}},
      {"mesh",
       {run_mesh_command,
        "all-pairs fabric check, one rank per host under mpirun or srun; names slow hosts"}},
      {"version",
       {run_version_command,
        "the version; --json: protocol, schemas, registered patterns and CQ strategies"}},
  };
  return table;
}

std::string unknown_command_advice(std::string_view word) {
  if (word == "-V" || word == "-v" || word == "--ver") return "did you mean rdmabench --version?";
  const bool host_like =
      word == "localhost" ||
      (!word.starts_with("-") && word.find_first_of(".:") != std::string_view::npos);
  if (host_like)
    return "to measure against that host: rdmabench run " + std::string(word) +
           " (a server there: rdmabench serve)";
  std::vector<std::string> names;
  for (const auto& entry : subcommands()) names.emplace_back(entry.first);
  const std::string nearest = nearest_name(word, names);
  return nearest.empty() ? "" : "did you mean rdmabench " + nearest + "?";
}

}  // namespace rdmabench
