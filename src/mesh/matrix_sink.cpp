#include "mesh/matrix_sink.h"

namespace rdmabench {

void MatricesInReport::begin_benchmark(size_t index) {
  benchmark_ = &report_.benchmarks.at(index);
  benchmark_->matrices.clear();
}

void MatricesInReport::begin_matrix(const std::string& counter) {
  matrix_ = &benchmark_->matrices[counter];
  *matrix_ = PairMatrix{};
}

void MatricesInReport::row(std::span<const double> values) {
  matrix_->ranks = values.size();
  matrix_->cells.insert(matrix_->cells.end(), values.begin(), values.end());
}

}  // namespace rdmabench
