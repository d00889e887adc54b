// Every rank's rows held in one process, which plays rank 0: the report of results already
// gathered (small meshes, tests).
#pragma once

#include <vector>

#include "mesh/report_ranks.h"

namespace rdmabench {

class LocalReportRanks : public ReportRanks {
 public:
  explicit LocalReportRanks(std::vector<RankRows> rows) : rows_(std::move(rows)) {}
  int rank() const override { return 0; }
  size_t size() const override { return rows_.size(); }
  void sum(const Contribution& contribute, std::span<uint64_t> total) const override;
  void stream(const Producer& produce, const Consumer& consume, size_t max_bytes) const override;
  std::string broadcast(const std::string& text) const override { return text; }

 private:
  std::vector<RankRows> rows_;
};

}  // namespace rdmabench
