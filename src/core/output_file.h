// An output file named on the command line (--out), checked before any work is done, so that a
// long run never ends in "cannot write".
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace rdmabench {

// Throws Error(kUsage) naming `option`, why and what to do when `path` cannot be written (a
// folder, a folder that does not exist, one this user cannot write in). Checked as the write
// will be made (a temporary beside `path`, made and removed), so nothing at `path` is created
// or followed: a run that fails before writing leaves no empty results, and a dangling link's
// target is not made.
void check_writable(const std::string& path, const std::string& option);

// A new, empty file beside `path` for its text until it is renamed over it: PATH.XXXXXX, made
// by mkostemp (mode 0644), so that two writers of one path never share it and a file or link
// someone left at a fixed name is neither followed nor removed. Returns its name; throws
// SystemError(kRuntime) naming `option` when it cannot be made.
std::string temporary_beside(const std::string& path, const std::string& option);

// `text` into `path` whole or not at all: written to a temporary_beside() it, flushed, then
// renamed over it, so that a reader (node_exporter's textfile collector, a script) never sees
// half a file. Throws SystemError(kRuntime) naming the call that failed and `option`.
void write_file_atomically(const std::string& path, std::string_view text,
                           const std::string& option);

// A file a command writes after its work (--out, --metrics), with one rule for a write that
// fails: `text` written whole (write_file_atomically) and "<who>: wrote PATH" on `log`; when it
// cannot be, why on `log`, and kRuntime returned if `code` was 0 (the work's results stand, but
// a reader would take the file left from an earlier run for this one's); otherwise `code`.
int write_output_file(const std::string& path, std::string_view text, const std::string& option,
                      int code, std::ostream& log, std::string_view who);

}  // namespace rdmabench
