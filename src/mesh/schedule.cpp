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
  if (text == "sampled") return ScheduleKind::kSampled;
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

MeshSchedule MeshSchedule::sampled(const std::vector<int>& group_of, size_t partners,
                                   size_t rounds) {
  if (partners == 0 || rounds == 0)
    throw Error(ExitCode::kUsage, "--partners and --sample-rounds must be at least 1");
  MeshSchedule s;
  s.kind_ = ScheduleKind::kSampled;
  s.hosts_ = static_cast<int>(group_of.size());
  s.group_of_ = group_of;
  for (int g : group_of) {
    if (g < 0) throw Error(ExitCode::kUsage, "a rank without a group");
    if (static_cast<size_t>(g) >= s.members_.size()) s.members_.resize(static_cast<size_t>(g) + 1);
  }
  for (size_t r = 0; r < group_of.size(); ++r) {
    auto& members = s.members_[static_cast<size_t>(group_of[r])];
    s.index_in_group_.push_back(static_cast<int>(members.size()));
    members.push_back(static_cast<int>(r));
    s.within_rounds_ = std::max(s.within_rounds_, members.size() - 1);
  }
  s.partners_ = partners;
  s.sample_rounds_ = s.members_.size() > 1 ? rounds : 0;
  return s;
}

size_t MeshSchedule::sample_rounds_to_cover(size_t groups, size_t partners) {
  return groups > 1 ? (groups - 2 + partners) / partners : 1;
}

size_t MeshSchedule::rounds() const {
  const auto n = static_cast<size_t>(std::max(hosts_, 1));
  switch (kind_) {
    case ScheduleKind::kShift:
      return n - 1;
    case ScheduleKind::kIsolated:
      return n * (n - 1);
    case ScheduleKind::kSampled:
      return within_rounds_ + partners_ * sample_rounds_;
    case ScheduleKind::kPairs:
      break;
  }
  return rounds_.size();
}

size_t MeshSchedule::pairs_in(size_t round) const {
  if (kind_ == ScheduleKind::kShift) return static_cast<size_t>(hosts_);
  if (kind_ == ScheduleKind::kIsolated) return 1;
  return this->round(round).size();
}

std::optional<int> MeshSchedule::sampled_server(int client, size_t round) const {
  const auto g = static_cast<size_t>(group_of_.at(static_cast<size_t>(client)));
  const auto i = static_cast<size_t>(index_in_group_[static_cast<size_t>(client)]);
  if (round < within_rounds_) {
    const auto& own = members_[g];
    if (round + 1 >= own.size()) return std::nullopt;
    return own[(i + round + 1) % own.size()];
  }
  // The k-th round across groups: offset d, in the pass-th pass over the G-1 offsets.
  const size_t k = round - within_rounds_, groups = members_.size();
  const size_t d = k % (groups - 1) + 1, pass = k / (groups - 1);
  const auto& other = members_[(g + d) % groups];
  if (i >= other.size()) return std::nullopt;
  return other[(i + pass) % other.size()];
}

nlohmann::json MeshSchedule::coverage() const {
  if (kind_ != ScheduleKind::kSampled) return nullptr;
  const size_t groups = members_.size();
  const size_t offsets = groups > 1 ? std::min(groups - 1, partners_ * sample_rounds_) : 0;
  size_t within = 0;
  for (const auto& m : members_) within += m.size() * (m.size() - 1);
  return {{"groups", groups},
          {"partners", partners_},
          {"sample_rounds", sample_rounds_},
          {"pairs_within_groups", within},
          {"group_pairs", groups * (groups > 0 ? groups - 1 : 0)},
          {"group_pairs_covered", groups * offsets},
          {"sample_rounds_to_cover_every_group_pair",
           groups > 1 ? sample_rounds_to_cover(groups, partners_) : 0}};
}

std::optional<int> MeshSchedule::server_of(int client, size_t round) const {
  if (kind_ == ScheduleKind::kSampled) return sampled_server(client, round);
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
