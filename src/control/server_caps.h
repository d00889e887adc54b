// `serve --max-duration/--max-memory/--max-qps/--max-threads`: what an operator lets any one
// client ask of this host. A spec or run over a cap is refused with an error naming the cap
// (exit 2 at the client), before anything is registered.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "spec/test_spec.h"

namespace rdmabench {

struct ServerCaps {
  std::optional<std::chrono::milliseconds> max_duration;  // one client's whole session
  std::optional<uint64_t> max_memory_bytes;               // registered for one benchmark
  std::optional<uint32_t> max_qps;
  std::optional<uint32_t> max_threads;
  // "--max-duration 60 s, --max-qps 8" or "none".
  std::string describe() const;
};

// Throws Error(kUsage) naming the first cap `spec` exceeds: QPs, threads, then the memory the
// server would register for it (registered_bytes).
void check_spec_within(const ServerCaps& caps, const TestSpec& spec);

// Throws Error(kUsage) when a run asking `duration_ns` of timed window (0: an iteration run)
// cannot fit in what is `left` of the session's --max-duration.
void check_run_within(const ServerCaps& caps, uint64_t duration_ns, std::chrono::milliseconds left);

}  // namespace rdmabench
