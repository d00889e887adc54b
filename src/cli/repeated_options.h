// An option that takes one value, given twice: cxxopts keeps the last without a word
// (`--pattern write --pattern send` ran send alone, `--port` twice took the second), so every
// command refuses it, naming both values, before anything else is done with them.
#pragma once

#include <cxxopts.hpp>

namespace rdmabench {

// Throws Error(kUsage) for the first option of `options` that takes a value and was given more
// than once in `args`. A switch (--json, --once) given twice means what it meant once, and passes.
void refuse_repeated_options(const cxxopts::Options& options, const cxxopts::ParseResult& args);

}  // namespace rdmabench
