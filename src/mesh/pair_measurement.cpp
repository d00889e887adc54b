#include "mesh/pair_measurement.h"

#include <algorithm>
#include <vector>

#include "control/client_session.h"
#include "measure/benchmark_measurement.h"

namespace rdmabench {

std::map<std::string, double> measure_one_pair(RunSource& source, const TestSpec& spec,
                                               const PairRunOptions& o) {
  std::vector<uint64_t> samples;
  BenchmarkMeasurement m(source, spec, {{o.iterations, 0, 0}, o.warmup, {}, false}, samples);
  m.warm_up();
  std::map<std::string, double> counters = m.timed_run().counters;
  if (!spec.verify) return counters;
  const CheckOutcome checked = m.check();
  if (checked.errors > 0) throw verify_failure(spec, checked.errors);
  counters.merge(checked.counters());
  return counters;
}

PairResult measure_pair(const std::string& server_host, uint16_t server_port, const TestSpec& spec,
                        MeshPair pair, const PairRunOptions& options, std::ostream& log) {
  PairResult result{spec.name(), pair, {}, "", 0, to_string(spec.mode)};
  try {
    const auto session =
        connect_when_free(server_host, server_port,
                          BootstrapOptions::client(server_host, options.device, options.timeout,
                                                   options.ib_port, options.source_address),
                          {options.wait, nullptr}, log, options.key);
    session->setup(spec);
    result.counters = measure_one_pair(*session, spec, options);
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
