#include "cli/serve_search_target.h"

#include <iostream>
#include <optional>
#include <sstream>

#include "cli/run_request.h"
#include "core/device_report.h"
#include "core/error.h"
#include "cq/registry.h"
#include "datapath/endpoint.h"
#include "host/device_probe.h"
#include "measure/benchmark_measurement.h"
#include "runner/run_plan.h"
#include "verbs/device_list.h"
#include "verbs/no_device_advice.h"

namespace rdmabench {

namespace {

// Before the bootstrap is chosen: rdma_cm with no device fails with a bare ENODEV.
ServeTargetOptions no_device_is_an_error(ServeTargetOptions options) {
  if (DeviceList().empty()) throw Error(ExitCode::kNoDevice, no_device_advice());
  return options;
}

}  // namespace

// One opening of the device: its first ACTIVE port (a dual-port NIC may be cabled on port 2
// alone; else port 1, whose state the run then reports), and the limits of that port.
ServeSearchTarget::LocalPort ServeSearchTarget::local_port(const Context& ctx,
                                                           std::optional<uint8_t> asked) {
  if (asked) return {*asked, device_limits(ctx, *asked)};  // refuses a port the device lacks
  const DeviceReport report = describe_device(ctx);
  const PortReport* active = first_active_port(report);  // points into report
  const uint8_t port = active != nullptr ? active->number : 1;
  return {port, device_limits(ctx, port)};
}

ServeSearchTarget::ServeSearchTarget(const SearchSpace& space, ServeTargetOptions options)
    : space_(space),
      options_(no_device_is_an_error(std::move(options))),
      bootstrap_(choose_bootstrap(options_.server.cm, options_.server.host, options_.server.port,
                                  options_.server.device, options_.server.timeout,
                                  oob_only_reason(options_.server))),
      context_(DeviceList().open(bootstrap_.device)),
      local_(local_port(context_, options_.server.ib_port)) {}

ServeSearchTarget::~ServeSearchTarget() = default;

std::vector<std::string> ServeSearchTarget::run_arguments(const Point& point) const {
  std::vector<std::string> args = options_.server.run_arguments();
  args.insert(args.end(), {"--cm", to_string(bootstrap_.method)});
  std::istringstream length(run_length_options(point, options_.length));
  for (std::string word; length >> word;) args.push_back(word);
  args.insert(args.end(), {"--warmup", std::to_string(options_.warmup)});
  for (const Dimension& d : space_.dimensions()) {
    const std::string& v = point.at(d.option);
    if (d.flag) {
      if (v == "on") args.push_back("--" + d.option);
    } else if (v != d.fallback) {
      args.insert(args.end(), {"--" + d.option, v});
    }
  }
  return args;
}

std::string ServeSearchTarget::command_head() const {
  std::string head = "rdmabench run";
  for (const std::string& word : options_.server.run_arguments()) head += " " + word;
  head += " --cm " + bootstrap_name();
  return options_.server.key_file.empty() ? head : head + " --key " + options_.server.key_file;
}

TestSpec ServeSearchTarget::spec_of(const Point& point) const {
  std::vector<std::string> args = run_arguments(point);
  args.insert(args.begin(), "run");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::optional<RunPlan> plan = parse_run_request(static_cast<int>(args.size()), argv.data());
  plan->suite.base.bootstrap = bootstrap_.method;
  const std::vector<TestSpec> specs = expand_specs(plan->suite);
  if (specs.size() != 1)
    throw Error(ExitCode::kUsage, "the point is " + std::to_string(specs.size()) + " benchmarks");
  validate_spec(specs.front(), local_.limits);
  // This side's strategy on its own device, as run checks it before connecting (the server
  // checks its own after "setup").
  if (const std::string why = strategy_refusal(context_, specs.front().cq.client); !why.empty())
    throw Error(ExitCode::kUsage, why);
  return specs.front();
}

bool ServeSearchTarget::accepts(const Point& point) const {
  try {
    spec_of(point);
    return true;
  } catch (const Error& e) {
    if (e.exit_code() != ExitCode::kUsage) throw;
    return false;
  }
}

Observation ServeSearchTarget::measured(const TestSpec& spec, const RunLength& length,
                                        unsigned repetitions) {
  session_->setup(spec);
  std::vector<uint64_t> samples;
  BenchmarkMeasurement m(*session_, spec, {length, options_.warmup, {}, false}, samples);
  m.warm_up();
  Observation o;
  for (unsigned r = 0; r < repetitions; ++r) o.runs.push_back(m.timed_run().counters);
  return o;
}

Observation ServeSearchTarget::measure(const Point& point, unsigned repetitions) {
  const auto start = std::chrono::steady_clock::now();
  // Reaching the server, and the key's handshake, are the search's, not the point's: a server
  // that cannot be reached or refuses this client ends the search with that error.
  if (!session_)
    session_ = connect_when_free(
        options_.server.host, options_.server.port,
        BootstrapOptions::client(options_.server.host, options_.server.device,
                                 options_.server.timeout, local_.ib_port),
        {options_.server.wait}, std::cerr, options_.server.key ? &*options_.server.key : nullptr);
  Observation o;
  std::optional<TestSpec> spec;
  try {
    spec = spec_of(point);  // run refuses the options: the session has not been used
    o = measured(*spec, run_length_at(point, options_.length), repetitions);
  } catch (const Error& e) {
    o = Observation{{}, e.what(), static_cast<int>(e.exit_code())};
    // Any failure once the server was told to set up (a device refusing the spec is a usage
    // error too, raised after "setup" while the server awaits a connection) leaves the two
    // sides out of step: connect anew for the next point.
    if (spec) session_.reset();
  } catch (const std::exception& e) {
    o = Observation{{}, e.what(), static_cast<int>(ExitCode::kInternal)};
    session_.reset();
  }
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return o;
}

}  // namespace rdmabench
