#include "cli/run_params.h"

#include "control/spec_json.h"

namespace rdmabench {

nlohmann::json params_of(const cxxopts::ParseResult& args, const WhatToRun& what,
                         const SuiteOptions& so, const PassLimits& limits) {
  nlohmann::json params = to_json(so.base);
  for (const char* key : {"pattern", "mode", "cq", "size", "rate", "qps", "threads", "post_list"})
    params.erase(key);
  params["qps"] = args["qps"].as<std::string>();
  params["post_list"] = args["post-list"].as<std::string>();
  params["threads"] = so.threads;
  params["cpus"] = args.count("cpus") ? args["cpus"].as<std::string>() : std::string();
  params["numa"] = args.count("numa") ? args["numa"].as<std::string>() : std::string();
  params["duration_s"] =
      so.duration_ns > 0 ? nlohmann::json(so.duration_ns * 1e-9) : nlohmann::json(nullptr);
  params["margin_s"] =
      so.duration_ns > 0 ? nlohmann::json(so.margin_ns * 1e-9) : nlohmann::json(nullptr);
  params["profile"] = what.profile;
  params["patterns"] = what.pattern;
  params["modes"] = what.mode;
  params["cq"] = what.cq;
  params["sizes"] = what.sizes;
  params["rates"] = args["rate"].as<std::string>();
  params["iters"] = so.iterations ? nlohmann::json(*so.iterations) : nlohmann::json(nullptr);
  params["timeout_s"] = args["timeout"].as<double>();
  params["warmup"] = so.warmup;
  params["server"] = so.host + ":" + std::to_string(so.port);
  // What was asked (auto, rdmacm or oob); the context's "bootstrap" says what was used. The
  // base spec's own field is only chosen later, by the probe.
  params["cm"] = args["cm"].as<std::string>();
  params["clock"] = args["clock"].as<std::string>();
  params["counters"] = args["counters"].as<std::string>();
  params["ib_port"] = so.ib_port;
  params["report_every_s"] =
      so.report_every.count() > 0
          ? nlohmann::json(static_cast<double>(so.report_every.count()) / 1e3)
          : nlohmann::json(nullptr);
  params["min_bw_gbps"] =
      limits.min_bw_gbps ? nlohmann::json(*limits.min_bw_gbps) : nlohmann::json(nullptr);
  params["max_lat"] = args.count("max-lat") ? nlohmann::json(args["max-lat"].as<std::string>())
                                            : nlohmann::json(nullptr);
  return params;
}

}  // namespace rdmabench
