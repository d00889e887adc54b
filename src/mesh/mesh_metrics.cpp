#include "mesh/mesh_metrics.h"

#include <set>
#include <string>

#include "measure/counter_metric.h"

namespace rdmabench {

namespace {

std::set<int> ranks_in(const nlohmann::json& list) {
  std::set<int> out;
  if (list.is_array())
    for (const auto& r : list)
      if (r.is_number_integer()) out.insert(r.get<int>());
  return out;
}

// Three gauges per host: flagged slow, resending, or set up differently by the verdict.
void add_hosts(const nlohmann::json& report, MetricFamilies& out) {
  const nlohmann::json verdict = report.value("verdict", nlohmann::json::object());
  const struct {
    const char* name;
    const char* help;
    const char* list;
  } kinds[] = {{"rdmabench_mesh_host_slow",
                "1 when the verdict names the host slow (its pairs below "
                "--min-fraction of the median), else 0",
                "slow_hosts"},
               {"rdmabench_mesh_host_resending",
                "1 when the verdict names the host for resending more "
                "than --max-resends per message, else 0",
                "resending_hosts"},
               {"rdmabench_mesh_host_differs",
                "1 when the host's setup differs from most hosts' "
                "(firmware, MTU, link: see the report), else 0",
                "differing_hosts"}};
  for (const auto& kind : kinds) {
    const std::set<int> flagged = ranks_in(verdict.value(kind.list, nlohmann::json()));
    MetricFamily f{kind.name, kind.help, {}};
    for (const auto& h : report.value("hosts", nlohmann::json::array())) {
      const int rank = h.value("rank", -1);
      f.samples.push_back({{{"rank", std::to_string(rank)},
                            {"hostname", label_text(h.value("hostname", nlohmann::json()))},
                            {"device", label_text(h.value("device", nlohmann::json()))},
                            {"group", label_text(h.value("group", nlohmann::json()))}},
                           flagged.contains(rank) ? 1.0 : 0.0});
    }
    out.push(std::move(f));
  }
}

// Each benchmark's judged figure: its median over the pairs and the slow threshold, in the
// figure's metric units; its slow and failed pairs.
void add_benchmarks(const nlohmann::json& report, MetricFamilies& out) {
  for (const auto& b : report.value("benchmarks", nlohmann::json::array())) {
    const std::vector<MetricLabel> labels = {{"benchmark", label_text(b.value("name", ""))}};
    const nlohmann::json o = b.value("outliers", nlohmann::json::object());
    const auto metric = counter_metric(b.value("figure", std::string()));
    if (metric && o.value("median", nlohmann::json()).is_number()) {
      const std::string unit = metric->name.substr(std::string("rdmabench_").size());
      out.add("rdmabench_mesh_median_" + unit,
              "the judged figure's median over the measured pairs: " + metric->help,
              {labels, o["median"].get<double>() * metric->scale});
      if (o.value("threshold", nlohmann::json()).is_number())
        out.add("rdmabench_mesh_slow_threshold_" + unit,
                "a pair beyond this is slow (--min-fraction of the median): " + metric->help,
                {labels, o["threshold"].get<double>() * metric->scale});
    }
    const size_t slow = o.value("slow_pairs", nlohmann::json::array()).size() +
                        o.value("slow_pairs_not_listed", size_t{0});
    const size_t failed =
        b.value("errors", nlohmann::json::array()).size() + b.value("errors_not_listed", size_t{0});
    out.add("rdmabench_mesh_benchmark_slow_pairs", "pairs of the benchmark judged slow",
            {labels, static_cast<double>(slow)});
    out.add("rdmabench_mesh_benchmark_failed_pairs", "pairs of the benchmark that failed",
            {labels, static_cast<double>(failed)});
  }
}

// --traffic: each host's best and worst round (bytes per second through its NIC, sent and
// received), labelled with the pattern.
void add_traffic(const nlohmann::json& report, MetricFamilies& out) {
  const nlohmann::json t = report.value("traffic", nlohmann::json::object());
  const nlohmann::json hosts = report.value("hosts", nlohmann::json::array());
  const std::string pattern = label_text(t.value("pattern", nlohmann::json()));
  MetricFamily best{"rdmabench_mesh_traffic_host_best_bytes_per_second",
                    "--traffic: what the host's NIC carried, sent and received, in its best "
                    "round (a host is judged on it; higher is better)",
                    {}};
  MetricFamily worst{"rdmabench_mesh_traffic_host_worst_bytes_per_second",
                     "--traffic: what the host's NIC carried, sent and received, in its worst "
                     "round",
                     {}};
  for (const auto& h : t.value("hosts", nlohmann::json::array())) {
    const int rank = h.value("rank", -1);
    const nlohmann::json who = rank >= 0 && static_cast<size_t>(rank) < hosts.size()
                                   ? hosts[static_cast<size_t>(rank)]
                                   : nlohmann::json::object();
    const std::vector<MetricLabel> labels = {
        {"rank", std::to_string(rank)},
        {"hostname", label_text(who.value("hostname", nlohmann::json()))},
        {"device", label_text(who.value("device", nlohmann::json()))},
        {"pattern", pattern}};
    best.samples.push_back({labels, h.value("best_bytes_per_second", 0.0)});
    worst.samples.push_back({labels, h.value("worst_bytes_per_second", 0.0)});
  }
  if (best.samples.empty()) return;
  out.push(std::move(best));
  out.push(std::move(worst));
}

}  // namespace

std::vector<MetricFamily> mesh_metrics(const nlohmann::json& report, int exit_code,
                                       double finished_unix_s) {
  MetricFamilies out;
  out.push({"rdmabench_mesh_exit_code",
            "the mesh's exit status (0: no pair or host flagged; 7: outliers; rdmabench mesh "
            "--help lists the others)",
            {{{}, static_cast<double>(exit_code)}}});
  out.push({"rdmabench_mesh_finished_timestamp_seconds",
            "when the mesh ended, in seconds since 1970 (an old value: the check stopped running)",
            {{{}, finished_unix_s}}});
  if (report.is_object()) {
    const nlohmann::json verdict = report.value("verdict", nlohmann::json::object());
    const nlohmann::json context = report.value("context", nlohmann::json::object());
    out.push({"rdmabench_mesh_ranks",
              "ranks (hosts' NICs) in the mesh",
              {{{}, context.value("ranks", 0.0)}}});
    for (const char* key : {"slow_pairs", "resending_pairs", "failed_pairs"})
      out.push({std::string("rdmabench_mesh_") + key,
                std::string("the verdict's count of ") + key + " over every benchmark",
                {{{}, verdict.value(key, 0.0)}}});
    add_hosts(report, out);
    add_benchmarks(report, out);
    add_traffic(report, out);
  }
  return std::move(out).take();
}

}  // namespace rdmabench
