#include "cli/serve_search_target.h"

#include <iostream>
#include <optional>
#include <variant>

#include "cli/point_request.h"
#include "cli/search_dimensions.h"
#include "core/device_report.h"
#include "core/error.h"
#include "core/time_text.h"
#include "cq/strategy_registry.h"
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

// The error that ends a point at its deadline: the point's own, or the search's end.
Error point_over(std::chrono::milliseconds allowance, bool search_end) {
  return Error(ExitCode::kRuntime,
               search_end ? "the search's --budget ended while this point was measured"
                          : "the point took longer than the " +
                                estimate_time_text(allowance.count() * 1e-3) +
                                " it may (twice what its steps need at --timeout each): given "
                                "up, to go on with the next");
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

ServeSearchTarget::ServeSearchTarget(const SearchSpace& space, ServeTargetOptions options,
                                     UnsetDimensions unset)
    : options_(no_device_is_an_error(std::move(options))),
      bootstrap_(choose_bootstrap({options_.server.cm, options_.server.address,
                                   options_.server.device, options_.server.timeout,
                                   oob_only_reason(options_.server), default_transport()})),
      space_(unset == UnsetDimensions::kLeftOut
                 ? honoured_space(space, bootstrap_.method, left_out_)
                 : space),
      context_(DeviceList().open(bootstrap_.device)),
      local_(local_port(context_, options_.server.ib_port)),
      base_(base_request()) {
  // The GID index against this device's table before any point, as run checks it.
  validate_local_device(local_device(), bootstrap_.method, local_.limits);
}

LocalDevice ServeSearchTarget::local_device() const {
  return {options_.server.device, local_.ib_port, options_.server.gid_index};
}

ServeSearchTarget::~ServeSearchTarget() = default;

std::string ServeSearchTarget::command_head() const {
  std::string head = "rdmabench run";
  for (const std::string& word : options_.server.run_arguments()) head += " " + word;
  head += " --cm " + bootstrap_name();
  for (const std::string& word : options_.server.credentials.arguments()) head += " " + word;
  return head;
}

// What every point's request starts from: run's defaults, the path as the connection's options
// say, and the bootstrap the search chose.
BenchmarkMatrix ServeSearchTarget::base_request() const {
  BenchmarkMatrix base;
  base.base.bootstrap = bootstrap_.method;
  return base;
}

std::variant<TestSpec, std::string> ServeSearchTarget::spec_of(const Point& point) const {
  std::variant<TestSpec, std::string> one = one_benchmark(request_at(space_, point, base_));
  const TestSpec* spec = std::get_if<TestSpec>(&one);
  if (spec == nullptr) return one;
  if (std::string why = spec_refusal(*spec, local_.limits); !why.empty()) return why;
  // This side's strategy on its own device, as run checks it before connecting (the server
  // checks its own after "setup").
  if (std::string why = strategy_refusal(context_, spec->cq.client); !why.empty()) return why;
  return one;
}

bool ServeSearchTarget::accepts(const Point& point) const {
  return std::holds_alternative<TestSpec>(spec_of(point));
}

Observation ServeSearchTarget::measured(const TestSpec& spec, const RunLength& length,
                                        unsigned repetitions) {
  const std::chrono::milliseconds allowance =
      point_allowance(length, repetitions, options_.server.timeout);
  const Clock::time_point own = Clock::now() + allowance;
  const bool search_end = end_ && *end_ < own;
  session_->set_deadline(search_end ? *end_ : own,
                         [=] { return point_over(allowance, search_end); });
  session_->setup(spec);
  std::vector<uint64_t> samples;
  BenchmarkMeasurement m(*session_, spec, {length, {}, false}, samples);
  m.warm_up();
  Observation o;
  for (unsigned r = 0; r < repetitions; ++r) o.runs.push_back(m.timed_run().counters);
  return o;
}

Observation ServeSearchTarget::measure(const Point& point, unsigned repetitions) {
  if (end_ && Clock::now() >= *end_)  // no connecting, nor waiting for a busy server, past it
    return Observation{{},
                       "the search's --budget ended before this point was measured",
                       static_cast<int>(ExitCode::kRuntime)};
  // Reaching the server, and the key's handshake, are the search's, not the point's: a server
  // that cannot be reached or refuses this client ends the search with that error.
  if (!session_) {
    const std::optional<TlsContext> tls =
        options_.server.credentials.context(TlsContext::Role::kClient);
    session_ = connect_when_free(options_.server.address,
                                 BootstrapOptions::client(options_.server.address.host,
                                                          local_device(), options_.server.timeout),
                                 {options_.server.wait}, std::cerr, tls ? &*tls : nullptr);
  }
  Observation o;
  const std::variant<TestSpec, std::string> spec = spec_of(point);
  if (const std::string* why = std::get_if<std::string>(&spec)) {
    o = Observation{{}, *why, static_cast<int>(ExitCode::kUsage)};  // the session is not used
  } else {
    try {
      o = measured(std::get<TestSpec>(spec), run_length_at(point, options_.length), repetitions);
    } catch (const Error& e) {
      o = Observation{{}, e.what(), static_cast<int>(e.exit_code())};
      // Any failure once the server was told to set up (a device refusing the spec is a usage
      // error too, raised after "setup" while the server awaits a connection) leaves the two
      // sides out of step: connect anew for the next point.
      session_.reset();
    } catch (const std::exception& e) {
      o = Observation{{}, e.what(), static_cast<int>(ExitCode::kInternal)};
      session_.reset();
    }
  }
  return o;
}

}  // namespace rdmabench
