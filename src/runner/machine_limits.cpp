#include "runner/machine_limits.h"

#include <optional>

#include "core/bounded_json.h"
#include "core/error.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {

[[noreturn]] void refuse(const std::string& what, const std::string& problem) {
  throw Error(ExitCode::kUsage, what + ": " + problem);
}

void check_keys(const nlohmann::json& object, std::initializer_list<const char*> allowed,
                const std::string& what, const std::string& where) {
  if (!object.is_object()) refuse(what, where + " must be an object, not " + json_excerpt(object));
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (known) continue;
    std::string takes;
    for (const char* a : allowed) takes += (takes.empty() ? "" : ", ") + std::string(a);
    refuse(what, where + " has '" + peer_excerpt(key) + "', which it does not take (it takes " +
                     takes + ")");
  }
}

// A limit's text as the option reads it, its error prefixed with where it is in the file.
template <typename Parse>
auto parsed(Parse parse, const std::string& text, const std::string& what,
            const std::string& where) {
  try {
    return parse(text);
  } catch (const Error& e) {
    refuse(what, where + ": " + e.what());
  }
}

// One entry: {"min_bw": 25 or "25", "max_lat": "p99:20"}, read as the options read them.
MachineLimits entry_limits(const nlohmann::json& entry, const std::string& what,
                           const std::string& where) {
  check_keys(entry, {"min_bw", "max_lat"}, what, where);
  if (entry.empty()) refuse(what, where + " holds no limit (min_bw, max_lat)");
  MachineLimits out;
  PassLimits& limits = out.limits;
  if (const auto bw = entry.find("min_bw"); bw != entry.end()) {
    if (!bw->is_number() && !bw->is_string())
      refuse(what, where + ": min_bw must be Gb/s, not " + json_excerpt(*bw));
    limits.min_bw_gbps = parsed(parse_min_bandwidth,
                                bw->is_string() ? bw->get<std::string>() : bw->dump(), what, where);
  }
  if (const auto lat = entry.find("max_lat"); lat != entry.end()) {
    if (!lat->is_string())
      refuse(what, where + ": max_lat must be STATISTIC:US text, not " + json_excerpt(*lat));
    limits.max_lat = parsed(parse_latency_limit, lat->get<std::string>(), what, where);
    out.max_lat_text = lat->get<std::string>();
  }
  return out;
}

constexpr size_t kMostMachineTypes = 4096;

}  // namespace

// Every entry is checked, not only this host's: a file with a mistake fails on any host.
MachineLimits machine_limits(const nlohmann::json& file, const std::string& machine_type,
                             const std::string& what) {
  check_keys(file, {"machine_types", "default"}, what, "the file");
  const nlohmann::json types = file.value("machine_types", nlohmann::json::object());
  if (!types.is_object() || types.size() > kMostMachineTypes)
    refuse(what, "machine_types must be an object of at most " + std::to_string(kMostMachineTypes) +
                     " machine types");
  std::optional<MachineLimits> mine;
  for (const auto& [name, entry] : types.items()) {
    MachineLimits limits =
        entry_limits(entry, what, "machine type '" + peer_excerpt(name, 80) + "'");
    limits.entry = name;
    if (name == machine_type && !machine_type.empty()) mine = limits;
  }
  std::optional<MachineLimits> fallback;
  if (file.contains("default")) fallback = entry_limits(file["default"], what, "default");
  if (mine) return *mine;
  if (fallback) {
    fallback->entry = "default";
    return *fallback;
  }
  refuse(what, "no entry for this host's machine type '" + peer_excerpt(machine_type, 80) +
                   "' (DMI product_name" + (machine_type.empty() ? ": none here" : "") +
                   ") and no \"default\"");
}

MachineLimits read_machine_limits(const std::string& path, const std::string& machine_type) {
  const std::string what = "--limits-file " + printable(path);
  return machine_limits(read_bounded_json_file(path, kLimitsFileBounds, what), machine_type, what);
}

}  // namespace rdmabench
