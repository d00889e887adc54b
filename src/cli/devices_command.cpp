#include "cli/devices_command.h"

#include <cxxopts.hpp>
#include <iostream>

#include "cli/option_checks.h"
#include "cli/repeated_options.h"
#include "cli/unknown_options.h"
#include "core/device_report.h"
#include "core/device_report_json.h"
#include "core/device_report_text.h"
#include "core/error.h"
#include "core/exit_codes.h"
#include "host/device_probe.h"
#include "verbs/device_list.h"
#include "verbs/verbs_error.h"

namespace rdmabench {

namespace {

// The device `--device` names, or every device; Error(kNoDevice) when there is none.
std::vector<DeviceReport> reports_for(const cxxopts::ParseResult& args) {
  std::vector<DeviceReport> devices;
  if (args.count("device"))
    devices.push_back(describe_device(DeviceList().open(args["device"].as<std::string>())));
  else
    devices = describe_all_devices();
  if (devices.empty()) throw Error(ExitCode::kNoDevice, no_device_advice());
  return devices;
}

}  // namespace

int run_devices_command(int argc, char** argv) {
  cxxopts::Options options("rdmabench devices",
                           "List RDMA devices: ports, state, link layer, MTU, speed, the GID table "
                           "with each entry's type and mapped address, and the GID index rdmabench "
                           "picks by default.");
  options.add_options()("json", "Print JSON instead of a table")(
      "d,device", "Show only this device", cxxopts::value<std::string>())("h,help", "Show help");
  options.allow_unrecognised_options();
  const auto args = options.parse(argc, argv);
  refuse_repeated_options(options, args);
  check_unmatched(args.unmatched(), options, {"devices"});
  if (args.count("help")) {
    std::cout << options.help() << "\n" << exit_status_help();
    return 0;
  }

  const bool json = args.count("json") > 0;
  try {
    const std::vector<DeviceReport> devices = reports_for(args);
    if (json)
      std::cout << devices_document(devices).dump(2) << "\n";
    else
      print_devices(std::cout, devices);
  } catch (const Error& e) {
    // A reader of --json still gets a document (with no device), as doctor --json gives one.
    if (json && e.exit_code() == ExitCode::kNoDevice)
      std::cout << devices_document({}).dump(2) << "\n";
    throw;
  }
  return 0;
}

}  // namespace rdmabench
