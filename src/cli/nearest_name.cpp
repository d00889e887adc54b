#include "cli/nearest_name.h"

#include <algorithm>
#include <vector>

namespace rdmabench {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// Of two as near by edits, one that begins with the same letter (--itr: --iters, not --mtu).
std::string nearest_name(std::string_view word, std::span<const std::string> names, size_t skip) {
  std::string best;
  size_t best_score = size_t{2} * 3;  // three edits away (score 2 d) is too far
  for (const std::string& name : names) {
    const bool prefix = name.starts_with(word) && word.size() > skip + 1;
    const size_t d = prefix ? 1 : edit_distance(word, name);
    const bool other_first = word.size() > skip && name.size() > skip && name[skip] != word[skip];
    const size_t score = 2 * d + (other_first ? 1 : 0);
    if (score < best_score) best = name, best_score = score;
  }
  return best;
}

}  // namespace rdmabench
