// `serve --max-duration/--max-memory/--max-qps/--max-threads`: what an operator lets any one
// client ask of this host. A spec or run over a cap is refused with an error naming the cap
// (exit 2 at the client), before anything is registered. Without --max-memory the memory and
// the huge pages a client may pin are capped by this host's defaults (host/host_memory.h).
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
  std::string max_memory_default;  // why, where it is this host's default (not --max-memory)
  // Of huge pages: this host's default (half those reserved) where no --max-memory was given,
  // read again at each setup (with_huge_pages_now), since pages are reserved and freed while
  // the server runs.
  bool huge_pages_by_default = false;
  std::optional<uint64_t> max_huge_page_bytes;
  std::string max_huge_page_default;
  std::optional<uint32_t> max_qps;
  std::optional<uint32_t> max_threads;
  // "--max-duration 60 s, --max-qps 8" or "none".
  std::string describe() const;
  // "--max-memory 256 MiB", with why where it is the default; "none".
  std::string memory_cap() const;
  std::string huge_page_cap() const;
};

// Throws Error(kUsage) naming the first cap `spec` exceeds: QPs, threads, then the memory the
// server would register for it (registered_bytes), and of it the huge pages.
void check_spec_within(const ServerCaps& caps, const TestSpec& spec);

// `caps` with the huge-page default read from the host now, where it is the default.
ServerCaps with_huge_pages_now(ServerCaps caps);

// Throws Error(kUsage) when a run asking `duration_ns` of timed window (0: an iteration run)
// cannot fit in what is `left` of the session's --max-duration.
void check_run_within(const ServerCaps& caps, uint64_t duration_ns, std::chrono::milliseconds left);

}  // namespace rdmabench
