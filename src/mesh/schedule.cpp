#include "mesh/schedule.h"

#include <algorithm>
#include <istream>
#include <set>
#include <sstream>

#include "core/error.h"

namespace rdmabench {

std::optional<ScheduleKind> parse_schedule_kind(const std::string& text) {
  if (text == "shift") return ScheduleKind::kShift;
  if (text == "isolated") return ScheduleKind::kIsolated;
  return std::nullopt;
}

MeshSchedule MeshSchedule::shift(int hosts) {
  MeshSchedule s;
  s.kind_ = ScheduleKind::kShift;
  s.hosts_ = hosts;
  return s;
}

MeshSchedule MeshSchedule::isolated(int hosts) {
  MeshSchedule s;
  s.kind_ = ScheduleKind::kIsolated;
  s.hosts_ = hosts;
  return s;
}

MeshSchedule MeshSchedule::of_rounds(std::vector<MeshRound> rounds) {
  MeshSchedule s;
  s.kind_ = ScheduleKind::kPairs;
  s.rounds_ = std::move(rounds);
  return s;
}

size_t MeshSchedule::rounds() const {
  const auto n = static_cast<size_t>(std::max(hosts_, 1));
  switch (kind_) {
    case ScheduleKind::kShift:
      return n - 1;
    case ScheduleKind::kIsolated:
      return n * (n - 1);
    case ScheduleKind::kPairs:
      break;
  }
  return rounds_.size();
}

size_t MeshSchedule::pairs_in(size_t round) const {
  if (kind_ == ScheduleKind::kShift) return static_cast<size_t>(hosts_);
  if (kind_ == ScheduleKind::kIsolated) return 1;
  return rounds_.at(round).size();
}

std::optional<int> MeshSchedule::server_of(int client, size_t round) const {
  const auto n = static_cast<size_t>(hosts_);
  if (kind_ == ScheduleKind::kShift)
    return static_cast<int>((static_cast<size_t>(client) + round + 1) % n);
  if (kind_ == ScheduleKind::kIsolated) {
    if (static_cast<size_t>(client) != round % n) return std::nullopt;
    return static_cast<int>((round % n + round / n + 1) % n);
  }
  for (const MeshPair& p : rounds_.at(round))
    if (p.client == client) return p.server;
  return std::nullopt;
}

MeshRound MeshSchedule::round(size_t round) const {
  if (kind_ == ScheduleKind::kPairs) return rounds_.at(round);
  MeshRound out;
  for (int c = 0; c < hosts_; ++c)
    if (const auto s = server_of(c, round)) out.push_back({c, *s});
  return out;
}

namespace {
[[noreturn]] void bad_line(const std::string& source, int line, const std::string& problem) {
  throw Error(ExitCode::kUsage, source + ":" + std::to_string(line) + ": " + problem);
}
}  // namespace

std::vector<MeshPair> parse_pairs(std::istream& in, int hosts, const std::string& source) {
  std::vector<MeshPair> pairs;
  std::set<std::pair<int, int>> seen;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    text = text.substr(0, text.find('#'));
    std::istringstream fields(text);
    long long client = 0, server = 0;
    std::string rest;
    if (!(fields >> client)) {
      if (text.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank
      bad_line(source, line, "expected two ranks, CLIENT SERVER");
    }
    if (!(fields >> server) || (fields >> rest))
      bad_line(source, line, "expected two ranks, CLIENT SERVER");
    for (long long rank : {client, server})
      if (rank < 0 || rank >= hosts)
        bad_line(source, line,
                 "rank " + std::to_string(rank) + " is not between 0 and " +
                     std::to_string(hosts - 1) + " (" + std::to_string(hosts) + " ranks)");
    if (client == server) bad_line(source, line, "a rank cannot measure against itself");
    if (!seen.emplace(client, server).second) bad_line(source, line, "the pair is given twice");
    pairs.push_back({static_cast<int>(client), static_cast<int>(server)});
  }
  if (pairs.empty()) throw Error(ExitCode::kUsage, source + ": no pairs");
  return pairs;
}

std::vector<MeshRound> rounds_from_pairs(const std::vector<MeshPair>& pairs) {
  std::vector<MeshRound> rounds;
  for (const MeshPair& pair : pairs) {
    const auto fits = [&](const MeshRound& round) {
      return std::none_of(round.begin(), round.end(), [&](const MeshPair& p) {
        return p.client == pair.client || p.server == pair.server;
      });
    };
    const auto round = std::find_if(rounds.begin(), rounds.end(), fits);
    if (round == rounds.end())
      rounds.push_back({pair});
    else
      round->push_back(pair);
  }
  return rounds;
}

}  // namespace rdmabench
