#include "mesh/traffic.h"

#include <algorithm>
#include <array>
#include <utility>

#include "core/error.h"

namespace rdmabench {

namespace {

constexpr std::array<std::pair<TrafficKind, const char*>, 6> kKinds{{
    {TrafficKind::kPairs, "pairs"},
    {TrafficKind::kIncast, "incast"},
    {TrafficKind::kFanOut, "fan-out"},
    {TrafficKind::kAllToAll, "all-to-all"},
    {TrafficKind::kBisection, "bisection"},
    {TrafficKind::kRing, "ring"},
}};

}  // namespace

std::optional<TrafficKind> parse_traffic_kind(const std::string& text) {
  for (const auto& [kind, word] : kKinds)
    if (text == word) return kind;
  return std::nullopt;
}

std::string to_string(TrafficKind kind) {
  for (const auto& [k, word] : kKinds)
    if (k == kind) return word;
  return "?";
}

std::string traffic_kind_names() {
  std::string out;
  for (const auto& [kind, word] : kKinds) out += (out.empty() ? "" : ", ") + std::string(word);
  return out;
}

bool TrafficPlan::has_fan(TrafficKind kind) {
  return kind == TrafficKind::kIncast || kind == TrafficKind::kFanOut ||
         kind == TrafficKind::kAllToAll;
}

int TrafficPlan::default_fan(TrafficKind kind, int ranks) {
  return has_fan(kind) ? std::clamp(ranks - 1, 1, kMaxFan) : 1;
}

TrafficPlan TrafficPlan::make(TrafficKind kind, int ranks, int fan) {
  if (kind == TrafficKind::kPairs)
    throw Error(ExitCode::kUsage, "--traffic pairs is the mesh's schedule, not a traffic plan");
  if (ranks < 2) throw Error(ExitCode::kUsage, "--traffic needs at least 2 ranks");
  if (fan != 0 && !has_fan(kind))
    throw Error(ExitCode::kUsage,
                "--fan goes with --traffic incast, fan-out or all-to-all, not " + to_string(kind));
  const int most = std::min(ranks - 1, kMaxFan);
  if (fan != 0 && (fan < 1 || fan > most))
    throw Error(ExitCode::kUsage, "--fan " + std::to_string(fan) + ": must be 1.." +
                                      std::to_string(most) + " with " + std::to_string(ranks) +
                                      " ranks (a rank's flows go to other ranks, at most " +
                                      std::to_string(kMaxFan) + " at once)");
  if (kind == TrafficKind::kBisection && ranks % 2 != 0)
    throw Error(ExitCode::kUsage, "--traffic bisection needs an even number of ranks, not " +
                                      std::to_string(ranks) +
                                      " (each rank has a partner in the "
                                      "other half)");
  TrafficPlan plan;
  plan.kind_ = kind;
  plan.ranks_ = ranks;
  plan.fan_ = fan != 0 ? fan : default_fan(kind, ranks);
  return plan;
}

size_t TrafficPlan::rounds() const {
  switch (kind_) {
    case TrafficKind::kIncast:
    case TrafficKind::kFanOut:
      return static_cast<size_t>(ranks_);
    case TrafficKind::kBisection:
      return ranks_ > 2 ? 2 : 1;  // two ranks have one partner each
    case TrafficKind::kRing:
      return ranks_ > 3 ? 2 : 1;  // among three the second ring is the first reversed
    default:
      return 1;
  }
}

int TrafficPlan::slots() const {
  return kind_ == TrafficKind::kIncast || kind_ == TrafficKind::kAllToAll ? fan_ : 1;
}

int TrafficPlan::bisection_partner(int rank, size_t round) const {
  const int half = ranks_ / 2;
  if (round == 0) return rank < half ? rank + half : rank - half;
  // round 1: rank i of the first half with half + (i + 1) mod half, and back
  return rank < half ? half + (rank + 1) % half : (rank - half + half - 1) % half;
}

std::vector<TrafficFlow> TrafficPlan::flows_from(int client, size_t round) const {
  std::vector<TrafficFlow> flows;
  if (client < 0 || client >= ranks_ || round >= rounds()) return flows;
  const int r = static_cast<int>(round);
  switch (kind_) {
    case TrafficKind::kIncast: {
      const int d = (client - r + ranks_) % ranks_;  // this rank is r's d-th sender
      if (d >= 1 && d <= fan_) flows.push_back({client, r, d - 1});
      break;
    }
    case TrafficKind::kFanOut:
      if (client == r)
        for (int d = 1; d <= fan_; ++d) flows.push_back({client, (client + d) % ranks_, 0});
      break;
    case TrafficKind::kAllToAll:
      for (int d = 1; d <= fan_; ++d) flows.push_back({client, (client + d) % ranks_, d - 1});
      break;
    case TrafficKind::kRing:  // round 0 to the next rank, round 1 to the one after it
      flows.push_back({client, (client + r + 1) % ranks_, 0});
      break;
    case TrafficKind::kBisection:
      flows.push_back({client, bisection_partner(client, round), 0});
      break;
    case TrafficKind::kPairs:
      break;
  }
  return flows;
}

std::vector<TrafficFlow> TrafficPlan::flows_in(size_t round) const {
  std::vector<TrafficFlow> flows;
  for (int c = 0; c < ranks_; ++c)
    for (const TrafficFlow& f : flows_from(c, round)) flows.push_back(f);
  return flows;
}

size_t TrafficPlan::flow_count(size_t round) const {
  if (round >= rounds()) return 0;
  const auto n = static_cast<size_t>(ranks_), fan = static_cast<size_t>(fan_);
  switch (kind_) {
    case TrafficKind::kIncast:
    case TrafficKind::kFanOut:
      return fan;
    case TrafficKind::kAllToAll:
      return n * fan;
    case TrafficKind::kRing:
    case TrafficKind::kBisection:
      return n;
    case TrafficKind::kPairs:
      break;
  }
  return 0;
}

size_t TrafficPlan::most_flows_of_a_client() const {
  switch (kind_) {
    case TrafficKind::kIncast:
    case TrafficKind::kFanOut:
    case TrafficKind::kAllToAll:
      return static_cast<size_t>(fan_);
    default:
      return rounds();
  }
}

}  // namespace rdmabench
