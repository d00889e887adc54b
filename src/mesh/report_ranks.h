// The ranks of a mesh as its report sees them: each holds its own rows (rank_rows.h), and the
// report is made of sums over every rank and of rows sent to rank 0 one rank at a time, so
// that no rank, rank 0 included, ever holds more than a few rows. Implemented over MPI
// (mpi_report_ranks.h), over rows all held in one process (local_report_ranks.h: small meshes,
// tests) and by tools/mesh-scale's simulation of peers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "mesh/rank_rows.h"

namespace rdmabench {

class ReportRanks {
 public:
  using Contribution = std::function<void(const RankRows&, std::span<uint64_t>)>;
  using Producer = std::function<std::string(const RankRows&)>;
  using Consumer = std::function<void(int rank, std::string_view bytes)>;

  virtual ~ReportRanks() = default;
  virtual int rank() const = 0;  // rank 0 writes the report
  virtual size_t size() const = 0;
  // On every rank: `total` (zeroed first) holds the sum over every rank of what `contribute`
  // adds into it from that rank's rows.
  virtual void sum(const Contribution& contribute, std::span<uint64_t> total) const = 0;
  // At rank 0: `consume` gets each rank's `produce`d bytes in rank order, one at a time, each
  // consumed before the next is taken; the other ranks only produce. Bytes over `max_bytes`:
  // Error(kConnection) at rank 0.
  virtual void stream(const Producer& produce, const Consumer& consume, size_t max_bytes) const = 0;
  // Rank 0's `text` on every rank.
  virtual std::string broadcast(const std::string& text) const = 0;
};

}  // namespace rdmabench
