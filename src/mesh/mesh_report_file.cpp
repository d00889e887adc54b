#include "mesh/mesh_report_file.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/output_file.h"
#include "core/printable_text.h"
#include "mesh/mesh_report_json.h"

namespace rdmabench {

namespace {

// NumPy's format 1.0: magic, version, a header dict padded so the data starts 64-aligned.
std::string npy_header(size_t ranks) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(ranks) +
                     ", " + std::to_string(ranks) + "), }";
  const size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string header = "\x93NUMPY";
  header += '\x01';
  header += '\x00';
  header += static_cast<char>(dict.size() & 0xff);
  header += static_cast<char>(dict.size() >> 8);
  return header + dict;
}

std::string benchmark_file(size_t index, const std::string& counter) {
  return std::to_string(index) + "-" + counter + ".npy";
}

}  // namespace

std::string MeshReportFile::matrices_folder(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string stem = p.extension() == ".json" ? p.stem().string() : p.filename().string();
  return (p.parent_path() / (stem + ".matrices")).string();
}

MeshReportFile::MeshReportFile(std::string path, const MeshReport& report, size_t ranks)
    : path_(std::move(path)),
      tmp_(temporary_beside(path_, "--out")),
      report_(report),
      ranks_(ranks) {
  out_.open(tmp_, std::ios::trunc);
  if (!out_) throw Error(ExitCode::kUsage, "--out: cannot write " + printable(tmp_));
  if (!inline_matrices()) std::filesystem::create_directories(matrices_folder(path_));
  out_ << "{";
  const std::pair<const char*, nlohmann::json> head[] = {
      {"context", report_.context},
      {"hosts", hosts_json(report_.hosts)},
      {"host_differences", host_differences_json(report_.host_differences)},
      {"verdict", verdict_json(report_.verdict)}};
  for (const auto& [key, value] : head)
    out_ << "\"" << key
         << "\":" << value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << ",\n";
  out_ << "\"benchmarks\":[";
}

MeshReportFile::~MeshReportFile() {
  if (!finished_) std::remove(tmp_.c_str());
}

void MeshReportFile::begin_benchmark(size_t index) {
  const nlohmann::json b = benchmark_json(report_.benchmarks.at(index));
  std::string text = b.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text.pop_back();  // the closing brace: the matrices follow
  out_ << (index > 0 ? ",\n" : "\n") << text << ",\"matrices\":{";
  benchmark_ = index;
  matrices_ = 0;
}

void MeshReportFile::begin_matrix(const std::string& counter) {
  out_ << (matrices_++ > 0 ? "," : "") << nlohmann::json(counter).dump() << ":";
  rows_ = 0;
  if (inline_matrices()) {
    out_ << "[";
    return;
  }
  const std::string name = benchmark_file(benchmark_, counter);
  const std::filesystem::path folder = matrices_folder(path_);
  npy_.open(folder / name, std::ios::binary | std::ios::trunc);
  if (!npy_ && failed_.empty()) failed_ = (folder / name).string();
  npy_ << npy_header(ranks_);
  out_ << nlohmann::json{{"npy", (folder.filename() / name).string()},
                         {"dtype", "<f4"},
                         {"shape", {ranks_, ranks_}}}
              .dump();
}

void MeshReportFile::row(std::span<const double> values) {
  if (inline_matrices()) {
    out_ << (rows_++ > 0 ? ",\n" : "\n") << row_json(values).dump();
    return;
  }
  std::vector<float> cells(values.begin(), values.end());
  npy_.write(reinterpret_cast<const char*>(cells.data()),
             static_cast<std::streamsize>(cells.size() * sizeof(float)));
  ++rows_;
}

void MeshReportFile::end_matrix() {
  if (inline_matrices()) {
    out_ << "]";
    return;
  }
  npy_.close();
  if ((!npy_ || rows_ != ranks_) && failed_.empty()) failed_ = matrices_folder(path_);
}

void MeshReportFile::end_benchmark() {
  out_ << "}}";
}

void MeshReportFile::finish() {
  out_ << "\n]}\n";
  out_.close();
  if (!out_ && failed_.empty()) failed_ = tmp_;
  if (!failed_.empty())
    throw Error(ExitCode::kUsage,
                "--out: cannot write " + printable(failed_) + " (is the disk full?)");
  std::error_code renamed;
  std::filesystem::rename(tmp_, path_, renamed);
  if (renamed)
    throw Error(ExitCode::kUsage, "--out: cannot rename " + printable(tmp_) + " to " +
                                      printable(path_) + ": " + renamed.message());
  finished_ = true;
}

}  // namespace rdmabench
