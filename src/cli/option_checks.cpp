#include "cli/option_checks.h"

#include <cxxopts.hpp>
#include <string>

#include "cli/number_options.h"
#include "core/byte_units.h"
#include "core/error.h"
#include "core/output_file.h"
#include "host/cpu_placement.h"
#include "host/host_memory.h"
#include "measure/timed_sample_room.h"
#include "spec/spec_validation.h"

namespace rdmabench {

std::chrono::milliseconds timeout_option(const cxxopts::ParseResult& args) {
  using namespace std::chrono_literals;
  return std::chrono::duration_cast<std::chrono::milliseconds>(
      time_option(args, "timeout", {1ms, 24h, 1ms}));
}

uint64_t iterations_option(const cxxopts::ParseResult& args, const char* name) {
  return count_option(args, name, 1, kMaxIterations);
}

uint64_t warmup_option(const cxxopts::ParseResult& args) {
  return count_option(args, "warmup", 0, kMaxIterations);
}

uint16_t port_option(const cxxopts::ParseResult& args) {
  return static_cast<uint16_t>(number_option(args, "port", 1, 65535, "a TCP port"));
}

uint8_t ib_port_option(const cxxopts::ParseResult& args) {
  return static_cast<uint8_t>(number_option(args, "ib-port", 1, 255, "a device port"));
}

uint32_t gid_index_option(const cxxopts::ParseResult& args) {
  return number_option(args, "gid-index", 0, 255, "a GID index");
}

int numa_option(const std::string& text) {
  if (text == "off") return kNumaOff;
  if (text.empty() || text.size() > 4 ||
      text.find_first_not_of("0123456789") != std::string::npos || std::stoi(text) > 1023)
    throw Error(ExitCode::kUsage, "--numa '" + text +
                                      "': give a NUMA node number (0, 1, ...) or off (not pinned, "
                                      "memory where the kernel puts it)");
  return std::stoi(text);
}

std::string metrics_option(const std::string& path, bool check_here) {
  if (path.empty() || path == "-")
    throw Error(ExitCode::kUsage,
                "--metrics needs a file name (a collector reads the file; give --json for "
                "standard output)");
  if (check_here) check_writable(path, "--metrics");
  return path;
}

std::string text_option(const cxxopts::ParseResult& args, const char* name) {
  return args.count(name) != 0 ? args[name].as<std::string>() : std::string();
}

void check_latency_samples(const RunLength& length, uint32_t threads,
                           const char* iterations_option) {
  const auto cap = latency_sample_cap(this_host_memory());
  const uint64_t bytes = latency_sample_bytes(length, threads);
  if (!cap || bytes <= cap->bytes) return;
  throw Error(ExitCode::kUsage, "a latency run on " + std::to_string(threads) +
                                    " thread(s) keeps up to " + mib_text(bytes) +
                                    " of samples (8 bytes a message), more than " +
                                    mib_text(cap->bytes) + " (" + cap->why + "); ask fewer " +
                                    iterations_option + " or --warmup, or fewer --threads");
}

}  // namespace rdmabench
