// libFuzzer target for the command line: the input, split at NUL bytes, is an argv that goes
// through the argument bounds every command gets first (cli/argument_bounds.h) and then the
// parsers of `run` and `mesh` (cxxopts, and each option's own checks), which touch neither a
// device, nor a server, nor MPI. A usage error (rdmabench's, or cxxopts') is the answer to bad
// input; any other exception, a crash or a sanitizer report is a finding. Options of over
// 4,096 bytes never reach cxxopts: its std::regex recursion crashed on 35,000. --out paths are
// checked by opening them (and removing what was not there): ./tools/test runs it in a
// scratch folder.
#include <cstddef>
#include <cstdint>
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "cli/argument_bounds.h"
#include "cli/mesh_command.h"
#include "cli/run_request.h"
#include "core/error.h"

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<std::string> args = arguments_of(data, size);
  parse_as(args, rdmabench::parse_run_request);
  parse_as(args, rdmabench::parse_mesh_request);
  return 0;
}
