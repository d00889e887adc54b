// Range checks that several subcommands' options share, each throwing Error(kUsage) with a
// message that names the option and its range.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace cxxopts {
class ParseResult;
}

namespace rdmabench {

// A text option declared with no default (its help says what not giving it means, as
// "--device: the first", where a default of "" would print a second, empty one): its text,
// or "" where it was not given.
std::string text_option(const cxxopts::ParseResult& args, const char* name);

// --timeout: 0.001 to 86400 seconds.
std::chrono::milliseconds timeout_option(double seconds);
// A message count (--iters, --lat-iters): 1 to kMaxIterations.
uint64_t iterations_option(uint64_t count, const char* option);
// --numa: a node number (0 to 1023) or "off" (kNumaOff).
int numa_option(const std::string& text);
// --warmup: at most kMaxIterations.
uint64_t warmup_option(uint64_t count);
// --port: a TCP port, 1 to 65535 (read wider than 16 bits, so that 99999 is refused, not
// wrapped round to 34463).
uint16_t port_option(int64_t port);
// --ib-port: a device port number, 1 to 255 (whether the device has it is checked once open).
uint8_t ib_port_option(uint32_t port);
// --metrics FILE (run, mesh, doctor): "-" refused (the metrics go to a file a collector reads);
// with `check_here`, a file that can be written, checked now, not after the work (a mesh
// checks it at rank 0 alone).
std::string metrics_option(const std::string& path, bool check_here = true);

}  // namespace rdmabench
