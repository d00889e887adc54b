#include "mesh/matrix_sink.h"

#include <cmath>

namespace rdmabench {

nlohmann::json row_json(std::span<const double> values) {
  nlohmann::json cells = nlohmann::json::array();
  for (double v : values) cells.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json());
  return cells;
}

void MatricesInReport::begin_benchmark(size_t index) {
  matrices_ = &report_["benchmarks"].at(index)["matrices"];
  *matrices_ = nlohmann::json::object();
}

void MatricesInReport::begin_matrix(const std::string& counter) {
  matrix_ = &(*matrices_)[counter];
  *matrix_ = nlohmann::json::array();
}

void MatricesInReport::row(std::span<const double> values) {
  matrix_->push_back(row_json(values));
}

}  // namespace rdmabench
