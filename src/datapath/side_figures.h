// What one side spent and moved in one run: the figures that explain a completion strategy
// (per thread and in total) and, in bw, what it sent per stream. The server sends its own in
// the "done" message (messages/side_report_fields.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cq/poll_counts.h"
#include "datapath/resource_usage.h"
#include "datapath/verify_tally.h"

namespace rdmabench {

struct SideFigures {
  uint64_t cpu_ns = 0;
  uint64_t voluntary_switches = 0;
  uint64_t involuntary_switches = 0;
  uint64_t page_faults = 0;  // minor and major
  uint64_t wakeups = 0;      // completion events taken
  uint64_t empty_polls = 0;  // ibv_poll_cq calls that found nothing

  static SideFigures of(const ResourceUsage& used, const PollCounts& counts) {
    return {used.cpu_ns,
            static_cast<uint64_t>(used.voluntary_switches),
            static_cast<uint64_t>(used.involuntary_switches),
            static_cast<uint64_t>(used.page_faults),
            counts.wakeups,
            counts.empty_polls};
  }
  SideFigures& operator+=(const SideFigures& o) {
    cpu_ns += o.cpu_ns;
    voluntary_switches += o.voluntary_switches;
    involuntary_switches += o.involuntary_switches;
    page_faults += o.page_faults;
    wakeups += o.wakeups;
    empty_polls += o.empty_polls;
    return *this;
  }
};

struct SideReport {
  SideFigures total;  // the sum over its threads
  std::vector<SideFigures> threads;
  uint64_t window_ns = 0;  // bw: its own direction's counted window (longest thread)
  // Per stream (in stream order). bw: sends counted in the window, and every send of the run
  // (margins included). lat: round trips counted (client) and every round trip of the run
  // (server: echoed).
  std::vector<uint64_t> counted;
  std::vector<uint64_t> sent;
  std::vector<uint64_t> finish_ns;  // bw by iterations: when each stream's last send completed
  std::vector<uint64_t> received;   // bw: the peer's messages that arrived, whole run (lat: 0)
  // bw in a timed window: when this side first read a completion of its sends, from the run's
  // start (its earliest thread); none where it read none, or where the report came over the
  // control channel (the peer's side does not send it).
  std::optional<uint64_t> first_read_ns;
  // What this side's checks found (--verify's check run, --validate's timed runs): the corrupt
  // bytes or messages, and the first message a check failed (none: every check passed, or
  // nothing was checked message by message).
  VerifyTally verify;
  // What this side's port counters moved over the run (host/port_counters.h names), when asked.
  std::map<std::string, uint64_t> device_counters;
  // The device's informational asynchronous events during the run ("IBV_EVENT_GID_CHANGE
  // (port 1)"): nothing that ended it, but something a reader of the row should know.
  std::vector<std::string> device_events;
};

// The most device events a side report carries, and the longest text of one.
inline constexpr size_t kMaxDeviceEvents = 16;
inline constexpr size_t kMaxDeviceEventText = 80;

// The most device counters a side report carries.
inline constexpr size_t kMaxDeviceCounters = 512;

}  // namespace rdmabench
