// Rank 0 of a two-rank mesh whose other rank sends whatever it is given (a crafted input, a
// fuzzer's bytes) in place of what the report's reduction asks it for; its sums are rank 0's
// again. For the crafted-input tests (tests/unit/mesh_reduction_test.cpp) and the fuzzer
// (mesh_rank_fuzzer.cpp).
#pragma once

#include <algorithm>
#include <string>

#include "core/error.h"
#include "mesh/report_ranks.h"

namespace rdmabench {

class ForgingReportRanks final : public ReportRanks {
 public:
  ForgingReportRanks(RankRows mine, std::string bytes)
      : mine_(std::move(mine)), bytes_(std::move(bytes)) {}
  int rank() const override { return 0; }
  size_t size() const override { return 2; }
  void sum(const Contribution& contribute, std::span<uint64_t> total) const override {
    std::fill(total.begin(), total.end(), 0);
    contribute(mine_, total);
    RankRows other = mine_;
    other.rank = 1;
    contribute(other, total);
  }
  void stream(const Producer& produce, const Consumer& consume, size_t max_bytes) const override {
    consume(0, produce(mine_));
    if (bytes_.size() > max_bytes) throw Error(ExitCode::kConnection, "rank 1's bytes too long");
    consume(1, bytes_);
  }
  std::string broadcast(const std::string& text) const override { return text; }

 private:
  RankRows mine_;
  std::string bytes_;
};

}  // namespace rdmabench
