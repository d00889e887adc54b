// Figures for a monitoring system: the OpenMetrics text format, which Prometheus' own text
// parser, node_exporter's textfile collector and `promtool check metrics` read as well. Every
// family is a gauge: a file holds what its last run measured, and a count that starts again at
// each run is not what Prometheus calls a counter.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace rdmabench {

struct MetricLabel {
  std::string name;   // [a-zA-Z_][a-zA-Z0-9_]*, not starting with "__"
  std::string value;  // any text; made printable UTF-8 and escaped when written
};

struct MetricSample {
  std::vector<MetricLabel> labels;  // no two samples of a family with the same set
  double value = 0;
};

struct MetricFamily {
  std::string name;  // [a-zA-Z_:][a-zA-Z0-9_:]*, base units in it (_seconds, _bytes)
  std::string help;  // one line
  std::vector<MetricSample> samples;
};

bool valid_metric_name(std::string_view name);
bool valid_label_name(std::string_view name);

// A JSON value of a report as a label's value: a string as it is, null as "", anything else as
// its JSON text (a number, say).
std::string label_text(const nlohmann::json& value);

// Families made sample by sample, each where its name first came: what a translator of rows
// (a run's counters, a mesh's benchmarks) builds.
class MetricFamilies {
 public:
  // A whole family (its samples given), after those before it.
  void push(MetricFamily family);
  // `sample` into the family `name`, made with `help` the first time the name comes.
  void add(const std::string& name, const std::string& help, MetricSample sample);
  std::vector<MetricFamily> take() && { return std::move(families_); }

 private:
  std::vector<MetricFamily> families_;
  std::map<std::string, size_t> index_;  // name -> its place in families_
};

// The families in their order, each "# HELP", "# TYPE ... gauge" and its samples, then "# EOF".
// Throws Error(kInternal) on a name that is not valid, a family named twice, or two samples of
// a family with the same labels: each is a bug in the code that made them.
std::string openmetrics_text(const std::vector<MetricFamily>& families);

}  // namespace rdmabench
