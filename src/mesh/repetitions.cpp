#include "mesh/repetitions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace rdmabench {

namespace {

using PairKey = std::pair<std::string, std::pair<int, int>>;

PairKey key_of(const PairResult& r) {
  return {r.benchmark, {r.pair.client, r.pair.server}};
}

double judged_value(const PairResult& r) {
  const auto it = r.counters.find(judged_figure(r.mode).counter);
  return it == r.counters.end() ? NAN : it->second;
}

// Is `a` a better run than `b` on the judged figure (a run without the figure never is)?
bool better(const PairResult& a, const PairResult& b) {
  const double x = judged_value(a), y = judged_value(b);
  if (std::isnan(x)) return false;
  if (std::isnan(y)) return true;
  return judged_figure(a.mode).higher_is_better ? x > y : x < y;
}

PairResult summarized(const std::vector<const PairResult*>& runs) {
  const PairResult* best = nullptr;
  const PairResult* worst = nullptr;
  size_t failed = 0;
  for (const PairResult* r : runs) {
    if (!r->error.empty()) {
      ++failed;
      continue;
    }
    if (best == nullptr || better(*r, *best)) best = r;
    if (worst == nullptr || better(*worst, *r)) worst = r;
  }
  if (best == nullptr) return *runs.back();  // every repetition failed: the last one says why
  PairResult out = *best;
  const double b = judged_value(*best), w = judged_value(*worst);
  out.counters["repetitions_measured"] = static_cast<double>(runs.size() - failed);
  out.counters["repetitions_failed"] = static_cast<double>(failed);
  out.counters["judged_worst"] = w;
  out.counters["judged_spread"] = b != 0 ? std::fabs(b - w) / std::fabs(b) : 0;
  return out;
}

}  // namespace

std::vector<PairResult> best_of_repetitions(std::vector<PairResult> all) {
  std::vector<PairKey> order;
  std::map<PairKey, std::vector<const PairResult*>> runs;
  for (const PairResult& r : all) {
    auto& list = runs[key_of(r)];
    if (list.empty()) order.push_back(key_of(r));
    list.push_back(&r);
  }
  if (order.size() == all.size()) return all;
  std::vector<PairResult> out;
  out.reserve(order.size());
  for (const PairKey& k : order) out.push_back(summarized(runs[k]));
  return out;
}

}  // namespace rdmabench
