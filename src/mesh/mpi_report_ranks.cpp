#include "mesh/mpi_report_ranks.h"

#include <algorithm>

namespace rdmabench {

void MpiReportRanks::sum(const Contribution& contribute, std::span<uint64_t> total) const {
  std::fill(total.begin(), total.end(), 0);
  contribute(mine_, total);
  world_.sum(total);
}

void MpiReportRanks::stream(const Producer& produce, const Consumer& consume,
                            size_t max_bytes) const {
  world_.stream_to_root([&] { return produce(mine_); }, consume, max_bytes, 0);
}

std::string MpiReportRanks::broadcast(const std::string& text) const {
  return world_.broadcast(text, 0);
}

}  // namespace rdmabench
