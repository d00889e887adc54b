// A result row's counter as a monitoring system names it (core/openmetrics.h): the catalogue's
// name (counter_catalogue.h) with "rdmabench_" before it and Prometheus' base unit in it
// (microseconds and seconds become _seconds, the value scaled to match), and the index or
// device counter's name its placeholder stands for as a label (qp="3", counter="hw_sent_pkts").
// Derived from the catalogue alone: a new counter needs no line here.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/openmetrics.h"

namespace rdmabench {

struct CounterMetric {
  std::string name;                  // "rdmabench_lat_p50_seconds", "rdmabench_qp_msgs"
  double scale = 1;                  // the row's value times this is the metric's
  std::optional<MetricLabel> label;  // what the placeholder stood for
  std::string help;                  // the catalogue's description and the metric's unit
};

// The metric of a row's counter, or nullopt when the catalogue has no such counter.
std::optional<CounterMetric> counter_metric(std::string_view counter);

}  // namespace rdmabench
