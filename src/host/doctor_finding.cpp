#include "host/doctor_finding.h"

#include <algorithm>

#include "core/version.h"

namespace rdmabench {

std::string to_string(Level level) {
  switch (level) {
    case Level::kOk:
      return "ok";
    case Level::kWarn:
      return "warn";
    case Level::kFail:
      return "fail";
  }
  return "?";
}

Level worst(const std::vector<Finding>& findings) {
  Level w = Level::kOk;
  for (const Finding& f : findings) w = std::max(w, f.level);
  return w;
}

nlohmann::json to_json(const Finding& f) {
  return {{"level", to_string(f.level)}, {"subject", f.subject}, {"check", f.check},
          {"detail", f.detail},          {"advice", f.advice},   {"value", f.value},
          {"compared", f.compared}};
}

nlohmann::json doctor_report_json(const std::vector<Finding>& findings, int exit_status) {
  nlohmann::json list = nlohmann::json::array();
  for (const Finding& f : findings) list.push_back(to_json(f));
  return {{"rdmabench_doctor_schema", kDoctorSchemaVersion},
          {"findings", list},
          {"worst", to_string(worst(findings))},
          {"exit_status", exit_status}};
}

std::string finding_line(const Finding& f) {
  std::string line = to_string(f.level);
  line.resize(6, ' ');
  line += f.subject + " " + f.check + ": " + f.detail;
  if (!f.advice.empty()) line += "\n      -> " + f.advice;
  return line;
}

nlohmann::json compared_findings(const std::vector<Finding>& findings, const std::string& device) {
  nlohmann::json compared = nlohmann::json::object();
  for (const Finding& f : findings) {
    if (!f.compared) continue;
    std::string key;
    if (f.subject == "host" || f.subject == device) {
      key = f.check;
    } else if (f.subject.starts_with(device + " ")) {
      key = f.subject.substr(device.size() + 1) + " " + f.check;  // "port 1 MTU"
    } else {
      continue;  // another device of this host
    }
    compared[key] = f.value;
  }
  return compared;
}

}  // namespace rdmabench
