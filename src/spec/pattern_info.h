// What a registered pattern is: everything the engine, the command line and the reports need to
// know of it, stated by the pattern's own file in bench/ (its kInfo) and listed by
// bench/pattern_registry.h. Nothing outside the registry asks which pattern it is: it asks the
// description. Finding a pattern by name is the registry's (bench/pattern_catalogue.h): this
// layer sits below the patterns and holds only what a description is.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/transport.h"

namespace rdmabench {

inline bool is_atomic(ibv_wr_opcode opcode) noexcept {
  return opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || opcode == IBV_WR_ATOMIC_CMP_AND_SWP;
}

// What a message carries in its immediate field.
enum class Immediate { kNone, kSequence };
// How a lat ping-pong learns that the peer's message arrived.
enum class Arrival {
  kReceive,     // a receive completion (send, write with immediate)
  kMarker,      // polling the last byte of its buffer for a per-message marker (write)
  kCompletion,  // its own request's completion (read: the response is the arrival)
};

std::string_view to_string(Arrival a);  // "receive", "marker", "completion"

// Which message sizes a pattern can move; a size outside gets `why`.
struct SizeRule {
  uint64_t min = 1;
  uint64_t max = UINT64_MAX;
  std::string_view why;

  bool accepts(uint64_t size) const noexcept { return size >= min && size <= max; }
};

// What a pattern needs of the transport it runs over; a transport that lacks it is refused.
struct TransportNeeds {
  bool reliable = false;   // RDMA read and atomics run over a reliable transport only
  bool connected = false;  // RDMA write names the peer's QP by the connection

  bool met_by(const TransportInfo& t) const noexcept {
    return (!reliable || t.reliable) && (!connected || t.connected);
  }
  // "needs a reliable connected transport" (what it needs, for the message that refuses one)
  std::string text() const;
};

struct PatternInfo {
  std::string_view name;     // "send"
  std::string_view summary;  // one line for --help
  ibv_wr_opcode opcode;      // what the sender posts
  bool target_receives;      // the target consumes a posted receive per message
  bool receive_holds_data;   // ...which holds the payload (send), or only the immediate
  Immediate immediate;       // what each message carries in its immediate
  bool half_round_trip;      // lat reports half the round trip (a message each way)
  Arrival arrival;           // lat: how arrival is seen
  unsigned remote_access;    // IBV_ACCESS_REMOTE_* the target's buffer grants
  SizeRule sizes;            // the message sizes it accepts
  TransportNeeds needs;      // which transports it runs over

  // Whose buffer the payload lands in: the initiator's (read, and the old value an atomic
  // fetches), else the target's.
  bool data_to_initiator() const noexcept;
  // Whether the target's user space is idle while the client runs: in bw, a target that takes
  // no receives; in lat, where the initiator's own completion is the arrival (read, atomics).
  bool passive_target_bw() const noexcept { return !target_receives; }
  bool passive_target_lat() const noexcept { return arrival == Arrival::kCompletion; }
};

// A registered pattern, by its description (compares by identity).
class Pattern {
 public:
  Pattern() = default;  // none: only a placeholder before one is chosen
  explicit constexpr Pattern(const PatternInfo& info) : info_(&info) {}
  const PatternInfo& info() const noexcept { return *info_; }
  const PatternInfo* operator->() const noexcept { return info_; }
  std::string name() const { return info_ != nullptr ? std::string(info_->name) : "(none)"; }
  bool chosen() const noexcept { return info_ != nullptr; }
  bool operator==(const Pattern&) const = default;

 private:
  const PatternInfo* info_ = nullptr;
};

// One (pattern, size) the pattern's size rule refuses, or (size 0) a pattern the transport
// cannot carry, with why.
struct SkippedPair {
  Pattern pattern;
  uint64_t size = 0;
  std::string why;
};
// Which of `sizes` each pattern accepts over `transport` (with `srq`: only a pattern whose
// target takes receives). `patterns` holds what --pattern named; with `all` (every registered
// one) a refused size or pattern is only skipped (and said); named, it is an error
// Error(kUsage) naming the pattern, the size or the transport, and the rule.
struct PatternSizes {
  std::vector<std::pair<Pattern, std::vector<uint64_t>>> runs;
  std::vector<SkippedPair> skipped;
};
PatternSizes expand_patterns(const std::vector<Pattern>& patterns,
                             const std::vector<uint64_t>& sizes, Transport transport, bool srq,
                             bool all);

}  // namespace rdmabench
