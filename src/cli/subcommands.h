// The rdmabench subcommands: one line each, for dispatch, the top-level help and
// `rdmabench version --json` (from which the CLI reference and the man page are made).
#pragma once

#include <map>
#include <string_view>

namespace rdmabench {

using CommandFunction = int (*)(int, char**);

struct Subcommand {
  CommandFunction run;
  const char* summary;
};

// By name, in alphabetical order.
const std::map<std::string_view, Subcommand>& subcommands();

}  // namespace rdmabench
