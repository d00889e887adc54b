// Where rank 0 puts a mesh report's matrices as their rows arrive, one client rank's row at a
// time (mesh_report.h's stream_matrices): into the report itself (small meshes, the printed
// summary) or into its file as it is written (mesh_report_file.h), never all held at once.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "mesh/mesh_report.h"

namespace rdmabench {

class MatrixSink {
 public:
  virtual ~MatrixSink() = default;
  virtual void begin_benchmark(size_t index) = 0;  // the report's benchmarks[index]
  virtual void begin_matrix(const std::string& counter) = 0;
  virtual void row(std::span<const double> values) = 0;  // the next client's; NaN: no pair
  virtual void end_matrix() = 0;
  virtual void end_benchmark() = 0;
};

// Into report.benchmarks[i].matrices[counter].
class MatricesInReport : public MatrixSink {
 public:
  explicit MatricesInReport(MeshReport& report) : report_(report) {}
  void begin_benchmark(size_t index) override;
  void begin_matrix(const std::string& counter) override;
  void row(std::span<const double> values) override;
  void end_matrix() override {}
  void end_benchmark() override {}

 private:
  MeshReport& report_;
  MeshBenchmark* benchmark_ = nullptr;
  PairMatrix* matrix_ = nullptr;
};

// Each call to both sinks, either of which may be null.
class BothSinks : public MatrixSink {
 public:
  BothSinks(MatrixSink* first, MatrixSink* second) : first_(first), second_(second) {}
  void begin_benchmark(size_t index) override {
    each([&](MatrixSink& s) { s.begin_benchmark(index); });
  }
  void begin_matrix(const std::string& counter) override {
    each([&](MatrixSink& s) { s.begin_matrix(counter); });
  }
  void row(std::span<const double> values) override {
    each([&](MatrixSink& s) { s.row(values); });
  }
  void end_matrix() override {
    each([](MatrixSink& s) { s.end_matrix(); });
  }
  void end_benchmark() override {
    each([](MatrixSink& s) { s.end_benchmark(); });
  }

 private:
  template <typename Call>
  void each(Call call) {
    if (first_) call(*first_);
    if (second_) call(*second_);
  }
  MatrixSink* first_;
  MatrixSink* second_;
};

}  // namespace rdmabench
