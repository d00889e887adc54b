#include "cli/search_preview.h"

#include <chrono>
#include <cmath>
#include <filesystem>

#include "core/time_text.h"
#include "search/pair_cover.h"

namespace rdmabench {

namespace {

std::string time_of(double seconds) {
  return time_text(std::chrono::nanoseconds(std::llround(seconds * 1e9)));
}

std::string point_length_text(const SearchRequest& r) {
  const RunLength& length = r.target.length;
  std::string text = std::to_string(r.repetitions) + " timed runs of ";
  if (!length.timed_window()) return text + std::to_string(length.iterations) + " messages a QP";
  text += time_text(std::chrono::nanoseconds(length.duration_ns));
  if (length.margin_ns > 0)
    text += " (" + time_text(std::chrono::nanoseconds(length.margin_ns)) + " margins)";
  return text;
}

// How many points the searching share of the budget holds at most, each at least its timed
// runs long (nothing is known of a run by --iters before it runs: 0).
uint64_t points_within_budget(const SearchRequest& r) {
  const RunLength& length = r.target.length;
  if (!length.timed_window()) return 0;
  const double point_s = static_cast<double>(r.repetitions) *
                         static_cast<double>(length.window_with_margins_ns()) * 1e-9;
  return static_cast<uint64_t>(r.budget_s * kSearchShare / point_s);
}

std::string estimate_text(const SearchSpace& space, const SearchRequest& r) {
  std::string text = "estimate: " + time_of(r.budget_s) + " at most (--budget";
  if (r.points != 0) text += ", or sooner after --points " + std::to_string(r.points);
  text += ")";
  if (const uint64_t fit = points_within_budget(r); fit > 0)
    text += "; its searching share, " + time_of(r.budget_s * kSearchShare) + ", holds at most " +
            std::to_string(fit) + " of the " + std::to_string(space.size()) +
            " points (each point's connections and setup come on top)";
  return text + "\n";
}

}  // namespace

std::string search_preview(const SearchSpace& space, const SearchRequest& r) {
  std::string text = "rdmabench search: dry run, nothing opened or connected: against " +
                     r.target.server.address.host + " port " +
                     std::to_string(r.target.server.address.port) + "\n";
  text += "space: " + std::to_string(space.size()) + " points over " +
          std::to_string(space.dimensions().size()) + " dimensions (--list-space lists them)\n";
  text += "each point: " + point_length_text(r) + ", after " +
          std::to_string(r.target.length.warmup) + " warm-up messages\n";
  text += r.method == SearchMethod::kGuided
              ? "method: guided, rows that hold the " + std::to_string(pair_count(space)) +
                    " pairs of values of the unordered options first\n"
              : "method: random lines, seed " + std::to_string(r.seed) + "\n";
  text +=
      "state: " + r.state_file +
      (std::filesystem::exists(r.state_file) ? " (exists: the search resumes it)\n" : " (new)\n");
  text += "report: " + r.out_file + "\n";
  return text + estimate_text(space, r);
}

}  // namespace rdmabench
