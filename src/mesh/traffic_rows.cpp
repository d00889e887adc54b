#include "mesh/traffic_rows.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "core/bounded_json.h"
#include "core/error.h"
#include "core/exit_codes.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {

constexpr size_t kErrorExcerpt = 200;
// A row's bytes beside its error: four numbers, brackets and commas.
constexpr size_t kRowNumbersBytes = 96;
// What the error text of one row can take in JSON: each character escaped as \u00XX at most.
constexpr size_t kRowErrorBytes = (kErrorExcerpt + 3) * 6 + 2;
// Above any link's bytes per second (a terabyte per second).
constexpr double kMostBytesPerSecond = 1e12;

[[noreturn]] void refuse(int rank, const std::string& what) {
  throw Error(ExitCode::kConnection, "rank " + std::to_string(rank) + "'s flows: " + what);
}

FlowRow checked_row(const nlohmann::json& r, int rank, const TrafficPlan& plan,
                    uint32_t repetitions) {
  if (!r.is_array() || r.size() != 5 || !r[0].is_number_unsigned() || !r[1].is_number_integer() ||
      !r[2].is_number() || !r[3].is_number_integer() || !r[4].is_string())
    refuse(rank, "a row is not [round, server, bytes_per_second, exit_code, error]");
  const uint64_t round = r[0].get<uint64_t>();
  if (round >= plan.rounds() * repetitions)
    refuse(rank, "round " + std::to_string(round) + " is beyond the plan's " +
                     std::to_string(plan.rounds() * repetitions));
  FlowRow row{static_cast<uint32_t>(round), rank, 0, r[2].get<double>(), 0, ""};
  const int64_t server = r[1].get<int64_t>();
  const auto planned = plan.flows_from(rank, round % plan.rounds());
  if (std::none_of(planned.begin(), planned.end(),
                   [&](const TrafficFlow& f) { return f.server == server; }))
    refuse(rank, "no flow to rank " + std::to_string(server) + " in round " +
                     std::to_string(round) + " of the plan");
  row.server = static_cast<int>(server);
  if (!std::isfinite(row.bytes_per_second) || row.bytes_per_second < 0 ||
      row.bytes_per_second > kMostBytesPerSecond)
    refuse(rank, "a bytes per second that no run measures");
  const int64_t code = r[3].get<int64_t>();
  if (!is_exit_code(code))
    refuse(rank, "exit code " + std::to_string(code) + " is not in the table");
  row.exit_code = static_cast<int>(code);
  row.error = peer_excerpt(r[4].get<std::string>(), kErrorExcerpt);
  if ((row.exit_code == 0) != row.error.empty() ||
      (row.exit_code != 0 && row.bytes_per_second != 0))
    refuse(rank, "a row that both ran and failed (an exit code goes with an error and no figure)");
  return row;
}

}  // namespace

FlowRow flow_row(const PairResult& result, uint32_t round) {
  FlowRow row{round, result.pair.client, result.pair.server, 0, result.exit_code, result.error};
  if (result.exit_code == 0) {
    const auto it = result.counters.find("bytes_per_second");
    row.bytes_per_second = it == result.counters.end() ? 0 : it->second;
  }
  return row;
}

std::string rank_flows_text(const std::vector<FlowRow>& mine) {
  nlohmann::json rows = nlohmann::json::array();
  for (const FlowRow& f : mine)
    rows.push_back(
        {f.round, f.server, f.bytes_per_second, f.exit_code, peer_excerpt(f.error, kErrorExcerpt)});
  return rows.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

size_t rank_flows_max_bytes(const TrafficPlan& plan, uint32_t repetitions) {
  const size_t rows = plan.most_flows_of_a_client() * repetitions;
  return 2 + rows * (kRowNumbersBytes + kRowErrorBytes);
}

std::vector<FlowRow> parse_rank_flows(std::string_view text, int rank, const TrafficPlan& plan,
                                      uint32_t repetitions) {
  const nlohmann::json rows =
      parse_bounded_json(text, {rank_flows_max_bytes(plan, repetitions), 3}, ExitCode::kConnection,
                         "rank " + std::to_string(rank) + "'s flows");
  if (!rows.is_array()) refuse(rank, "not a list of rows");
  std::vector<FlowRow> out;
  std::set<std::pair<uint32_t, int>> seen;
  for (const auto& r : rows) {
    FlowRow row = checked_row(r, rank, plan, repetitions);
    if (!seen.emplace(row.round, row.server).second)
      refuse(rank, "the flow to rank " + std::to_string(row.server) + " in round " +
                       std::to_string(row.round) + " twice");
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace rdmabench
