// The mesh's verdict: pairs whose figure is far from the median of all pairs, and hosts whose
// whole row (as client) or column (as server) is. Pure functions, no MPI.
#pragma once

#include <optional>
#include <vector>

#include "mesh/schedule.h"

namespace rdmabench {

// One figure per measured (client, server) pair, [client][server]; nullopt where none.
using MeshMatrix = std::vector<std::vector<std::optional<double>>>;

struct OutlierRule {
  double min_fraction = 0.8;     // a pair is slow below this fraction of the median...
  bool higher_is_better = true;  // ...of a bandwidth; a latency is slow above median / it
};

struct OutlierReport {
  double median = 0;     // of every measured pair
  double threshold = 0;  // the figure past which a pair is slow
  std::vector<MeshPair> slow_pairs;
  std::vector<int> slow_senders;    // every pair in the host's row is slow
  std::vector<int> slow_receivers;  // every pair in the host's column is slow
  // Sorted, each once: senders and receivers.
  std::vector<int> slow_hosts() const;
  bool any() const noexcept { return !slow_pairs.empty(); }
};

// Throws Error(kUsage) for a min_fraction outside (0, 1].
OutlierReport find_outliers(const MeshMatrix& matrix, const OutlierRule& rule);

// Pairs whose figure is above an absolute `limit` (what the wire resent per message: on a
// healthy fabric none at all, whatever the other pairs do), and hosts whose whole row or column
// is; `median` is the pairs' median, `threshold` the limit.
OutlierReport find_above(const MeshMatrix& matrix, double limit);

}  // namespace rdmabench
