// One line of `rdmabench doctor`: what was checked on what, how it stands (ok, warn, fail),
// what was seen, and what to do. `value` is the short fact a mesh compares between hosts
// (firmware, link speed, MTU, PCIe link) when `compared` is set.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rdmabench {

enum class Level { kOk, kWarn, kFail };

struct Finding {
  Level level = Level::kOk;
  std::string subject;  // "mlx5_0 port 1", "mlx5_0", "host"
  std::string check;    // "state", "MTU", "PCIe link", "memlock", ...
  std::string detail;   // what was seen
  std::string advice;   // what to do ("" when nothing)
  std::string value;    // the comparable fact
  bool compared = false;
};

std::string to_string(Level level);  // "ok", "warn", "fail"
Level worst(const std::vector<Finding>& findings);

nlohmann::json to_json(const Finding& finding);
// {"findings": [...], "worst": "warn", "exit_status": 10}
nlohmann::json doctor_report_json(const std::vector<Finding>& findings, int exit_status);
// One line a finding: "warn  mlx5_0 PCIe link: 8.0 GT/s x8 ... -> reseat ...".
std::string finding_line(const Finding& finding);

// What a mesh rank compares with the others: {key: value} of the compared findings about
// `device` and the host, the key the finding's check with the device's name left out
// ("port 1 MTU", "firmware", "PCIe link", "CPU frequency").
nlohmann::json compared_findings(const std::vector<Finding>& findings, const std::string& device);

}  // namespace rdmabench
