// What a mesh of pairs found, typed from the reduction at rank 0 to the writers: each
// benchmark's verdicts and matrices, the hosts and how their setups differ, and the verdict
// over them all. Read by the summary (mesh_report_text.h) and the metrics (mesh_metrics.h);
// JSON only in the report's file (mesh_report_json.h), whose keys docs/mesh.schema.json holds.
#pragma once

#include <cmath>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mesh/schedule.h"

namespace rdmabench {

// The verdicts' thresholds.
struct MeshJudgement {
  double min_fraction = 0.8;  // --min-fraction: a pair slower than this share of the median
  double max_resends = 0.01;  // --max-resends: a pair whose wire resent more per message
};

// A host of the mesh as the report names it. `identity` is what its rank told the others,
// checked (identity_check.h) and written as it came; the rest is read from it once.
struct MeshHost {
  int rank = -1;
  std::string hostname = "?";
  std::string device = "?";
  std::optional<std::string> group;           // its group's name, with a topology
  std::map<std::string, std::string> doctor;  // its pre-flight findings (host_differences.h)
  nlohmann::json identity;
};

// A host whose pre-flight finding `key` differs from the most common value among the hosts.
struct HostDifference {
  int rank = -1;
  std::string hostname;
  std::string key;
  std::string value;
  std::optional<std::string> usual;  // none: no value is more common than every other
  int hosts_with_usual = 0;
};

// Pairs past a threshold, and the hosts whose whole row (sender) or column (receiver) is.
struct FlaggedPairs {
  std::vector<MeshPair> listed;  // the first kListedPairs, in rank order
  size_t not_listed = 0;
  std::vector<int> senders;
  std::vector<int> receivers;
  std::vector<int> hosts;                          // senders and receivers, sorted, each once
  std::optional<std::vector<std::string>> groups;  // with a topology: groups flagged across
  size_t count() const { return listed.size() + not_listed; }
};

// The outliers' verdict on the judged figure.
struct OutliersVerdict {
  double min_fraction = 0;
  double median = 0;
  double threshold = 0;
  FlaggedPairs slow;
};

// The wire's verdict: pairs that resent more than max_resends_per_msg a message.
struct WireVerdict {
  double max_resends_per_msg = 0;
  double median = 0;
  FlaggedPairs resending;
};

// A heatmap a figure draws: the counter, which way is better, and the verdict it outlines
// ("outliers", "wire", or none).
struct Heatmap {
  std::string counter;
  bool higher_is_better = false;
  std::optional<std::string> verdict;
};

struct PairFailure {
  int client = 0;
  int server = 0;
  std::string message;
  int exit_code = 0;
};

// N x N values of a counter, row = client rank; NaN where no pair was measured.
struct PairMatrix {
  size_t ranks = 0;
  std::vector<double> cells;
  double at(size_t client, size_t server) const { return cells.at(client * ranks + server); }
  bool measured(size_t client, size_t server) const { return std::isfinite(at(client, server)); }
};

struct MeshBenchmark {
  std::string name;
  std::string figure;  // the judged counter
  bool higher_is_better = true;
  std::vector<Heatmap> heatmaps;
  std::vector<PairFailure> errors;  // the first kListedErrors
  size_t errors_not_listed = 0;
  WireVerdict wire;
  OutliersVerdict outliers;
  // Held only where the summary prints them (small meshes); the file streams them instead.
  std::map<std::string, PairMatrix> matrices;
};

struct MeshVerdict {
  std::set<int> slow_hosts;
  std::set<int> resending_hosts;
  std::set<int> differing_hosts;
  size_t slow_pairs = 0;
  size_t resending_pairs = 0;
  size_t failed_pairs = 0;
  std::optional<std::set<std::string>> slow_groups;  // with a topology
  std::optional<std::set<std::string>> resending_groups;
  int exit_code = 0;
};

struct MeshReport {
  nlohmann::json context;  // the run's context as the job wrote it (mesh_job.cpp)
  std::vector<MeshHost> hosts;
  std::vector<MeshBenchmark> benchmarks;
  std::vector<HostDifference> host_differences;
  MeshVerdict verdict;
};

// The hosts of checked identities (by rank).
std::vector<MeshHost> mesh_hosts(const nlohmann::json& identities);

// The host of `rank`, or one whose name and device are "?" for a rank beyond `hosts`.
const MeshHost& host_at(const std::vector<MeshHost>& hosts, int rank);

}  // namespace rdmabench
