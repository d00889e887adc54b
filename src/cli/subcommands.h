// The rdmabench subcommands: one line each, for dispatch, the top-level help and
// `rdmabench version --json` (from which the CLI reference and the man page are made).
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace rdmabench {

using CommandFunction = int (*)(int, char**);

struct Subcommand {
  CommandFunction run;
  const char* summary;
};

// By name, in alphabetical order.
const std::map<std::string_view, Subcommand>& subcommands();

// What to write instead of `word`, which names no command: the nearest command, `run` for a
// word that looks like a host, --version for -V; "" when nothing is close.
std::string unknown_command_advice(std::string_view word);

}  // namespace rdmabench
