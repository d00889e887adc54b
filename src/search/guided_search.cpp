#include <algorithm>
#include <queue>
#include <random>

#include "search/line_walk.h"
#include "search/point_repair.h"
#include "search/space_search.h"
#include "search/violation_set.h"

namespace rdmabench {

namespace {

// Random lines in a row that measured nothing new: the space is measured out.
constexpr int kIdleLines = 200;

// A violation waiting to be refined, and how it was found: 0 on a line (coarse, random, or a
// line's narrowing), 1 by moving another one step (spread): those show how far it reaches,
// and are narrowed but not moved again.
struct Queued {
  Violation v;
  int generation = 0;
};

// A point the search starts from: the base, or one option changed (and, where the target
// refuses that, another one or two moved to make it a point it takes).
struct Anchor {
  Point point;
  std::string changed;  // the option changed ("" the base)
};

// Lines' violations before moved ones, the larger first among equals.
struct Later {
  bool operator()(const Queued& a, const Queued& b) const {
    return a.generation != b.generation ? a.generation > b.generation : a.v.size < b.v.size;
  }
};

class GuidedSearch {
 public:
  GuidedSearch(const SearchSpace& space, const std::vector<Rule>& rules, MeasuredPoints& measured,
               uint32_t seed, const std::vector<Point>& cover_rows)
      : cover_rows_(cover_rows),
        space_(space),
        rules_(rules),
        measured_(measured),
        dims_(judged_dimensions(space, rules)),
        random_(seed) {}

  std::vector<Violation> run() {
    // Anchors are worked out only while the budget has room: a refused one's repair asks the
    // target about hundreds of points.
    const auto within = [this] { return measured_.within_budget(); };
    if (within()) points(anchors(false));  // the base and every one-option change, alone: a
    if (within()) points(anchors(true));   // point rule (resends) judges each at once
    if (within()) coarse(anchors(false));  // lines through the base, and each change of a kind
    refine_all();
    if (within()) points(rows());  // every pair of unordered values, alone
    for (const Dimension* d : dims_) {
      if (!within()) break;
      cover_lines(*d);  // and lines through every row, one dimension at a time
      refine_all();
    }
    if (within()) coarse(anchors(true));  // each coarse change of a number (qps 16, ...)
    refine_all();
    // Random lines until the budget ends, or until they only find points measured before.
    for (int idle = 0; measured_.within_budget() && !dims_.empty() && idle < kIdleLines;) {
      const size_t before = measured_.measurements();
      random_line();
      refine_all();
      idle = measured_.measurements() == before ? idle + 1 : 0;
    }
    return found_.list();
  }

 private:
  // Each new violation waits to be moved (spread); one a line found between values it
  // skipped is narrowed at once (a few points), so that what waits is the finest pair.
  void note(const std::vector<Violation>& violations, int generation = 0) {
    for (const Violation& v : violations) {
      if (!found_.add(v)) continue;
      queue_.push({v, generation});
      if (!v.rule->along.empty() && space_.find(std::string(v.rule->along))->ordered &&
          !adjacent(v))
        narrow(v, generation);
    }
  }

  // A violation moved before shows this one too: the same rule between the same values, at
  // points that hold every option it held (resends at the base cover resends anywhere).
  bool covered(const Violation& v) const {
    const std::string along(v.rule->along);
    const auto held = non_base(space_, v.low);
    return std::any_of(spread_.begin(), spread_.end(), [&](const Violation& s) {
      if (s.rule != v.rule) return false;
      if (!along.empty() &&
          (s.low.at(along) != v.low.at(along) || s.high.at(along) != v.high.at(along)))
        return false;
      auto options = non_base(space_, s.low);
      if (!along.empty()) options.erase(along);
      return std::all_of(options.begin(), options.end(), [&](const auto& o) {
        const auto it = held.find(o.first);
        return it != held.end() && it->second == o.second;
      });
    });
  }

  bool adjacent(const Violation& v) const {
    const std::string along(v.rule->along);
    return *space_.index_of(along, v.high.at(along)) ==
           *space_.index_of(along, v.low.at(along)) + 1;
  }

  // One-option changes of the base: of an unordered option (with the base itself), or of an
  // ordered one (at its coarse values); each moved to a point the target takes.
  std::vector<Anchor> anchors(bool ordered) const {
    std::vector<Anchor> out;
    if (!ordered) out.push_back({space_.base(), ""});
    const auto accepts = [this](const Point& p) { return measured_.accepts(p); };
    for (const Dimension& d : space_.dimensions()) {
      if (d.ordered != ordered) continue;
      for (const std::string& v : ordered ? coarse_values(d, kCoarseLinePoints) : d.values)
        if (v != d.start)
          out.push_back({accepted_near(space_, with(space_.base(), d.option, v), d.option, accepts),
                         d.option});
    }
    return out;
  }

  // Whether a rule along `d` judges points like `anchor` (a line no rule judges is not drawn).
  bool judged_at(const Dimension& d, const Point& anchor) const {
    return std::any_of(rules_.begin(), rules_.end(), [&](const Rule& r) {
      return r.along == d.option && rule_applies(r, anchor);
    });
  }

  void points(const std::vector<Anchor>& anchors) {
    for (const Anchor& anchor : anchors) {
      if (!measured_.within_budget()) return;
      const MeasuredPoint p{anchor.point, measured_.at(anchor.point)};
      for (const Rule& rule : rules_)
        if (auto v = judge_point(rule, p)) note({*v});
    }
  }

  // A coarse line through each anchor along each judged dimension (but the one it changed).
  void coarse(const std::vector<Anchor>& anchors) {
    for (const Anchor& anchor : anchors)
      for (const Dimension* d : dims_) {
        if (d->option == anchor.changed || !judged_at(*d, anchor.point)) continue;
        if (!measured_.within_budget()) return;
        const auto line =
            measure_line(measured_, anchor.point, *d, coarse_values(*d, kCoarseLinePoints));
        note(judge_measured_line(rules_, *d, line, measured_));
      }
  }

  std::vector<Anchor> rows() const {
    std::vector<Anchor> out;
    for (const Point& row : cover_rows_) out.push_back({row, ""});
    return out;
  }

  void cover_lines(const Dimension& d) {
    for (const Point& row : cover_rows_) {
      if (!judged_at(d, row)) continue;
      if (!measured_.within_budget()) return;
      const auto line = measure_line(measured_, row, d, coarse_values(d, kCoarseLinePoints));
      note(judge_measured_line(rules_, d, line, measured_));
    }
  }

  void random_line() {
    Point anchor;
    for (const Dimension& d : space_.dimensions())
      anchor[d.option] =
          d.values[std::uniform_int_distribution<size_t>(0, d.values.size() - 1)(random_)];
    const Dimension& d =
        *dims_[std::uniform_int_distribution<size_t>(0, dims_.size() - 1)(random_)];
    const auto line = measure_line(measured_, anchor, d, coarse_values(d, kCoarseLinePoints));
    note(judge_measured_line(rules_, d, line, measured_));
  }

  void refine_all() {
    while (!queue_.empty() && measured_.within_budget()) {
      const Queued q = queue_.top();
      queue_.pop();
      if (q.generation == 0 && found_.holds(q.v) && !covered(q.v)) {
        spread(q.v);
        spread_.push_back(q.v);
      }
    }
  }

  // The values a coarse line skipped between the two points (one more each side: a step's
  // neighbours).
  void narrow(const Violation& v, int generation) {
    const Dimension& d = *space_.find(std::string(v.rule->along));
    const size_t lo = *space_.index_of(d.option, v.low.at(d.option));
    const size_t hi = *space_.index_of(d.option, v.high.at(d.option));
    const size_t from = lo > 0 ? lo - 1 : 0, to = std::min(hi + 1, d.values.size() - 1);
    const std::vector<std::string> values(d.values.begin() + from, d.values.begin() + to + 1);
    const auto finer = judge_line(*v.rule, measure_line(measured_, v.low, d, values),
                                  measured_.threshold(*v.rule));
    note(finer, generation);
    const auto inside = [&](const Violation& f) {
      const size_t a = *space_.index_of(d.option, f.low.at(d.option));
      const size_t b = *space_.index_of(d.option, f.high.at(d.option));
      return a >= lo && b <= hi && b - a < hi - lo;
    };
    // A finer pair inside replaces it; a change that is smooth over the values between is no
    // step at all (a fall or a rise stays one however many values it spans).
    if (std::any_of(finer.begin(), finer.end(), inside) || v.rule->expects == Expectation::kSmooth)
      found_.supersede(v);
  }

  std::vector<std::string> neighbours(const Dimension& e, const std::string& value) const {
    if (!e.ordered) return e.values;
    const size_t i = *space_.index_of(e.option, value);
    std::vector<std::string> out;
    if (i > 0) out.push_back(e.values[i - 1]);
    if (i + 1 < e.values.size()) out.push_back(e.values[i + 1]);
    return out;
  }

  // The same rule at the two points moved one step in every other option.
  void spread(const Violation& v) {
    const std::string along(v.rule->along);
    for (const Dimension& e : space_.dimensions()) {
      if (e.option == along) continue;
      for (const std::string& w : neighbours(e, v.low.at(e.option))) {
        if (w == v.low.at(e.option)) continue;
        if (!measured_.within_budget()) return;
        spread_to(v, with(v.low, e.option, w), with(v.high, e.option, w));
      }
    }
  }

  void spread_to(const Violation& v, const Point& low, const Point& high) {
    if (v.rule->expects == Expectation::kZero) {
      if (auto found = judge_point(*v.rule, {low, measured_.at(low)})) note({*found}, 1);
      return;
    }
    const Dimension& d = *space_.find(std::string(v.rule->along));
    const size_t lo = *space_.index_of(d.option, low.at(d.option));
    const size_t hi = *space_.index_of(d.option, high.at(d.option));
    const bool step = v.rule->expects == Expectation::kSmooth;
    const size_t from = step && lo > 0 ? lo - 1 : lo;
    const size_t to = step ? std::min(hi + 1, d.values.size() - 1) : hi;
    const std::vector<std::string> values(d.values.begin() + from, d.values.begin() + to + 1);
    note(judge_line(*v.rule, measure_line(measured_, low, d, values), measured_.threshold(*v.rule)),
         1);
  }

  const std::vector<Point>& cover_rows_;
  const SearchSpace& space_;
  const std::vector<Rule>& rules_;
  MeasuredPoints& measured_;
  std::vector<const Dimension*> dims_;
  std::mt19937 random_;
  ViolationSet found_;
  std::priority_queue<Queued, std::vector<Queued>, Later> queue_;
  std::vector<Violation> spread_;  // the violations moved so far
};

}  // namespace

std::vector<Violation> guided_search(const SearchSpace& space, const std::vector<Rule>& rules,
                                     MeasuredPoints& measured, uint32_t seed,
                                     const std::vector<Point>& cover_rows) {
  return GuidedSearch(space, rules, measured, seed, cover_rows).run();
}

}  // namespace rdmabench
