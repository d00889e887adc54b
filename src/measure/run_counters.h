// Turns one run's result into the benchmark's counters. Every counter is per message, and a
// message is what real_time is the time of: one one-way message where latency is half a round
// trip (two per round trip), one read (request and response) in read lat, one message in bw
// (both directions with --bidir). So bytes = msgs x size, and real_time = 1e6 /
// msgs_per_second us.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "core/error.h"
#include "session/run_source.h"
#include "spec/test_spec.h"

namespace rdmabench {

struct RunCounters {
  std::map<std::string, double> counters;
  double seconds_per_msg = 0;  // what real_time reports (manual time per iteration / msgs)
  std::string label;
};

// `samples` holds thread t's lat samples from t * (size / threads) on; they are gathered and
// sorted here.
RunCounters run_counters(const TestSpec& spec, const RunResult& r, std::span<uint64_t> samples);

// The sum of per-stream counts.
uint64_t total(std::span<const uint64_t> per_stream);

// What a --verify check run found: the corrupt bytes/messages of both sides, and (--validate's
// write bw) the writes its sender completed that the target never checked.
uint64_t verify_errors(const TestSpec& spec, const RunResult& check);
// --validate's write bw: the writes the sender completed beyond those the target checked, on
// every QP (0 otherwise).
uint64_t writes_not_checked(const TestSpec& spec, const RunResult& run);
// The failure of a check run that found `errors` (Error(kVerification), naming the benchmark).
Error verify_failure(const TestSpec& spec, uint64_t errors);
// The messages a --validate timed run checked: every one of the run, both directions, margins
// included (over a transport that may lose messages, those that arrived).
uint64_t validated_messages(const TestSpec& spec, const RunResult& run);
// The failure of a --validate timed run whose checks found corrupt bytes/messages
// (Error(kVerification)): how many, and the first message found so, where and on which QP.
Error validate_failure(const TestSpec& spec, const RunResult& run);

}  // namespace rdmabench
