#include "search/pair_cover.h"

#include <algorithm>
#include <set>
#include <tuple>

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
      if (take(accepted_keeping_categories(space_, row_from(seed), accepts_))) continue;
      if (take(accepted_keeping_categories(space_, alone(seed), accepts_))) continue;
      refused_.insert(seed);
      uncovered_.erase(seed);
      ++cover_.refused;
    }
    return std::move(cover_);
  }

 private:
  bool take(const std::optional<Point>& row) {
    if (!row) return false;
    for (const Pair& p : pairs_of(cats_, *row)) uncovered_.erase(p);
    cover_.rows.push_back(*row);
    return true;
  }

  // The base with the seed's two values.
  Point alone(const Pair& seed) const {
    Point p = space_.base();
    p[cats_[std::get<0>(seed)]->option] = std::get<1>(seed);
    p[cats_[std::get<2>(seed)]->option] = std::get<3>(seed);
    return p;
  }

  // The seed's two values, and for each other option the value that adds the most uncovered
  // pairs with the values set so far (the base's first among equals).
  Point row_from(const Pair& seed) const {
    Point row = alone(seed);
    std::vector<bool> set(cats_.size(), false);
    set[std::get<0>(seed)] = set[std::get<2>(seed)] = true;
    for (size_t c = 0; c < cats_.size(); ++c) {
      if (set[c]) continue;
      row[cats_[c]->option] = best_value(row, set, c);
      set[c] = true;
    }
    return row;
  }

  std::string best_value(const Point& row, const std::vector<bool>& set, size_t c) const {
    const Dimension& d = *cats_[c];
    std::string best = d.start;
    long best_gain = -1;
    std::vector<std::string> order = {d.start};  // the base's value first among equals
    order.insert(order.end(), d.values.begin(), d.values.end());
    for (const std::string& v : order) {
      long gain = 0;
      for (size_t o = 0; o < cats_.size(); ++o) {
        if (!set[o]) continue;
        const Pair p = o < c ? Pair{o, row.at(cats_[o]->option), c, v}
                             : Pair{c, v, o, row.at(cats_[o]->option)};
        if (refused_.count(p)) gain -= 1000;  // a pair no point holds: not with it
        gain += uncovered_.count(p) ? 1 : 0;
      }
      if (gain > best_gain) best = v, best_gain = gain;
    }
    return best;
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
