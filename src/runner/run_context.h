// What a run's results and banner say of it: this host (clock, timing, bootstrap, device),
// the server (its hello) and the path both QPs really use.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/clock.h"
#include "core/device_report.h"
#include "core/sample_clock.h"
#include "host/side_placement.h"
#include "host/timing_environment.h"
#include "runner/bootstrap_choice.h"
#include "runner/run_plan.h"
#include "session/client_session.h"

namespace rdmabench {

// This host's side, checked before anything connects: the clock, the bootstrap, and every
// size against the local device's limits.
struct LocalProbe {
  ClockCheck clock;
  SampleClock sample_clock;
  TimingEnvironment timing;
  BootstrapChoice choice;
  DeviceReport device;
  SidePlacement placement;  // the device's locality, and the CPUs and memory chosen
  // rdma-core's version (from dpkg's status file), read here: once connected, a file read is a
  // wait the server waits out too (in tools/rxe-vm's guest, a wait for the host).
  std::string rdma_core;
};

// What the run learnt of the server once connected: what it says of itself, and the paths
// both sides' QPs really use (asked at the first benchmark's setup), or why they are unknown.
struct ServerFacts {
  ServerDetails details;
  std::optional<PathsInUse> paths;
  std::string path_error;  // when paths is empty
};

// A side's timing facts as the context keys them: how its clock ran (timing, timing_mode), the
// deterministic guest's icount shift and QEMU (null where unsaid), what ran its instructions.
nlohmann::json timing_facts(const TimingEnvironment& timing);
// The results' context: typed (numbers as numbers, unknown as null, the parameters as an
// object).
nlohmann::json run_context(const RunPlan& r, const LocalProbe& p, const ServerFacts& server);
// The line the table opens with: device, path, server, bootstrap (and the timing mode).
std::string banner(const RunPlan& r, const LocalProbe& p, const ServerFacts& server);

}  // namespace rdmabench
