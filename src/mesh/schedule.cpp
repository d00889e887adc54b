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

std::vector<MeshRound> shift_schedule(int hosts) {
  std::vector<MeshRound> rounds;
  for (int d = 1; d < hosts; ++d) {
    MeshRound round;
    for (int i = 0; i < hosts; ++i) round.push_back({i, (i + d) % hosts});
    rounds.push_back(std::move(round));
  }
  return rounds;
}

std::vector<MeshRound> isolated_schedule(int hosts) {
  std::vector<MeshRound> rounds;
  for (const MeshRound& shift : shift_schedule(hosts))
    for (const MeshPair& pair : shift) rounds.push_back({pair});
  return rounds;
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
