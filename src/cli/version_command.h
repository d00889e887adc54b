#pragma once

namespace rdmabench {

// rdmabench version [--json]: the program's version; with --json also the control protocol,
// the schemas, what is registered (patterns, CQ strategies) and the counter catalogue.
int run_version_command(int argc, char** argv);

}  // namespace rdmabench
