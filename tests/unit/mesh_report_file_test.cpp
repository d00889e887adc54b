// The report file rank 0 writes as the matrices' rows arrive (mesh_report_file.h): the same
// report as the one made in memory, written into place only once whole; beyond 1024 ranks
// each matrix a NumPy file.
#include "mesh/mesh_report_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "core/error.h"

#include "mesh/local_report_ranks.h"
#include "mesh/matrix_sink.h"
#include "mesh/mesh_report_json.h"
#include "mesh/rank_rows.h"
#include "mesh/reduce_report.h"

using namespace rdmabench;
using nlohmann::json;

namespace {

// A scratch folder of the test's own, gone after it.
class Scratch {
 public:
  Scratch()
      : dir_(std::filesystem::temp_directory_path() /
             ("mesh_report_file_test." + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~Scratch() { std::filesystem::remove_all(dir_); }
  std::filesystem::path operator()(const std::string& name) const { return dir_ / name; }

 private:
  std::filesystem::path dir_;
};

// The files beside `path` whose names begin with its own and a dot (its temporaries).
size_t temporaries_beside(const std::filesystem::path& path) {
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(path.parent_path()))
    if (entry.path().filename().string().rfind(path.filename().string() + ".", 0) == 0 &&
        entry.path().extension() != ".matrices")
      ++n;
  return n;
}

std::string file_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

// A mesh of `n` ranks, every pair at its client's rank + 1, a failed pair between 0 and 1.
LocalReportRanks ranks_of(size_t n) {
  std::vector<RankRows> rows;
  for (size_t c = 0; c < n; ++c) {
    std::vector<double> row(n, static_cast<double>(c + 1));
    row[c] = NAN;
    BenchmarkRow b{"write/bw/busy/65536", "bw", {{"bytes_per_second", row}}, {}};
    if (c == 0) b.errors.push_back({b.name, {0, 1}, {}, "refused", 3, "bw"});
    rows.push_back({static_cast<int>(c), n, {b}});
  }
  return LocalReportRanks(std::move(rows));
}

json hosts(size_t n) {
  json h = json::array();
  for (size_t i = 0; i < n; ++i) h.push_back({{"rank", i}, {"hostname", "h" + std::to_string(i)}});
  return h;
}

json written(const LocalReportRanks& ranks, const std::filesystem::path& path) {
  const std::vector<BenchmarkName> names = {{"write/bw/busy/65536", "bw"}};
  ReducedReport reduced = reduce_mesh_report(ranks, names, {{"ranks", ranks.size()}},
                                             mesh_hosts(hosts(ranks.size())), {0.8, 0.01});
  MeshReportFile file(path.string(), reduced.report, ranks.size());
  stream_matrices(ranks, reduced, &file);
  EXPECT_FALSE(std::filesystem::exists(path)) << "in place before it is whole";
  file.finish();
  return json::parse(file_text(path));
}

}  // namespace

TEST(MeshReportFile, WritesTheReportMadeInMemory) {
  const Scratch scratch;
  const auto path = scratch("small.json");
  const LocalReportRanks ranks = ranks_of(5);
  const json file = written(ranks, path);
  const std::vector<BenchmarkName> names = {{"write/bw/busy/65536", "bw"}};
  ReducedReport reduced =
      reduce_mesh_report(ranks, names, {{"ranks", 5}}, mesh_hosts(hosts(5)), {0.8, 0.01});
  MatricesInReport in_memory(reduced.report);
  stream_matrices(ranks, reduced, &in_memory);
  EXPECT_EQ(file, mesh_report_json(reduced.report));
  EXPECT_EQ(file["benchmarks"][0]["matrices"]["bytes_per_second"][3][1], 4.0);
  EXPECT_TRUE(file["benchmarks"][0]["matrices"]["bytes_per_second"][2][2].is_null());
  EXPECT_EQ(file["verdict"]["failed_pairs"], 1);
  EXPECT_EQ(temporaries_beside(path), 0u);
}

TEST(MeshReportFile, BeyondInlineRanksEachMatrixIsANumPyFileBesideTheReport) {
  const size_t n = kInlineMatricesUpTo + 3;
  const Scratch scratch;
  const auto path = scratch("large.json");
  const json file = written(ranks_of(n), path);
  const json ref = file["benchmarks"][0]["matrices"]["bytes_per_second"];
  EXPECT_EQ(ref, json({{"npy", "large.matrices/0-bytes_per_second.npy"},
                       {"dtype", "<f4"},
                       {"shape", {n, n}}}));
  const std::string npy = file_text(path.parent_path() / ref["npy"].get<std::string>());
  ASSERT_GT(npy.size(), 10u);
  EXPECT_EQ(npy.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const size_t header = 10 + static_cast<uint8_t>(npy[8]) + 256 * static_cast<uint8_t>(npy[9]);
  EXPECT_EQ(header % 64, 0u);
  EXPECT_NE(npy.find("'shape': (" + std::to_string(n) + ", " + std::to_string(n) + ")"),
            std::string::npos);
  ASSERT_EQ(npy.size(), header + n * n * sizeof(float));
  float cell = 0;  // row 7, column 2: client 7's pair, at 8
  std::memcpy(&cell, npy.data() + header + (7 * n + 2) * sizeof(float), sizeof cell);
  EXPECT_EQ(cell, 8.0f);
  std::memcpy(&cell, npy.data() + header + (7 * n + 7) * sizeof(float), sizeof cell);
  EXPECT_TRUE(std::isnan(cell));
}

TEST(MeshReportFile, AnUnfinishedReportLeavesNothingBehind) {
  const Scratch scratch;
  const auto path = scratch("unfinished.json");
  {
    const LocalReportRanks ranks = ranks_of(4);
    ReducedReport reduced = reduce_mesh_report(ranks, {{"write/bw/busy/65536", "bw"}}, {},
                                               mesh_hosts(hosts(4)), {0.8, 0.01});
    MeshReportFile file(path.string(), reduced.report, 4);
    EXPECT_EQ(temporaries_beside(path), 1u);
  }
  EXPECT_EQ(temporaries_beside(path), 0u);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_THROW(MeshReportFile("/nonexistent-folder/r.json", MeshReport{}, 4), Error);
}
