// libFuzzer target for the command line: the input, split at NUL bytes, is an argv that goes
// through the argument bounds every command gets first (cli/argument_bounds.h) and then the
// parsers of `run` and `mesh` (cxxopts, and each option's own checks), which touch neither a
// device, nor a server, nor MPI. A usage error (rdmabench's, or cxxopts') is the answer to bad
// input; any other exception, a crash or a sanitizer report is a finding. Options of over
// 4,096 bytes never reach cxxopts: its std::regex recursion crashed on 35,000. --out paths are
// checked by opening them (and removing what was not there): ./tools/test runs it in a
// scratch folder. An input whose first argument is "@limits-file" is a --limits-file's text
// instead (its parts joined again), read as a run reads it for a machine type.
#include <cstddef>
#include <cstdint>
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "cli/argument_bounds.h"
#include "cli/mesh_command.h"
#include "cli/run_request.h"
#include "core/error.h"
#include "runner/machine_limits.h"

namespace {

// `input` as a command's argv (its name first, as main passes it on): one argument per
// NUL-separated part.
std::vector<std::string> arguments_of(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  args.push_back(current);
  return args;
}

template <typename Parse>
void parse_as(std::vector<std::string> args, Parse parse) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  try {
    rdmabench::check_argument_lengths(static_cast<int>(args.size()), argv.data(),
                                      rdmabench::longest_argument());
    (void)parse(static_cast<int>(args.size()), argv.data());
  } catch (const rdmabench::Error&) {
  } catch (const cxxopts::exceptions::exception&) {
  }
}

void read_limits_file(std::string_view text) {
  try {
    (void)rdmabench::machine_limits(
        rdmabench::parse_bounded_json(text, rdmabench::kLimitsFileBounds,
                                      rdmabench::ExitCode::kUsage, "fuzz"),
        "Standard_ND96asr_v4", "fuzz");
  } catch (const rdmabench::Error&) {
  }
}

constexpr std::string_view kLimitsFile = "@limits-file";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.starts_with(kLimitsFile) && size > kLimitsFile.size() &&
      input[kLimitsFile.size()] == 0) {
    read_limits_file(input.substr(kLimitsFile.size() + 1));
    return 0;
  }
  const std::vector<std::string> args = arguments_of(data, size);
  parse_as(args, rdmabench::parse_run_request);
  parse_as(args, rdmabench::parse_mesh_request);
  return 0;
}
