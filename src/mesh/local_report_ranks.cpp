#include "mesh/local_report_ranks.h"

#include <algorithm>

#include "core/error.h"

namespace rdmabench {

void LocalReportRanks::sum(const Contribution& contribute, std::span<uint64_t> total) const {
  std::fill(total.begin(), total.end(), 0);
  for (const RankRows& rows : rows_) contribute(rows, total);
}

void LocalReportRanks::stream(const Producer& produce, const Consumer& consume,
                              size_t max_bytes) const {
  for (const RankRows& rows : rows_) {
    const std::string bytes = produce(rows);
    if (bytes.size() > max_bytes)
      throw Error(ExitCode::kConnection, "mesh: rank " + std::to_string(rows.rank) + " sent " +
                                             std::to_string(bytes.size()) + " bytes, more than " +
                                             std::to_string(max_bytes));
    consume(rows.rank, bytes);
  }
}

}  // namespace rdmabench
