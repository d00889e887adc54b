// The traffic patterns of `rdmabench mesh --traffic`: which ranks send to which, all at once, in
// each round. Unlike a schedule's pairs, a round's flows share hosts: in an incast several
// ranks send into one, so a rank serves several flows at once, each on a server of its own (a
// slot). Pure functions, no MPI; a rank's flows are found when asked, never listed for all.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rdmabench {

enum class TrafficKind { kPairs, kIncast, kFanOut, kAllToAll, kBisection, kRing };
std::optional<TrafficKind> parse_traffic_kind(const std::string& text);
std::string to_string(TrafficKind kind);
// Every kind's word, for --help and errors: "pairs, incast, ...".
std::string traffic_kind_names();

// One flow of a round: `client` runs the benchmark against `server`'s server number `slot`.
struct TrafficFlow {
  int client = 0;
  int server = 0;
  int slot = 0;
  bool operator==(const TrafficFlow&) const = default;
};

// At most this many flows into or out of one rank at once (--fan).
inline constexpr int kMaxFan = 64;

class TrafficPlan {
 public:
  // incast: N rounds; in round r the `fan` ranks after r send into r at once.
  // fan-out: N rounds; in round r rank r sends to the `fan` ranks after it at once.
  // all-to-all: one round; every rank sends to the `fan` ranks after it, and takes from the
  //   `fan` before it, all at once (fan N-1: every rank to every other).
  // ring: every rank sends to the next (N-1 to 0), all at once; then, among four ranks or
  //   more, a second round to the one after the next, so that a host beside a slow one has a
  //   round without it (in one ring its load is half the slow host's).
  // bisection: the ranks in two halves, each rank sending to a partner in the other half while
  //   its partner sends back, all at once; in a second round each rank of the first half takes
  //   the next partner, so that a slow host is the one partner two rounds share. Even N only.
  // Error(kUsage) for pairs (the schedule's), fewer than 2 ranks, a fan outside 1..min(N-1,
  // kMaxFan), a fan given to a kind without one (fan 0: the default), or an odd bisection.
  static TrafficPlan make(TrafficKind kind, int ranks, int fan);
  // The fan a kind takes when none is given: every other rank, at most kMaxFan; 1 without one.
  static int default_fan(TrafficKind kind, int ranks);
  static bool has_fan(TrafficKind kind);

  TrafficKind kind() const noexcept { return kind_; }
  int ranks() const noexcept { return ranks_; }
  int fan() const noexcept { return fan_; }
  size_t rounds() const;
  // The servers each rank runs: the most flows one rank takes at once.
  int slots() const;
  // The flows `client` runs in `round`, all at once (none when it sends in none).
  std::vector<TrafficFlow> flows_from(int client, size_t round) const;
  // Every flow of `round` (tests, small meshes).
  std::vector<TrafficFlow> flows_in(size_t round) const;
  // How many flows `round` has, without listing them (N x fan in an all-to-all).
  size_t flow_count(size_t round) const;
  // The most flows any rank runs as a client over the whole plan.
  size_t most_flows_of_a_client() const;

 private:
  int bisection_partner(int rank, size_t round) const;

  TrafficKind kind_ = TrafficKind::kRing;
  int ranks_ = 0;
  int fan_ = 1;
};

}  // namespace rdmabench
