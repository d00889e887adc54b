#include "mesh/pair_measurement.h"

#include <algorithm>
#include <vector>

#include "engine/client_session.h"
#include "engine/run_counters.h"

namespace rdmabench {

namespace {

std::map<std::string, double> measure(ClientSession& s, const TestSpec& spec,
                                      const PairRunOptions& o) {
  s.setup(spec);
  const bool lat = spec.mode == Mode::kLatency;
  std::vector<uint64_t> samples(lat ? std::max(o.iterations, o.warmup) : 0);
  if (o.warmup > 0) s.run({{o.warmup, 0, 0}, false, false, {}}, samples);
  const RunResult r = s.run({{o.iterations, 0, 0}, false, false, {}}, samples);
  std::map<std::string, double> counters = run_counters(spec, r, samples).counters;
  if (!spec.verify) return counters;
  // --verify: the same messages once more, untimed, every one checked by its receiver.
  const RunResult v = s.run({{o.iterations, 0, 0}, true, false, {}}, samples);
  if (const uint64_t errors = verify_errors(v); errors > 0) throw verify_failure(spec, errors);
  counters["verified_messages"] = static_cast<double>(o.iterations);
  return counters;
}

}  // namespace

PairResult measure_pair(const std::string& server_host, uint16_t server_port, const TestSpec& spec,
                        MeshPair pair, const PairRunOptions& options, std::ostream& log) {
  PairResult result{spec.name(), pair, {}, "", 0};
  try {
    BootstrapOptions bo;
    bo.device = options.device;
    bo.server_host = server_host;
    bo.timeout = options.timeout;
    const auto session =
        connect_when_free(server_host, server_port, bo, {options.wait, nullptr}, log);
    result.counters = measure(*session, spec, options);
  } catch (const Error& e) {
    result.error = e.what();
    result.exit_code = static_cast<int>(e.exit_code());
  } catch (const std::exception& e) {
    result.error = e.what();
    result.exit_code = static_cast<int>(ExitCode::kInternal);
  }
  return result;
}

}  // namespace rdmabench
