// What --pattern all leaves out, said once per reason: the notes run prints on standard error.
#pragma once

#include <string>
#include <vector>

#include "spec/pattern_info.h"

namespace rdmabench {

// One note per pattern that runs at none of the sizes: "fetch_add at 2, 4096 B (atomics work
// on 8-byte operands)", and one for all the patterns a transport cannot run: "read, fetch_add,
// compare_swap (needs a reliable connected transport, not uc)". A pattern that runs at some of
// the sizes says nothing: its rows show which (the atomics run at 8 B of the default 2:8M, and
// a note on every plain run would be noise).
std::vector<std::string> skip_notes(const PatternSizes& expanded);

}  // namespace rdmabench
