// Range checks that several subcommands' options share, each throwing Error(kUsage) with a
// message that names the option and its range.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/run_length.h"

namespace cxxopts {
class ParseResult;
}

namespace rdmabench {

// A text option declared with no default (its help says what not giving it means, as
// "--device: the first", where a default of "" would print a second, empty one): its text,
// or "" where it was not given.
std::string text_option(const cxxopts::ParseResult& args, const char* name);

// --timeout: a time (core/time_text.h) from 1ms to 24h, in whole milliseconds.
std::chrono::milliseconds timeout_option(const cxxopts::ParseResult& args);
// A message count (--iters, --lat-iters: core/count_text.h's 5000, 10k, 1M), 1 to kMaxIterations.
uint64_t iterations_option(const cxxopts::ParseResult& args, const char* name);
// --numa: a node number (0 to 1023) or "off" (kNumaOff).
int numa_option(const std::string& text);
// --warmup: a count, at most kMaxIterations.
uint64_t warmup_option(const cxxopts::ParseResult& args);

// A latency run of `length` on `threads` keeps a sample per message (timed_sample_room.h):
// Error(kUsage) before anything runs when they would take more than this host can give (half
// its memory), naming `iterations_option` among what to ask less of.
void check_latency_samples(const RunLength& length, uint32_t threads,
                           const char* iterations_option);
// --port: a TCP port, 1 to 65535 (so that 99999 is refused, not wrapped round to 34463).
uint16_t port_option(const cxxopts::ParseResult& args);
// --ib-port: a device port number, 1 to 255 (whether the device has it is checked once open).
uint8_t ib_port_option(const cxxopts::ParseResult& args);
// --gid-index: an index of the port's GID table, 0 to 255 (an address handle's sgid_index is a
// byte; whether the table has it is checked once the device is open).
uint32_t gid_index_option(const cxxopts::ParseResult& args);
// --metrics FILE (run, mesh, doctor): "-" refused (the metrics go to a file a collector reads);
// with `check_here`, a file that can be written, checked now, not after the work (a mesh
// checks it at rank 0 alone).
std::string metrics_option(const std::string& path, bool check_here = true);

}  // namespace rdmabench
