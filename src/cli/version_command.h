#pragma once

namespace rdmabench {

// rdmabench version [--json]: the program's version; with --json also the control protocol,
// the schemas, and what is registered (patterns and CQ strategies), for scripts and tests.
int run_version_command(int argc, char** argv);

}  // namespace rdmabench
