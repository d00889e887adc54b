#include "cli/doctor_command.h"

#include <cxxopts.hpp>
#include <iostream>

#include "bench/pattern_catalogue.h"
#include "core/error.h"
#include "datapath/endpoint.h"
#include "host/doctor_facts.h"
#include "host/host_info.h"
#include "spec/test_spec.h"

namespace rdmabench {

namespace {

constexpr const char* kExitStatus =
    "Exit status: 0 every finding ok, 10 the worst is a warning, 11 a check failed, 3 no RDMA "
    "device (the host's own checks are still printed), 2 usage.";

int exit_status_of(const std::vector<Finding>& findings, bool no_device) {
  if (no_device) return static_cast<int>(ExitCode::kNoDevice);
  switch (worst(findings)) {
    case Level::kOk:
      return 0;
    case Level::kWarn:
      return static_cast<int>(ExitCode::kDoctorWarn);
    case Level::kFail:
      return static_cast<int>(ExitCode::kDoctorFail);
  }
  return static_cast<int>(ExitCode::kInternal);
}

}  // namespace

uint64_t default_run_registered_bytes() {
  uint64_t most = 0;
  TestSpec spec;
  for (const Pattern& pattern : registered_patterns())
    for (const Mode mode : {Mode::kBandwidth, Mode::kLatency})
      for (const uint64_t size : parse_sizes(kDefaultSizes)) {
        if (!pattern->sizes.accepts(size)) continue;  // a default run skips it
        spec.pattern = pattern;
        spec.mode = mode;
        spec.size = size;
        for (const Side side : {Side::kClient, Side::kServer})
          most = std::max(most, registered_bytes(spec, side));
      }
  return most;
}

int run_doctor_command(int argc, char** argv) {
  cxxopts::Options options(
      "rdmabench doctor",
      "Check this host before trusting a figure: each RDMA port's state, link and MTU against "
      "its maximum; the PCIe link against its maximum; the NUMA node and where a run's threads "
      "go by default; the CPU frequency governor; RoCE v2 GIDs; hugepages; the firmware; the "
      "memlock limit against what a default run registers. One line a finding: ok, warn or "
      "fail, and what to do.");
  options.add_options()("json", "Print JSON (docs/doctor.schema.json) instead of lines")(
      "h,help", "Show help");
  const auto args = options.parse(argc, argv);
  if (args.count("help")) {
    std::cout << options.help() << "\n" << kExitStatus << "\n";
    return 0;
  }
  const DoctorFacts facts = gather_doctor_facts(default_run_registered_bytes());
  const std::vector<Finding> findings = run_checks(facts);
  const int status = exit_status_of(findings, facts.devices.empty());
  if (args.count("json")) {
    nlohmann::json report = doctor_report_json(findings, status);
    report["host"] = host_name();
    std::cout << report.dump(2) << "\n";
  } else {
    std::cout << "rdmabench doctor on " << host_name() << "\n";
    for (const Finding& f : findings) std::cout << finding_line(f) << "\n";
    std::cout << "worst: " << to_string(worst(findings)) << " (exit " << status << ")\n";
  }
  return status;
}

}  // namespace rdmabench
