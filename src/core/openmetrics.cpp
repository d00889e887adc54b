#include "core/openmetrics.h"

#include <cmath>
#include <cstdio>
#include <set>

#include "core/error.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {

bool name_char(char c, bool first, bool colon) {
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  return letter || (colon && c == ':') || (!first && c >= '0' && c <= '9');
}

bool valid_name(std::string_view name, bool colon) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i)
    if (!name_char(name[i], i == 0, colon)) return false;
  return true;
}

// A label value or a help text: printable UTF-8 (Prometheus refuses a file with bytes that are
// not UTF-8), then the format's escapes. A help text may not hold '"' in Prometheus' parser.
std::string escaped(std::string_view text, bool help) {
  std::string out;
  for (char c : printable(text, Keep::kUtf8)) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == '"')
      out += help ? "'" : "\\\"";
    else if (c == '\t')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string label_set(const MetricFamily& family, const MetricSample& sample) {
  std::string out;
  std::set<std::string_view> names;
  for (const MetricLabel& l : sample.labels) {
    if (!valid_label_name(l.name) || !names.insert(l.name).second)
      throw Error(ExitCode::kInternal, "metric " + family.name + ": label '" +
                                           printable(l.name, Keep::kPrintableAscii, 60) +
                                           "' is not a valid label name, or is given twice");
    out += (out.empty() ? "" : ",") + l.name + "=\"" + escaped(l.value, false) + "\"";
  }
  return out.empty() ? out : "{" + out + "}";
}

void write_family(const MetricFamily& family, std::string& out) {
  if (!valid_metric_name(family.name))
    throw Error(ExitCode::kInternal, "'" + printable(family.name, Keep::kPrintableAscii, 60) +
                                         "' is not a valid metric name");
  out += "# HELP " + family.name + " " + escaped(family.help, true) + "\n";
  out += "# TYPE " + family.name + " gauge\n";
  std::set<std::string> seen;
  for (const MetricSample& s : family.samples) {
    const std::string labels = label_set(family, s);
    if (!seen.insert(labels).second)
      throw Error(ExitCode::kInternal,
                  "metric " + family.name + ": two samples with the labels " + labels);
    out += family.name + labels + " " + number(s.value) + "\n";
  }
}

}  // namespace

bool valid_metric_name(std::string_view name) {
  return valid_name(name, true);
}

bool valid_label_name(std::string_view name) {
  return valid_name(name, false) && !name.starts_with("__");
}

std::string label_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.is_null() ? "" : value.dump();
}

void MetricFamilies::push(MetricFamily family) {
  index_.emplace(family.name, families_.size());
  families_.push_back(std::move(family));
}

void MetricFamilies::add(const std::string& name, const std::string& help, MetricSample sample) {
  const auto [at, added] = index_.emplace(name, families_.size());
  if (added) families_.push_back({name, help, {}});
  families_[at->second].samples.push_back(std::move(sample));
}

std::string openmetrics_text(const std::vector<MetricFamily>& families) {
  std::string out;
  std::set<std::string_view> names;
  for (const MetricFamily& f : families) {
    if (!names.insert(f.name).second)
      throw Error(ExitCode::kInternal, "metric family " + f.name + " given twice");
    write_family(f, out);
  }
  return out + "# EOF\n";
}

}  // namespace rdmabench
