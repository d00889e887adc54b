// The registered patterns as the layers above them use them: found by name, listed for --help
// and the reports, and made for a run. The list itself is bench/pattern_registry.h.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spec/pattern_info.h"

namespace rdmabench {

class TransportPattern;

// Every registered pattern, in registration order (bench/pattern_list.cpp).
const std::vector<Pattern>& registered_patterns();
std::optional<Pattern> parse_pattern(const std::string& name);
// "send, write, write_imm, read" (the registered names).
std::string pattern_names();
// The implementation of a registered pattern (bench/pattern_registry.cpp).
std::unique_ptr<TransportPattern> make_pattern(Pattern pattern);

}  // namespace rdmabench
