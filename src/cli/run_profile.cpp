#include "cli/run_profile.h"

#include <algorithm>
#include <array>

#include "bench/pattern_catalogue.h"
#include "core/error.h"

namespace rdmabench {

namespace {

struct Profile {
  const char* name;
  const char* pattern;
  const char* mode;
  const char* cq;
  const char* sizes;
  std::optional<uint64_t> iters;
  const char* summary;
};

// perftest's bw default is 5000 messages; one count serves both modes here.
constexpr std::array kProfiles = {
    Profile{"quick", "write", "all", "busy", "2,4K,64K", 5000,
            "write bw and lat, busy CQ, 2 B, 4 KiB and 64 KiB, 5000 messages each"},
    Profile{"full", "all", "all", "all", "2:8M", std::nullopt,
            "every pattern, both modes, busy and event CQ, 2 B..8 MiB, Google Benchmark's "
            "min_time"},
};

const Profile& profile_named(const std::string& name) {
  for (const Profile& p : kProfiles)
    if (name == p.name) return p;
  throw Error(ExitCode::kUsage, "--profile: unknown '" + name.substr(0, 40) + "' (quick, full)");
}

}  // namespace

std::string profile_help() {
  std::string text = "What to sweep where --pattern, --mode, --cq or --sizes do not say:";
  for (const Profile& p : kProfiles) text += std::string(" ") + p.name + ": " + p.summary + ";";
  return text + " default: quick for a bare run HOST, else full";
}

WhatToRun what_to_run(const cxxopts::ParseResult& args) {
  // A --benchmark_filter names what to run too (from the whole sweep).
  const bool filtered = std::ranges::any_of(
      args.unmatched(), [](const std::string& a) { return a.starts_with("--benchmark_filter"); });
  const bool any_given = args.count("pattern") || args.count("mode") || args.count("cq") ||
                         args.count("sizes") || filtered;
  const std::string name = args.count("profile") ? args["profile"].as<std::string>()
                           : any_given           ? "full"
                                                 : "quick";
  const Profile& p = profile_named(name);
  auto given_or = [&](const char* option, const char* fallback) {
    return args.count(option) ? args[option].as<std::string>() : std::string(fallback);
  };
  WhatToRun w{p.name,
              given_or("pattern", p.pattern),
              given_or("mode", p.mode),
              given_or("cq", p.cq),
              given_or("sizes", p.sizes),
              std::nullopt,
              !any_given && !args.count("profile"),
              args.count("pattern") > 0};
  if (!args.count("iters") && !args.count("duration")) w.iters = p.iters;
  return w;
}

std::string quick_pattern(const Transport& transport, bool srq) {
  const auto write = parse_pattern("write");
  return write && (*write)->needs.met_by(transport.info()) && !srq ? "write" : "send";
}

std::string bare_run_note(const WhatToRun& w, const std::string& summary) {
  return "rdmabench: a short default run (--profile " + w.profile + "): " + summary +
         "; the full sweep, every pattern, mode and CQ strategy at 2 B..8 MiB, is --profile full "
         "(or name what to run: --pattern, --mode, --cq, --sizes)";
}

}  // namespace rdmabench
