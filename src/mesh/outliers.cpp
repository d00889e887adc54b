#include "mesh/outliers.h"

#include <algorithm>

#include "core/error.h"

namespace rdmabench {

namespace {

// The median; of an even count, the better of the two middle values. One slow host among
// four touches half the pairs: the plain midpoint would then sit between the slow and the
// healthy figures, and a mild slowdown would pass.
double median_of(std::vector<double> values, bool higher_is_better) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  if (values.size() % 2 == 1 || higher_is_better) return values[mid];
  return values[mid - 1];
}

// The hosts for which every measured pair on their line is slow (rows: as client).
std::vector<int> whole_lines_slow(const MeshMatrix& matrix, const std::vector<MeshPair>& slow,
                                  bool rows) {
  std::vector<int> hosts;
  for (size_t h = 0; h < matrix.size(); ++h) {
    int measured = 0, slow_here = 0;
    for (size_t o = 0; o < matrix.size(); ++o) {
      const auto& cell = rows ? matrix[h][o] : matrix[o][h];
      if (!cell) continue;
      ++measured;
      const MeshPair pair = rows ? MeshPair{static_cast<int>(h), static_cast<int>(o)}
                                 : MeshPair{static_cast<int>(o), static_cast<int>(h)};
      slow_here += std::count(slow.begin(), slow.end(), pair) > 0 ? 1 : 0;
    }
    if (measured > 0 && slow_here == measured) hosts.push_back(static_cast<int>(h));
  }
  return hosts;
}

}  // namespace

std::vector<int> OutlierReport::slow_hosts() const {
  std::vector<int> hosts = slow_senders;
  hosts.insert(hosts.end(), slow_receivers.begin(), slow_receivers.end());
  std::sort(hosts.begin(), hosts.end());
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  return hosts;
}

OutlierReport find_outliers(const MeshMatrix& matrix, const OutlierRule& rule) {
  if (!(rule.min_fraction > 0 && rule.min_fraction <= 1))
    throw Error(ExitCode::kUsage, "--min-fraction must be above 0 and at most 1, not " +
                                      std::to_string(rule.min_fraction));
  std::vector<double> values;
  for (const auto& row : matrix)
    for (const auto& cell : row)
      if (cell) values.push_back(*cell);
  OutlierReport report;
  report.median = median_of(values, rule.higher_is_better);
  report.threshold =
      rule.higher_is_better ? report.median * rule.min_fraction : report.median / rule.min_fraction;
  for (size_t c = 0; c < matrix.size(); ++c)
    for (size_t s = 0; s < matrix[c].size(); ++s) {
      const auto& cell = matrix[c][s];
      if (!cell) continue;
      const bool slow = rule.higher_is_better ? *cell < report.threshold : *cell > report.threshold;
      if (slow) report.slow_pairs.push_back({static_cast<int>(c), static_cast<int>(s)});
    }
  report.slow_senders = whole_lines_slow(matrix, report.slow_pairs, true);
  report.slow_receivers = whole_lines_slow(matrix, report.slow_pairs, false);
  return report;
}

OutlierReport find_above(const MeshMatrix& matrix, double limit) {
  std::vector<double> values;
  OutlierReport report;
  for (size_t c = 0; c < matrix.size(); ++c)
    for (size_t s = 0; s < matrix[c].size(); ++s) {
      const auto& cell = matrix[c][s];
      if (!cell) continue;
      values.push_back(*cell);
      if (*cell > limit) report.slow_pairs.push_back({static_cast<int>(c), static_cast<int>(s)});
    }
  report.median = median_of(values, false);
  report.threshold = limit;
  report.slow_senders = whole_lines_slow(matrix, report.slow_pairs, true);
  report.slow_receivers = whole_lines_slow(matrix, report.slow_pairs, false);
  return report;
}

}  // namespace rdmabench
