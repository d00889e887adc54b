#include "cli/doctor_command.h"

#include <cxxopts.hpp>
#include <iostream>

#include "cli/option_checks.h"
#include "cli/repeated_options.h"
#include "cli/unknown_options.h"
#include "core/error.h"
#include "core/exit_codes.h"
#include "core/metrics_file.h"
#include "datapath/default_registration.h"
#include "host/doctor_checks.h"
#include "host/doctor_facts.h"
#include "host/doctor_metrics.h"
#include "host/host_info.h"
#include "host/timing_environment.h"

namespace rdmabench {

namespace {

int exit_status_of(const std::vector<Finding>& findings) {
  if (!findings.empty() && findings.front().check == kNoDeviceCheck)
    return static_cast<int>(ExitCode::kNoDevice);
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

void print_findings(const std::vector<Finding>& findings, int status, bool json) {
  if (json) {
    nlohmann::json report = doctor_report_json(findings, status);
    report["host"] = host_name();
    std::cout << report.dump(2) << "\n";
  } else {
    std::cout << "rdmabench doctor on " << host_name() << "\n";
    for (const Finding& f : findings) std::cout << finding_line(f) << "\n";
    std::cout << "worst: " << to_string(worst(findings)) << " (exit " << status << ")\n";
  }
}

}  // namespace

int run_doctor_command(int argc, char** argv) {
  cxxopts::Options options(
      "rdmabench doctor",
      "Check this host before trusting a figure: each RDMA port's state, link and MTU against "
      "its maximum; the PCIe link against its maximum; the NUMA node and where a run's threads "
      "go by default; the CPU frequency governor; RoCE v2 GIDs; hugepages; the firmware; the "
      "memlock limit against what a default run registers. One line a finding: ok, warn or "
      "fail, and what to do.");
  options.add_options()("json", "Print JSON (docs/doctor.schema.json) instead of lines")(
      "metrics",
      "Also write the findings as OpenMetrics text to FILE, replaced whole (for node_exporter's "
      "textfile collector: name it *.prom in its directory)",
      cxxopts::value<std::string>())("h,help", "Show help");
  options.allow_unrecognised_options();
  const auto args = options.parse(argc, argv);
  refuse_repeated_options(options, args);
  check_unmatched(args.unmatched(), options, {"doctor"});
  if (args.count("help")) {
    std::cout << options.help() << "\n" << exit_status_help();
    return 0;
  }
  const std::string metrics =
      args.count("metrics") ? metrics_option(args["metrics"].as<std::string>()) : "";
  const std::vector<Finding> findings = run_checks(
      gather_doctor_facts(default_run_registered_bytes(), timing_environment().kernel_tuning));
  const int status = exit_status_of(findings);
  print_findings(findings, status, args.count("json") > 0);
  if (metrics.empty()) return status;
  return write_metrics_file(metrics, doctor_metrics(findings, status, host_name()), status,
                            std::cerr, "rdmabench doctor");
}

}  // namespace rdmabench
