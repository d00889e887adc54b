#include "cli/skip_notes.h"

#include <algorithm>

namespace rdmabench {

std::vector<std::string> skip_notes(const PatternSizes& expanded) {
  struct Note {
    std::string what, why;
    bool whole_patterns;  // names patterns left out at every size: others may join it
  };
  std::vector<Note> notes;
  const std::vector<SkippedPair>& skipped = expanded.skipped;
  for (size_t i = 0; i < skipped.size();) {
    const SkippedPair& first = skipped[i];
    std::string sizes;
    for (; i < skipped.size() && skipped[i].pattern == first.pattern; ++i)
      if (skipped[i].size > 0)
        sizes += (sizes.empty() ? "" : ", ") + std::to_string(skipped[i].size);
    const bool runs = std::any_of(expanded.runs.begin(), expanded.runs.end(),
                                  [&](const auto& run) { return run.first == first.pattern; });
    if (runs) continue;
    const bool whole = sizes.empty();
    auto same = std::find_if(notes.begin(), notes.end(), [&](const Note& n) {
      return whole && n.whole_patterns && n.why == first.why;
    });
    if (same != notes.end())
      same->what += ", " + first.pattern.name();
    else
      notes.push_back(
          {first.pattern.name() + (whole ? "" : " at " + sizes + " B"), first.why, whole});
  }
  std::vector<std::string> lines;
  for (const Note& n : notes) lines.push_back(n.what + " (" + n.why + ")");
  return lines;
}

}  // namespace rdmabench
