#include "mesh/pair_measurement.h"

#include <algorithm>
#include <vector>

#include "core/error.h"
#include "measure/benchmark_measurement.h"
#include "session/client_session.h"

namespace rdmabench {

MeasurePlan pair_measure_plan(const PairRunOptions& o) {
  RunLength length = o.length;
  // a window runs as `rdmabench run --duration` does: one registered iteration
  if (length.timed_window()) length.iterations = 1;
  return {length, {}, false};
}

bool capture_failure(PairResult& result, const std::function<void()>& step) {
  try {
    step();
    return true;
  } catch (const Error& e) {
    result.error = e.what();
    result.exit_code = static_cast<int>(e.exit_code());
  } catch (const std::exception& e) {
    result.error = e.what();
    result.exit_code = static_cast<int>(ExitCode::kInternal);
  }
  return false;
}

std::map<std::string, double> measure_one_pair(RunSource& source, const TestSpec& spec,
                                               const PairRunOptions& o) {
  std::vector<uint64_t> samples;
  BenchmarkMeasurement m(source, spec, pair_measure_plan(o), samples);
  m.warm_up();
  std::map<std::string, double> counters = m.timed_run().counters;
  if (!spec.verify) return counters;
  const CheckOutcome checked = m.check();
  if (checked.errors > 0) throw verify_failure(spec, checked.errors);
  counters.merge(checked.counters());
  return counters;
}

std::unique_ptr<ClientSession> connect_pair(const PeerAddress& server, const TestSpec& spec,
                                            const PairRunOptions& options, std::ostream& log) {
  auto session = connect_when_free(
      server,
      BootstrapOptions::client(server.host, options.local, options.timeout, options.source_address),
      {options.wait, nullptr}, log, options.tls ? &*options.tls : nullptr);
  session->setup(spec);
  return session;
}

PairResult measure_pair(const PeerAddress& server, const TestSpec& spec, MeshPair pair,
                        const PairRunOptions& options, std::ostream& log) {
  PairResult result{spec.name(), pair, {}, "", 0, to_string(spec.mode)};
  capture_failure(result, [&] {
    const auto session = connect_pair(server, spec, options, log);
    result.counters = measure_one_pair(*session, spec, options);
  });
  return result;
}

}  // namespace rdmabench
