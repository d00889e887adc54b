// A mesh report's file (--out) as rank 0 writes it, its matrices taken as their rows arrive
// (matrix_sink.h) and never held: JSON rows inside the report up to kInlineMatricesUpTo
// ranks; beyond, each matrix a NumPy file (.npy, little-endian float32, N x N, row = client
// rank) in a folder beside the report, which names it ({"npy": path relative to the report,
// "dtype", "shape"}). Written to a temporary beside PATH (PATH.XXXXXX) and renamed into place once
// whole.
#pragma once

#include <cstddef>
#include <fstream>
#include <string>

#include "mesh/matrix_sink.h"
#include "mesh/mesh_report.h"

namespace rdmabench {

inline constexpr size_t kInlineMatricesUpTo = 1024;

class MeshReportFile : public MatrixSink {
 public:
  // `report`: reduce_mesh_report's, without matrices; every field but the benchmarks is
  // written now. Throws Error when its temporary cannot be made.
  MeshReportFile(std::string path, const MeshReport& report, size_t ranks);
  ~MeshReportFile() override;  // an unfinished file is removed
  MeshReportFile(const MeshReportFile&) = delete;
  MeshReportFile& operator=(const MeshReportFile&) = delete;

  void begin_benchmark(size_t index) override;
  void begin_matrix(const std::string& counter) override;
  void row(std::span<const double> values) override;
  void end_matrix() override;
  void end_benchmark() override;
  // Closes the report and renames it into place; Error(kUsage) naming the file when a write
  // failed (a full disk). A failed write stops no stream: the other ranks are still sending.
  void finish();

  // The folder of a report's NumPy matrices: PATH without ".json", and ".matrices".
  static std::string matrices_folder(const std::string& path);

 private:
  bool inline_matrices() const { return ranks_ <= kInlineMatricesUpTo; }

  std::string path_, tmp_;
  const MeshReport& report_;
  size_t ranks_;
  std::ofstream out_;
  std::ofstream npy_;
  size_t benchmark_ = 0, matrices_ = 0, rows_ = 0;
  bool finished_ = false;
  std::string failed_;  // the first file a write failed on: told by finish(), not mid-stream
};

}  // namespace rdmabench
