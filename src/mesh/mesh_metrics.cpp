#include "mesh/mesh_metrics.h"

#include <set>
#include <string>

#include "measure/counter_metric.h"

namespace rdmabench {

namespace {

// The hosts a verdict flags, by kind.
struct FlaggedHosts {
  std::set<int> slow;
  std::set<int> resending;
  std::set<int> differing;
};

// A host's labels: its rank, name, device and group.
std::vector<MetricLabel> host_labels(const MeshHost& h) {
  return {{"rank", std::to_string(h.rank)},
          {"hostname", h.hostname},
          {"device", h.device},
          {"group", h.group.value_or("")}};
}

// Three gauges per host: flagged slow, resending, or set up differently by the verdict.
void add_hosts(const std::vector<MeshHost>& hosts, const FlaggedHosts& flagged,
               MetricFamilies& out) {
  const struct {
    const char* name;
    const char* help;
    const std::set<int>& ranks;
  } kinds[] = {{"rdmabench_mesh_host_slow",
                "1 when the verdict names the host slow (its pairs below "
                "--min-fraction of the median), else 0",
                flagged.slow},
               {"rdmabench_mesh_host_resending",
                "1 when the verdict names the host for resending more "
                "than --max-resends per message, else 0",
                flagged.resending},
               {"rdmabench_mesh_host_differs",
                "1 when the host's setup differs from most hosts' "
                "(firmware, MTU, link: see the report), else 0",
                flagged.differing}};
  for (const auto& kind : kinds) {
    MetricFamily f{kind.name, kind.help, {}};
    for (const MeshHost& h : hosts)
      f.samples.push_back({host_labels(h), kind.ranks.contains(h.rank) ? 1.0 : 0.0});
    out.push(std::move(f));
  }
}

// Each benchmark's judged figure: its median over the pairs and the slow threshold, in the
// figure's metric units; its slow and failed pairs.
void add_benchmarks(const std::vector<MeshBenchmark>& benchmarks, MetricFamilies& out) {
  for (const MeshBenchmark& b : benchmarks) {
    const std::vector<MetricLabel> labels = {{"benchmark", b.name}};
    if (const auto metric = counter_metric(b.figure)) {
      const std::string unit = metric->name.substr(std::string("rdmabench_").size());
      out.add("rdmabench_mesh_median_" + unit,
              "the judged figure's median over the measured pairs: " + metric->help,
              {labels, b.outliers.median * metric->scale});
      out.add("rdmabench_mesh_slow_threshold_" + unit,
              "a pair beyond this is slow (--min-fraction of the median): " + metric->help,
              {labels, b.outliers.threshold * metric->scale});
    }
    out.add("rdmabench_mesh_benchmark_slow_pairs", "pairs of the benchmark judged slow",
            {labels, static_cast<double>(b.outliers.slow.count())});
    out.add("rdmabench_mesh_benchmark_failed_pairs", "pairs of the benchmark that failed",
            {labels, static_cast<double>(b.errors.size() + b.errors_not_listed)});
  }
}

// --traffic: each host's best and worst round (bytes per second through its NIC, sent and
// received), labelled with the pattern.
void add_traffic(const TrafficReport& report, MetricFamilies& out) {
  MetricFamily best{"rdmabench_mesh_traffic_host_best_bytes_per_second",
                    "--traffic: what the host's NIC carried, sent and received, in its best "
                    "round (a host is judged on it; higher is better)",
                    {}};
  MetricFamily worst{"rdmabench_mesh_traffic_host_worst_bytes_per_second",
                     "--traffic: what the host's NIC carried, sent and received, in its worst "
                     "round",
                     {}};
  for (const HostLoad& h : report.verdict.hosts) {
    const MeshHost& who = host_at(report.hosts, h.rank);
    const std::vector<MetricLabel> labels = {{"rank", std::to_string(h.rank)},
                                             {"hostname", who.hostname},
                                             {"device", who.device},
                                             {"pattern", to_string(report.facts.pattern)}};
    best.samples.push_back({labels, h.best});
    worst.samples.push_back({labels, h.worst});
  }
  if (best.samples.empty()) return;
  out.push(std::move(best));
  out.push(std::move(worst));
}

// What every mesh's metrics begin with: how it ended, and when.
MetricFamilies ending(int exit_code, double finished_unix_s) {
  MetricFamilies out;
  out.push({"rdmabench_mesh_exit_code",
            "the mesh's exit status (0: no pair or host flagged; 7: outliers; rdmabench mesh "
            "--help lists the others)",
            {{{}, static_cast<double>(exit_code)}}});
  out.push({"rdmabench_mesh_finished_timestamp_seconds",
            "when the mesh ended, in seconds since 1970 (an old value: the check stopped running)",
            {{{}, finished_unix_s}}});
  return out;
}

// The verdict's counts over every benchmark.
struct VerdictCounts {
  size_t ranks = 0, slow_pairs = 0, resending_pairs = 0, failed_pairs = 0;
};
void add_counts(const VerdictCounts& c, MetricFamilies& out) {
  out.push({"rdmabench_mesh_ranks",
            "ranks (hosts' NICs) in the mesh",
            {{{}, static_cast<double>(c.ranks)}}});
  const std::pair<const char*, size_t> counts[] = {{"slow_pairs", c.slow_pairs},
                                                   {"resending_pairs", c.resending_pairs},
                                                   {"failed_pairs", c.failed_pairs}};
  for (const auto& [key, value] : counts)
    out.push({std::string("rdmabench_mesh_") + key,
              std::string("the verdict's count of ") + key + " over every benchmark",
              {{{}, static_cast<double>(value)}}});
}

}  // namespace

std::vector<MetricFamily> mesh_metrics(const MeshReport* report, int exit_code,
                                       double finished_unix_s) {
  MetricFamilies out = ending(exit_code, finished_unix_s);
  if (report == nullptr) return std::move(out).take();
  const MeshVerdict& v = report->verdict;
  add_counts({report->hosts.size(), v.slow_pairs, v.resending_pairs, v.failed_pairs}, out);
  add_hosts(report->hosts, {v.slow_hosts, v.resending_hosts, v.differing_hosts}, out);
  add_benchmarks(report->benchmarks, out);
  return std::move(out).take();
}

std::vector<MetricFamily> traffic_metrics(const TrafficReport* report, int exit_code,
                                          double finished_unix_s) {
  MetricFamilies out = ending(exit_code, finished_unix_s);
  if (report == nullptr) return std::move(out).take();
  const TrafficVerdict& v = report->verdict;
  add_counts({report->hosts.size(), 0, 0, v.failed_flows}, out);
  add_hosts(report->hosts, {{v.slow_hosts.begin(), v.slow_hosts.end()}, {}, {}}, out);
  add_traffic(*report, out);
  return std::move(out).take();
}

}  // namespace rdmabench
