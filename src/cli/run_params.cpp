#include "cli/run_params.h"

#include "cli/number_options.h"
#include "cli/option_checks.h"
#include "host/cpu_placement.h"
#include "messages/spec_json.h"

namespace rdmabench {

namespace {

// --rate's items: a number a second (0: back to back), or "2.5gbps"; none with --load.
nlohmann::json rates_json(const std::vector<OfferedRate>& rates) {
  nlohmann::json out = nlohmann::json::array();
  for (const OfferedRate& r : rates)
    if (!r.every_qp)
      out.push_back(r.gbps > 0 ? nlohmann::json(r.gbps_text() + "gbps")
                               : nlohmann::json(r.per_second));
  return out;
}
// --load's items, every QP's per second (none with --rate).
nlohmann::json loads_json(const std::vector<OfferedRate>& rates) {
  nlohmann::json out = nlohmann::json::array();
  for (const OfferedRate& r : rates)
    if (r.every_qp) out.push_back(r.per_second);
  return out;
}

nlohmann::json what_to_run_json(const WhatToRun& what, const BenchmarkMatrix& matrix) {
  nlohmann::json patterns = nlohmann::json::array(), modes = nlohmann::json::array(),
                 cqs = nlohmann::json::array();
  for (const auto& [pattern, sizes] : matrix.patterns) patterns.push_back(pattern.name());
  for (const Mode m : matrix.modes) modes.push_back(to_string(m));
  for (const CqChoice& c : matrix.cq_choices) cqs.push_back(c.text());
  return {{"profile", what.profile},
          {"patterns", patterns},
          {"modes", modes},
          {"cq", cqs},
          {"sizes", matrix.sizes},
          {"rates", rates_json(matrix.rates)},
          {"loads", loads_json(matrix.rates)},
          {"qps", matrix.qps},
          {"post_list", matrix.post_lists}};
}

nlohmann::json optional_json(bool given, const auto& value) {
  return given ? nlohmann::json(value) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json params_of(const cxxopts::ParseResult& args, const WhatToRun& what,
                         const SuiteOptions& so, const PassLimits& limits) {
  const BenchmarkMatrix& m = so.matrix;
  nlohmann::json params = to_json(m.base);
  for (const char* key : {"pattern", "mode", "cq", "size", "rate", "qps", "threads", "post_list"})
    params.erase(key);
  params.update(what_to_run_json(what, m));
  params["threads"] = m.threads;
  const PlacementRequest& placement = so.placement;
  params["cpus"] = args.count("cpus") ? placement.cpus : std::vector<int>{};
  params["numa"] = !args.count("numa")           ? nlohmann::json(nullptr)
                   : *placement.numa == kNumaOff ? nlohmann::json("off")
                                                 : nlohmann::json(*placement.numa);
  const RunLength& length = so.length;
  params["duration_s"] = optional_json(length.duration_ns > 0, length.duration_ns * 1e-9);
  params["margin_s"] = optional_json(length.duration_ns > 0, length.margin_ns * 1e-9);
  params["iters"] = optional_json(length.iterations > 0, length.iterations);
  params["timeout_s"] = std::chrono::duration<double>(so.peer.timeout).count();
  params["warmup"] = length.warmup;
  params["server"] = so.peer.address.text();
  // What was asked (auto, rdmacm or oob); the context's "bootstrap" says what was used. The
  // base spec's own field is only chosen later, by the probe.
  params["cm"] = args["cm"].as<std::string>();
  params["clock"] = args["clock"].as<std::string>();
  params["counters"] = args["counters"].as<std::string>() == "on";
  params["ib_port"] = so.peer.local.ib_port;
  params["gid_index"] =
      so.peer.local.gid_index ? nlohmann::json(*so.peer.local.gid_index) : nullptr;
  const auto every = so.reporting.report_every;
  params["report_every_s"] =
      optional_json(every.count() > 0, static_cast<double>(every.count()) / 1e3);
  params["min_bw_gbps"] =
      optional_json(limits.min_bw_gbps.has_value(), limits.min_bw_gbps.value_or(0));
  params["max_lat"] = optional_json(args.count("max-lat") > 0,
                                    args.count("max-lat") ? args["max-lat"].as<std::string>() : "");
  return params;
}

}  // namespace rdmabench
