// The mesh's verdict, as a person reads it: pairs whose figure is far from the median of all
// pairs, and hosts whose whole row (as client) or column (as server) is. mesh_reduction.h
// finds them over the ranks.
#pragma once

#include <cstddef>
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

// Throws Error(kUsage) for a min_fraction outside (0, 1].
void check_min_fraction(double min_fraction);

// The figure past which a pair is slow.
double slow_threshold(double median, const OutlierRule& rule);

struct OutlierReport {
  double median = 0;                 // of every measured pair
  double threshold = 0;              // the figure past which a pair is slow
  std::vector<MeshPair> slow_pairs;  // in rank order; the first kListedPairs of them
  size_t flagged_pairs = 0;          // every slow pair, listed or not
  std::vector<int> slow_senders;     // every pair in the host's row is slow
  std::vector<int> slow_receivers;   // every pair in the host's column is slow
  // Sorted, each once: senders and receivers.
  std::vector<int> slow_hosts() const;
  bool any() const noexcept { return flagged_pairs > 0; }
};

}  // namespace rdmabench
