// The progress line of `rdmabench run`: "[k/N] name" on standard error, only when that is a
// terminal, rewritten in place and cleared before a table row or a message is printed. A log
// (standard error not a terminal) gets none: it would be mixed into the table.
#pragma once

#include <string>

namespace rdmabench {

// Replaces the progress line with `text` (no newline); nothing when stderr is not a terminal.
void show_progress(const std::string& text);

// Erases the progress line, so that what follows starts on a clean line.
void clear_progress();

}  // namespace rdmabench
