// The report's ranks over the mesh's MPI job: this rank's rows, and MpiWorld's sums and
// streams to rank 0.
#pragma once

#include "mesh/mpi_world.h"
#include "mesh/report_ranks.h"

namespace rdmabench {

class MpiReportRanks : public ReportRanks {
 public:
  MpiReportRanks(const MpiWorld& world, const RankRows& mine) : world_(world), mine_(mine) {}
  int rank() const override { return world_.rank(); }
  size_t size() const override { return static_cast<size_t>(world_.size()); }
  void sum(const Contribution& contribute, std::span<uint64_t> total) const override;
  void stream(const Producer& produce, const Consumer& consume, size_t max_bytes) const override;
  std::string broadcast(const std::string& text) const override;

 private:
  const MpiWorld& world_;
  const RankRows& mine_;
};

}  // namespace rdmabench
