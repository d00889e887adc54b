// The one table of exit codes: every rdmabench command and every tool exits with one of these,
// and every --help, the README, the CLI reference and the man page print this table.
#pragma once

#include <span>
#include <string>

#include "core/error.h"

namespace rdmabench {

struct ExitCodeInfo {
  ExitCode code;
  const char* name;     // a stable word for scripts (rdmabench version --json)
  const char* meaning;  // what a user reads
};

// Every code, in order.
std::span<const ExitCodeInfo> exit_code_table();

// Whether `code` is one of the table's (a peer's or a file's exit code is checked with it).
bool is_exit_code(long long code);

// The table as --help prints it, under the heading "Exit status".
std::string exit_status_help();

}  // namespace rdmabench
