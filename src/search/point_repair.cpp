#include "search/point_repair.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "search/line_walk.h"

namespace rdmabench {

namespace {

struct Change {
  const Dimension* dimension;
  const std::string* value;
  size_t steps;
};

// Every value of every option `movable` takes, with how far it lies from the point's.
std::vector<Change> single_changes(const SearchSpace& space, const Point& point,
                                   const std::function<bool(const Dimension&)>& movable) {
  std::vector<Change> out;
  for (const Dimension& d : space.dimensions()) {
    if (!movable(d)) continue;
    const size_t at = *space.index_of(d.option, point.at(d.option));
    for (size_t i = 0; i < d.values.size(); ++i)
      if (i != at) out.push_back({&d, &d.values[i], d.ordered ? (i > at ? i - at : at - i) : 1});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Change& a, const Change& b) { return a.steps < b.steps; });
  return out;
}

}  // namespace

Point accepted_near(const SearchSpace& space, const Point& point, const std::string& kept,
                    const std::function<bool(const Point&)>& accepts) {
  if (accepts(point)) return point;
  const std::vector<Change> changes =
      single_changes(space, point, [&](const Dimension& d) { return d.option != kept; });
  for (const Change& c : changes)
    if (Point p = with(point, c.dimension->option, *c.value); accepts(p)) return p;
  Point found = point;  // the nearest accepted pair of changes, if any
  size_t best_steps = SIZE_MAX;
  for (size_t i = 0; i < changes.size(); ++i)
    for (size_t j = i + 1; j < changes.size(); ++j) {
      const Change &a = changes[i], &b = changes[j];
      if (a.dimension == b.dimension || a.steps + b.steps >= best_steps) continue;
      Point p = with(with(point, a.dimension->option, *a.value), b.dimension->option, *b.value);
      if (!accepts(p)) continue;
      found = std::move(p);
      best_steps = a.steps + b.steps;
    }
  return found;
}

std::optional<Point> accepted_keeping_categories(const SearchSpace& space, const Point& point,
                                                 const std::function<bool(const Point&)>& accepts) {
  if (accepts(point)) return point;
  for (const Change& c : single_changes(space, point, [](const Dimension& d) { return d.ordered; }))
    if (Point p = with(point, c.dimension->option, *c.value); accepts(p)) return p;
  return std::nullopt;
}

}  // namespace rdmabench
