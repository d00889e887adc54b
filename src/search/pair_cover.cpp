#include "search/pair_cover.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "search/line_walk.h"
#include "search/point_repair.h"

namespace rdmabench {

namespace {

// Two unordered options (by their place among them, first < second) and a value of each.
using Pair = std::tuple<size_t, std::string, size_t, std::string>;

std::vector<const Dimension*> categories(const SearchSpace& space) {
  std::vector<const Dimension*> out;
  for (const Dimension& d : space.dimensions())
    if (!d.ordered && d.values.size() > 1) out.push_back(&d);
  return out;
}

std::set<Pair> pairs_of(const std::vector<const Dimension*>& cats, const Point& p) {
  std::set<Pair> out;
  for (size_t a = 0; a < cats.size(); ++a)
    for (size_t b = a + 1; b < cats.size(); ++b)
      out.insert({a, p.at(cats[a]->option), b, p.at(cats[b]->option)});
  return out;
}

class CoverBuilder {
 public:
  CoverBuilder(const SearchSpace& space, const std::function<bool(const Point&)>& accepts)
      : space_(space), accepts_(accepts), cats_(categories(space)) {
    for (size_t a = 0; a < cats_.size(); ++a)
      for (size_t b = a + 1; b < cats_.size(); ++b)
        for (const std::string& x : cats_[a]->values)
          for (const std::string& y : cats_[b]->values) uncovered_.insert({a, x, b, y});
    cover_.pairs = uncovered_.size();
  }

  PairCover build() {
    while (!uncovered_.empty()) {
      const Pair seed = *uncovered_.begin();
      if (const std::optional<Point> start = taken_with(seed)) {
        take(row_from(seed, *start));
        continue;
      }
      refused_.insert(seed);
      uncovered_.erase(seed);
      ++cover_.refused;
    }
    return std::move(cover_);
  }

 private:
  void take(const Point& row) {
    for (const Pair& p : pairs_of(cats_, row)) uncovered_.erase(p);
    cover_.rows.push_back(row);
  }

  // The base with the seed's two values.
  Point alone(const Pair& seed) const {
    Point p = space_.base();
    p[cats_[std::get<0>(seed)]->option] = std::get<1>(seed);
    p[cats_[std::get<2>(seed)]->option] = std::get<3>(seed);
    return p;
  }

  // The base with the seed's two values, ordered options moved as the target needs; none when
  // it takes no such point.
  std::optional<Point> taken_with(const Pair& seed) const {
    return accepted_keeping_categories(space_, alone(seed), accepts_);
  }

  // Starting from a point that holds the seed, for each other option in turn the value that
  // adds the most uncovered pairs with the values set so far (the base's first among equals) and
  // keeps the row one the target takes: taken, its ordered options moved as the target needs.
  Point row_from(const Pair& seed, Point row) const {
    std::vector<bool> set(cats_.size(), false);
    set[std::get<0>(seed)] = set[std::get<2>(seed)] = true;
    for (size_t c = 0; c < cats_.size(); ++c) {
      if (set[c]) continue;
      for (const std::string& v : ranked(row, set, c)) {
        if (v == row.at(cats_[c]->option)) break;  // the value it has: taken already
        if (auto taken =
                accepted_keeping_categories(space_, with(row, cats_[c]->option, v), accepts_)) {
          row = std::move(*taken);
          break;
        }
      }
      set[c] = true;
    }
    return row;
  }

  // The values of option c by the uncovered pairs each adds to the row's set values, most
  // first (the base's first among equals); none that forms a pair no point holds.
  std::vector<std::string> ranked(const Point& row, const std::vector<bool>& set, size_t c) const {
    const Dimension& d = *cats_[c];
    std::vector<std::pair<long, std::string>> gains;
    std::vector<std::string> order = {d.start};
    for (const std::string& v : d.values)
      if (v != d.start) order.push_back(v);
    for (const std::string& v : order) {
      long gain = 0;
      for (size_t o = 0; o < cats_.size(); ++o) {
        if (!set[o]) continue;
        const Pair p = o < c ? Pair{o, row.at(cats_[o]->option), c, v}
                             : Pair{c, v, o, row.at(cats_[o]->option)};
        if (refused_.count(p)) gain -= 1000;
        gain += uncovered_.count(p) ? 1 : 0;
      }
      gains.emplace_back(gain, v);
    }
    std::stable_sort(gains.begin(), gains.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> out;
    for (const auto& [gain, v] : gains) out.push_back(v);
    return out;
  }

  const SearchSpace& space_;
  const std::function<bool(const Point&)>& accepts_;
  std::vector<const Dimension*> cats_;
  std::set<Pair> uncovered_, refused_;
  PairCover cover_;
};

}  // namespace

PairCover pair_cover(const SearchSpace& space, const std::function<bool(const Point&)>& accepts) {
  return CoverBuilder(space, accepts).build();
}

std::vector<Point> cover_rows(const SearchSpace& space, const std::vector<Rule>& rules,
                              const std::function<bool(const Point&)>& accepts) {
  std::vector<Point> rows;
  std::set<std::string> done;
  for (const Rule& rule : rules) {
    const size_t eq = rule.only_if.find('=');
    if (eq == std::string_view::npos || !done.insert(std::string(rule.only_if)).second) continue;
    const std::string option(rule.only_if.substr(0, eq)), value(rule.only_if.substr(eq + 1));
    std::vector<Dimension> dims = space.dimensions();
    const auto d = std::find_if(dims.begin(), dims.end(),
                                [&](const Dimension& x) { return x.option == option; });
    if (d == dims.end() || d->ordered ||
        std::find(d->values.begin(), d->values.end(), value) == d->values.end())
      continue;
    d->values = {value};
    d->start = value;
    for (Point& row : pair_cover(SearchSpace(std::move(dims)), accepts).rows)
      if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(std::move(row));
  }
  return done.empty() ? pair_cover(space, accepts).rows : rows;
}

size_t pair_count(const SearchSpace& space) {
  const std::vector<const Dimension*> cats = categories(space);
  size_t n = 0;
  for (size_t a = 0; a < cats.size(); ++a)
    for (size_t b = a + 1; b < cats.size(); ++b)
      n += cats[a]->values.size() * cats[b]->values.size();
  return n;
}

size_t pairs_held(const SearchSpace& space, const std::vector<Point>& points) {
  const std::vector<const Dimension*> cats = categories(space);
  std::set<Pair> held;
  for (const Point& p : points) held.merge(pairs_of(cats, p));
  return held.size();
}

}  // namespace rdmabench
