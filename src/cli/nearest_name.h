// The name a mistyped word most likely meant (an option, a command): a prefix of it, or at most
// two edits away, preferring one that begins as the word does.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace rdmabench {

// Levenshtein distance: the fewest inserted, removed or changed characters from `a` to `b`.
size_t edit_distance(std::string_view a, std::string_view b);

// The nearest of `names` to `word` when it is close, else "". `skip` characters of both are a
// prefix every name shares ("--" of an option) and count neither for the prefix rule nor for
// the first-letter preference.
std::string nearest_name(std::string_view word, std::span<const std::string> names,
                         size_t skip = 0);

}  // namespace rdmabench
