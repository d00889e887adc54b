// An output file named on the command line (--out), checked before any work is done, so that a
// long run never ends in "cannot write".
#pragma once

#include <string>
#include <string_view>

namespace rdmabench {

// Throws Error(kUsage) naming `option` when `path` cannot be written. A file made only for the
// check goes again, so a run that fails before writing leaves no empty results behind.
void check_writable(const std::string& path, const std::string& option);

// `text` into `path` whole or not at all: written to PATH.tmp beside it, flushed, then renamed
// over it, so that a reader (node_exporter's textfile collector, a script) never sees half a
// file. Throws SystemError(kRuntime) naming the call that failed and `option`.
void write_file_atomically(const std::string& path, std::string_view text,
                           const std::string& option);

}  // namespace rdmabench
