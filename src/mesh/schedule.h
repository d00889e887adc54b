// Which pairs of mesh ranks measure when: a list of rounds, each a set of (client, server)
// pairs that run at the same time. Pure functions, no MPI.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace rdmabench {

struct MeshPair {
  int client = 0;  // the rank that runs the pattern against...
  int server = 0;  // ...this rank's server
  bool operator==(const MeshPair&) const = default;
};

using MeshRound = std::vector<MeshPair>;

enum class ScheduleKind { kShift, kIsolated, kPairs, kSampled };
std::optional<ScheduleKind> parse_schedule_kind(const std::string& text);

// A mesh's rounds, each rank's part in one found when asked: the shift schedule of 16,384
// ranks has 268 million pairs, which no rank lists.
class MeshSchedule {
 public:
  // N-1 rounds; in round d (1..N-1) every rank i measures towards rank (i+d) mod N, all at
  // once, so every rank is a client once and a server once per round, as in mpiGraph.
  static MeshSchedule shift(int hosts);
  // Every ordered pair alone in its own round (in shift order), for clean per-link figures.
  static MeshSchedule isolated(int hosts);
  // Rounds given pair by pair (rounds_from_pairs).
  static MeshSchedule of_rounds(std::vector<MeshRound> rounds);
  // Pingmesh's: every ordered pair within a group (`group_of` each rank's, from 0), in S-1
  // rounds for the largest group's S, then `rounds` sampling rounds of `partners` rounds each,
  // in which every rank measures towards one rank of another group: in the k-th of them group g
  // towards group g + d (mod G), d = k mod (G-1) + 1, its i-th rank towards that group's
  // (i + p)-th, p = k div (G-1) (a rank beyond the other group's size sits out). So every
  // ordered pair of groups is covered once in ceil((G-1) / partners) sampling rounds, and each
  // pass over the groups meets other ranks of them.
  // Error(kUsage) for partners or rounds of 0.
  static MeshSchedule sampled(const std::vector<int>& group_of, size_t partners, size_t rounds);
  // The sampling rounds that cover every ordered pair of `groups` groups once: (G-1) /
  // partners, rounded up (1 for a single group).
  static size_t sample_rounds_to_cover(size_t groups, size_t partners);

  size_t rounds() const;
  size_t pairs_in(size_t round) const;
  // The rank `client` measures towards in `round`; nullopt when it is no client in it.
  std::optional<int> server_of(int client, size_t round) const;
  // Round `round` in full (tests, small meshes).
  MeshRound round(size_t round) const;
  // What a sampled schedule covers: its groups, the ordered pairs of them it measures at least
  // one pair of, and the sampling rounds that would cover them all; null for the others.
  nlohmann::json coverage() const;

 private:
  std::optional<int> sampled_server(int client, size_t round) const;

  ScheduleKind kind_ = ScheduleKind::kShift;
  int hosts_ = 0;
  std::vector<MeshRound> rounds_;  // kPairs only
  // kSampled only: each group's ranks, each rank's group and index in it.
  std::vector<std::vector<int>> members_;
  std::vector<int> group_of_, index_in_group_;
  size_t within_rounds_ = 0, partners_ = 0, sample_rounds_ = 0;
};

// Pairs from a file: one "CLIENT SERVER" pair of ranks a line ('#' starts a comment). Throws
// Error(kUsage) naming the source and line for a bad line, a rank outside 0..hosts-1, a rank
// paired with itself, or a pair given twice.
std::vector<MeshPair> parse_pairs(std::istream& in, int hosts, const std::string& source);

// Packs pairs, in their order, into as few rounds as first fit gives, a rank at most once a
// client and once a server in each round (a rank serves one client at a time).
std::vector<MeshRound> rounds_from_pairs(const std::vector<MeshPair>& pairs);

}  // namespace rdmabench
