// `rdmabench search`'s target: a running `rdmabench serve`. Each point becomes the request
// `rdmabench run` builds from the options it says (point_request.h, with the bootstrap `run --cm
// auto` takes there), checked as `run` would check it (a combination `run` or this side's device
// refuses, its CQ strategy among them, is a failed point, found at no cost and with no exception),
// and is measured the way `run` measures one benchmark: a warm-up, then one timed run per
// repetition, each with both sides' port counters. One control connection serves every point; a
// failure drops it, and the next point connects again.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cli/server_connection.h"
#include "runner/benchmark_suite.h"
#include "runner/bootstrap_choice.h"
#include "search/point_length.h"
#include "search/search_space.h"
#include "search/search_target.h"
#include "session/client_session.h"
#include "spec/spec_validation.h"
#include "verbs/context.h"

namespace rdmabench {

struct ServeTargetOptions {
  ServerConnection server;  // as run takes it: every point goes there the same way
  // Each timed run (point_length.h), after the point's warm-up.
  RunLength length{0, kPointDurationNs, kPointMarginNs, 16};
};

// What a target does with a dimension its bootstrap does not set (--mtu over rdma_cm): a search
// leaves it out of its space (and says so); a replay keeps the report's space, where each point
// that sets it is refused with the reason.
enum class UnsetDimensions { kLeftOut, kKept };

class ServeSearchTarget : public SearchTarget {
 public:
  ServeSearchTarget(const SearchSpace& space, ServeTargetOptions options, UnsetDimensions unset);
  ~ServeSearchTarget() override;
  // Within the point's deadline (point_allowance, and the search's end): past it, the point
  // is recorded as failed, saying so, and the next one connects anew.
  Observation measure(const Point& point, unsigned repetitions) override;
  // Every second since the target was made: measuring, and what the search did between (its
  // choice of rows, its judging), stalls included; what --budget bounds.
  double seconds_spent() const override {
    return std::chrono::duration<double>(Clock::now() - created_).count();
  }
  bool accepts(const Point& point) const override;
  // No point measures past `end` (the search's --budget, from its start).
  void end_by(std::chrono::steady_clock::time_point end) { end_ = end; }

  // "rdmabench run HOST --port P --cm C" (and --device, --ib-port, --gid-index, --key as
  // given): how every point's command line starts (the bootstrap the search chose, as `run
  // --cm auto` would: rdma_cm on iWARP).
  std::string command_head() const;
  std::string bootstrap_name() const { return to_string(bootstrap_.method); }
  // The space its points come from: as given, less what kLeftOut left out.
  const SearchSpace& space() const noexcept { return space_; }
  // The options kLeftOut left out of the space ("mtu"), none otherwise.
  const std::vector<std::string>& left_out() const noexcept { return left_out_; }

 private:
  // What every point's run takes on the bootstrap's device.
  struct LocalPort {
    uint8_t ib_port;      // --ib-port, else its first ACTIVE port (out of band)
    DeviceLimits limits;  // of that device and port
  };
  static LocalPort local_port(const Context& context, std::optional<uint8_t> asked);

  BenchmarkMatrix base_request() const;
  // This side's device, port and GID index, as every point's bootstrap takes them.
  LocalDevice local_device() const;
  // The point's one benchmark, or why run or this side's device refuses it.
  std::variant<TestSpec, std::string> spec_of(const Point& point) const;
  Observation measured(const TestSpec& spec, const RunLength& length, unsigned repetitions);

  ServeTargetOptions options_;
  // How every point connects, chosen once as `run --cm auto` chooses (rdma_cm where the
  // address maps to a device, the only way on iWARP; out of band on a loopback address).
  BootstrapChoice bootstrap_;
  std::vector<std::string> left_out_;
  SearchSpace space_;
  Context context_;  // the bootstrap's device, open for every point's checks (its strategy's)
  LocalPort local_;
  BenchmarkMatrix base_;  // every point's request before its values (base_request)
  std::unique_ptr<ClientSession> session_;
  using Clock = std::chrono::steady_clock;
  Clock::time_point created_ = Clock::now();
  std::optional<Clock::time_point> end_;  // end_by's
};

}  // namespace rdmabench
