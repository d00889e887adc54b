#include "measure/counter_metric.h"

#include <vector>

#include "measure/counter_catalogue.h"

namespace rdmabench {

namespace {

// The label a placeholder becomes: {qp} -> qp, {thread} -> thread, {name} -> counter.
std::string label_name(std::string_view placeholder) {
  return placeholder == "name" ? "counter" : std::string(placeholder);
}

std::vector<std::string> tokens(std::string_view name) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= name.size()) {
    const size_t end = std::min(name.find('_', start), name.size());
    if (end > start) out.emplace_back(name.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// The name in base units: a "us" token becomes "seconds" (scale 1e-6), a last "s" token too.
void to_base_units(CounterMetric& m, std::string_view name) {
  const std::vector<std::string> parts = tokens(name);
  m.name = "rdmabench";
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string part = parts[i];
    if (part == "us") {
      part = "seconds";
      m.scale = 1e-6;
    } else if (part == "s" && i + 1 == parts.size()) {
      part = "seconds";
    }
    m.name += "_" + part;
  }
}

std::string unit_words(std::string_view unit) {
  if (unit == "us" || unit == "s") return "seconds";
  if (unit == "B/s") return "bytes per second";
  if (unit == "B") return "bytes";
  if (unit == "1") return "a plain number";
  return std::string(unit);
}

}  // namespace

std::optional<CounterMetric> counter_metric(std::string_view counter) {
  const CounterInfo* info = find_counter(counter);
  if (!info) return std::nullopt;
  CounterMetric m;
  std::string_view pattern = info->name;
  std::string base(pattern);
  const size_t open = pattern.find('{');
  if (open != std::string_view::npos) {
    const size_t close = pattern.find('}', open);
    const std::string_view tail = pattern.substr(close + 1);
    const std::string_view value = counter.substr(open, counter.size() - open - tail.size());
    m.label =
        MetricLabel{label_name(pattern.substr(open + 1, close - open - 1)), std::string(value)};
    base = std::string(pattern.substr(0, open)) + "_" + std::string(tail);
  }
  to_base_units(m, base);
  m.help = std::string(info->description) + " (" + unit_words(info->unit) +
           (info->per.empty() ? "" : " per " + std::string(info->per)) + ")";
  return m;
}

}  // namespace rdmabench
