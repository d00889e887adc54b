// libFuzzer target for the command line: the input, split at NUL bytes, is an argv that goes
// through the argument bounds every command gets first (cli/argument_bounds.h) and then the
// parsers of `run`, `mesh` and `search` (cxxopts, and each option's own checks), which touch
// neither a device, nor a server, nor MPI. A usage error (rdmabench's, or cxxopts') is the answer
// to bad input; any other exception, a crash or a sanitizer report is a finding. Options of over
// 4,096 bytes never reach cxxopts: its std::regex recursion crashed on 35,000. --out paths are
// checked by opening them (and removing what was not there): ./tools/test runs it in a
// scratch folder. An input whose first argument is "@limits-file" is a --limits-file's text
// instead (its parts joined again), read as a run reads it for a machine type; one whose first
// argument is "@search-report" a report `search --replay` reads (its settings, then each finding
// replayed against a target that answers at once), "@search-state" a search's state file,
// resumed over the whole space, and "@kernel-cmdline" a kernel command line read for a run's
// timing.
#include <cstddef>
#include <cstdint>
#include <cxxopts.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/argument_bounds.h"
#include "cli/mesh_command.h"
#include "cli/run_request.h"
#include "cli/search_dimensions.h"
#include "cli/search_preview.h"
#include "cli/search_request.h"
#include "core/bounded_json.h"
#include "core/error.h"
#include "core/printable_text.h"
#include "host/timing_environment.h"
#include "mesh/mesh_preview.h"
#include "messages/control_messages.h"
#include "runner/machine_limits.h"
#include "runner/run_context.h"
#include "runner/suite_preview.h"
#include "search/measured_points.h"
#include "search/report_replay.h"
#include "search/search_state.h"

namespace {

// `input` as a command's argv (its name first, as main passes it on): one argument per
// NUL-separated part.
std::vector<std::string> arguments_of(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  args.push_back(current);
  return args;
}

template <typename Parse>
void parse_as(std::vector<std::string> args, Parse parse) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  try {
    rdmabench::check_argument_lengths(static_cast<int>(args.size()), argv.data(),
                                      rdmabench::longest_argument());
    (void)parse(static_cast<int>(args.size()), argv.data());
  } catch (const rdmabench::Error&) {
  } catch (const cxxopts::exceptions::exception&) {
  }
}

void read_limits_file(std::string_view text) {
  try {
    (void)rdmabench::machine_limits(
        rdmabench::parse_bounded_json(text, rdmabench::kLimitsFileBounds,
                                      rdmabench::ExitCode::kUsage, "fuzz"),
        "Standard_ND96asr_v4", "fuzz");
  } catch (const rdmabench::Error&) {
  }
}

constexpr std::string_view kLimitsFile = "@limits-file";
constexpr std::string_view kSearchReport = "@search-report";
constexpr std::string_view kSearchState = "@search-state";
constexpr std::string_view kKernelCmdline = "@kernel-cmdline";

// A kernel command line as a run reads /proc/cmdline for its timing (never an error: what it
// cannot use is unset), and the context's facts and banner line made of it, which must be one
// line of printable ASCII; and a server's hello saying it, which its client must take.
void read_kernel_cmdline(std::string_view text) {
  const rdmabench::TimingEnvironment env = rdmabench::parse_timing_environment(text, "none");
  const nlohmann::json facts = rdmabench::timing_facts(env);
  const std::string line = env.describe() + facts.dump();
  if (!rdmabench::is_printable_ascii(line)) __builtin_trap();
  const rdmabench::ServerDetails said{.version = "v",
                                      .hostname = "h",
                                      .kernel = "k",
                                      .rdma_core = "r",
                                      .timing = env.describe(),
                                      .kernel_tuning = env.kernel_tuning,
                                      .cpus = ""};
  try {
    if (rdmabench::read_server_hello(rdmabench::server_hello_message(said)).kernel_tuning !=
        env.kernel_tuning)
      __builtin_trap();
  } catch (const rdmabench::Error&) {
    __builtin_trap();  // a client would refuse this server's own hello
  }
}

// A search target that answers every point at once with the same figures.
class AnsweringTarget final : public rdmabench::SearchTarget {
 public:
  rdmabench::Observation measure(const rdmabench::Point&, unsigned repetitions) override {
    rdmabench::Observation o;
    for (unsigned r = 0; r < repetitions; ++r)
      o.runs.push_back({{"bytes_per_second", 1e9 + r},
                        {"msgs_per_second", 1e4 + r},
                        {"lat_p50_us", 5},
                        {"lat_p99_us", 7},
                        {"client_cpu_us_per_msg", 1},
                        {"wire_retransmissions", r}});
    seconds_ += 1;
    return o;
  }
  double seconds_spent() const override { return seconds_; }

 private:
  double seconds_ = 0;
};

void read_search_report(std::string_view text) {
  try {
    const nlohmann::json report = rdmabench::parse_bounded_json(
        text, rdmabench::kFileBounds, rdmabench::ExitCode::kInvalidFile, "fuzz");
    if (!report.is_object()) return;  // as search --replay refuses it
    (void)rdmabench::report_run_length(report);
    // As search --replay checks the report's space before a point reaches a request.
    rdmabench::check_search_report(report);
    rdmabench::check_searched(rdmabench::space_from_json(report.value("space", nlohmann::json())),
                              "search report");
    AnsweringTarget target;
    (void)rdmabench::replay_report(report, target, rdmabench::report_repetitions(report), "fuzz");
  } catch (const rdmabench::Error&) {
  }
}

void read_search_state(std::string_view text) {
  try {
    const nlohmann::json state = rdmabench::parse_bounded_json(
        text, rdmabench::kFileBounds, rdmabench::ExitCode::kInvalidFile, "fuzz");
    AnsweringTarget target;
    rdmabench::MeasuredPoints measured(target, 3, 100);
    rdmabench::restore_search_state(state, rdmabench::search_dimensions(), {{"repetitions", 3}},
                                    measured);
  } catch (const rdmabench::Error&) {
  }
}

// The rest of the input when its first argument is `mode`.
std::optional<std::string_view> after(std::string_view input, std::string_view mode) {
  if (!input.starts_with(mode) || input.size() <= mode.size() || input[mode.size()] != 0)
    return std::nullopt;
  return input.substr(mode.size() + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (const auto text = after(input, kLimitsFile)) {
    read_limits_file(*text);
    return 0;
  }
  if (const auto text = after(input, kSearchReport)) {
    read_search_report(*text);
    return 0;
  }
  if (const auto text = after(input, kSearchState)) {
    read_search_state(*text);
    return 0;
  }
  if (const auto text = after(input, kKernelCmdline)) {
    read_kernel_cmdline(*text);
    return 0;
  }
  const std::vector<std::string> args = arguments_of(data, size);
  // Each command line parsed, and where it parses, its --dry-run plan said (as the command says
  // it, from the same request).
  parse_as(args, [](int argc, char** argv) {
    if (const auto plan = rdmabench::parse_run_request(argc, argv)) {
      const auto flags = rdmabench::google_benchmark_flags(plan->benchmark_args);
      (void)rdmabench::suite_preview(plan->suite, flags);
      (void)rdmabench::suite_test_list(plan->suite, flags);
    }
  });
  parse_as(args, [](int argc, char** argv) {
    const auto job = rdmabench::parse_mesh_request(argc, argv);
    if (job && job->dry_run_ranks > 0) (void)rdmabench::mesh_preview(*job, job->dry_run_ranks);
  });
  parse_as(args, [](int argc, char** argv) {
    (void)rdmabench::search_preview(rdmabench::search_dimensions(),
                                    rdmabench::parse_search_request(argc, argv));
  });
  return 0;
}
