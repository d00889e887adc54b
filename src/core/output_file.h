// An output file named on the command line (--out), checked before any work is done, so that a
// long run never ends in "cannot write".
#pragma once

#include <string>

namespace rdmabench {

// Throws Error(kUsage) naming `option` when `path` cannot be written. A file made only for the
// check goes again, so a run that fails before writing leaves no empty results behind.
void check_writable(const std::string& path, const std::string& option);

}  // namespace rdmabench
