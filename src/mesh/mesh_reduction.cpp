#include "mesh/mesh_reduction.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <set>
#include <sstream>

#include "core/bounded_json.h"
#include "core/error.h"

namespace rdmabench {

namespace {

const std::vector<double>* row_of(const RankRows& rows, size_t b, const std::string& counter) {
  if (b >= rows.benchmarks.size()) return nullptr;
  const auto& counters = rows.benchmarks[b].counters;
  const auto it = counters.find(counter);
  return it == counters.end() ? nullptr : &it->second;
}

// Doubles as unsigned keys of the same order (negative values below positive ones).
uint64_t key_of(double value) {
  const auto bits = std::bit_cast<uint64_t>(value);
  return bits >> 63 ? ~bits : bits | (uint64_t{1} << 63);
}

double value_of(uint64_t key) {
  return std::bit_cast<double>(key >> 63 ? key & ~(uint64_t{1} << 63) : ~key);
}

constexpr int kDigitBits = 16;
constexpr size_t kBins = size_t{1} << kDigitBits;

// Every rank's histogram of the digit below a key's top `known` bits, summed, over the values
// whose key starts with `prefix` (those bits; every value when none are known).
std::vector<uint64_t> digit_histogram(const ReportRanks& ranks, size_t b,
                                      const std::string& counter, uint64_t prefix, int known) {
  std::vector<uint64_t> histogram(kBins);
  const int shift = 64 - known - kDigitBits;
  ranks.sum(
      [&](const RankRows& rows, std::span<uint64_t> total) {
        if (const auto* row = row_of(rows, b, counter))
          for (double v : *row) {
            if (std::isnan(v)) continue;
            const uint64_t key = key_of(v);
            if (known == 0 || key >> (64 - known) == prefix) ++total[(key >> shift) & (kBins - 1)];
          }
      },
      histogram);
  return histogram;
}

// The k-th smallest (from 0) value's key, found digit by digit from the first digit's
// histogram: each further digit is one more sum of every rank's histogram.
uint64_t select_key(const ReportRanks& ranks, size_t b, const std::string& counter,
                    std::vector<uint64_t> histogram, uint64_t k) {
  uint64_t prefix = 0;
  for (int known = 0;; known += kDigitBits) {
    size_t bin = 0;
    for (; bin + 1 < kBins && k >= histogram[bin]; ++bin) k -= histogram[bin];
    prefix = (prefix << kDigitBits) | bin;
    if (known + kDigitBits == 64) return prefix;
    histogram = digit_histogram(ranks, b, counter, prefix, known + kDigitBits);
  }
}

}  // namespace

double median_over_ranks(const ReportRanks& ranks, size_t b, const std::string& counter,
                         bool higher_is_better) {
  std::vector<uint64_t> top = digit_histogram(ranks, b, counter, 0, 0);
  uint64_t count = 0;
  for (uint64_t n : top) count += n;
  if (count == 0) return 0;
  const uint64_t mid = count / 2;
  const uint64_t k = count % 2 == 1 || higher_is_better ? mid : mid - 1;
  return value_of(select_key(ranks, b, counter, std::move(top), k));
}

namespace {

bool flagged(double v, FlagRule rule) {
  return rule.above ? v > rule.threshold : v < rule.threshold;
}

// The servers of a rank's flagged pairs, as 4-byte ranks.
std::string flagged_servers(const RankRows& rows, size_t b, const std::string& counter,
                            FlagRule rule) {
  std::string bytes;
  if (const auto* row = row_of(rows, b, counter))
    for (size_t s = 0; s < row->size(); ++s)
      if (!std::isnan((*row)[s]) && flagged((*row)[s], rule)) {
        const auto server = static_cast<uint32_t>(s);
        bytes.append(reinterpret_cast<const char*>(&server), sizeof server);
      }
  return bytes;
}

void list_pairs(const ReportRanks& ranks, size_t b, const std::string& counter, FlagRule rule,
                std::vector<MeshPair>& listed) {
  ranks.stream([&](const RankRows& rows) { return flagged_servers(rows, b, counter, rule); },
               [&](int client, std::string_view bytes) {
                 if (bytes.size() % sizeof(uint32_t) != 0)
                   throw Error(ExitCode::kConnection,
                               "mesh: rank " + std::to_string(client) +
                                   " sent a list of flagged pairs cut short");
                 for (size_t at = 0; at < bytes.size() && listed.size() < kListedPairs;
                      at += sizeof(uint32_t)) {
                   uint32_t server = 0;
                   std::memcpy(&server, bytes.data() + at, sizeof server);
                   if (server >= ranks.size())
                     throw Error(ExitCode::kConnection,
                                 "mesh: rank " + std::to_string(client) +
                                     " flagged a pair with a server beyond the last rank");
                   listed.push_back({client, static_cast<int>(server)});
                 }
               },
               ranks.size() * sizeof(uint32_t));
}

}  // namespace

OutlierReport flag_over_ranks(const ReportRanks& ranks, size_t b, const std::string& counter,
                              FlagRule rule) {
  const size_t n = ranks.size();
  // [0, n): measured pairs by server; [n, 2n): flagged ones; [2n, 3n): 1 for a sender whose
  // whole row is flagged.
  std::vector<uint64_t> lines(3 * n);
  ranks.sum(
      [&](const RankRows& rows, std::span<uint64_t> total) {
        const auto* row = row_of(rows, b, counter);
        if (row == nullptr) return;
        size_t measured = 0, flagged_here = 0;
        for (size_t s = 0; s < row->size() && s < n; ++s) {
          if (std::isnan((*row)[s])) continue;
          ++measured;
          ++total[s];
          if (flagged((*row)[s], rule)) ++flagged_here, ++total[n + s];
        }
        if (measured > 0 && flagged_here == measured && static_cast<size_t>(rows.rank) < n)
          total[2 * n + static_cast<size_t>(rows.rank)] = 1;
      },
      lines);
  OutlierReport report;
  report.threshold = rule.threshold;
  for (size_t h = 0; h < n; ++h) {
    report.flagged_pairs += lines[n + h];
    if (lines[h] > 0 && lines[n + h] == lines[h])
      report.slow_receivers.push_back(static_cast<int>(h));
    if (lines[2 * n + h] > 0) report.slow_senders.push_back(static_cast<int>(h));
  }
  if (report.flagged_pairs > 0) list_pairs(ranks, b, counter, rule, report.slow_pairs);
  return report;
}

std::vector<int> flag_groups_over_ranks(const ReportRanks& ranks, size_t b,
                                        const std::string& counter, FlagRule rule,
                                        const std::vector<int>& group_of, size_t groups) {
  // Per group: [0, G) pairs across measured, [G, 2G) of them flagged, [2G, 3G) pairs within
  // measured, [3G, 4G) of them flagged.
  std::vector<uint64_t> counts(4 * groups);
  const auto group = [&](size_t rank) {
    return rank < group_of.size() && static_cast<size_t>(group_of[rank]) < groups
               ? static_cast<size_t>(group_of[rank])
               : groups;
  };
  ranks.sum(
      [&](const RankRows& rows, std::span<uint64_t> total) {
        const auto* row = row_of(rows, b, counter);
        const size_t mine = group(static_cast<size_t>(rows.rank));
        if (row == nullptr || mine == groups) return;
        for (size_t s = 0; s < row->size(); ++s) {
          const size_t theirs = group(s);
          if (std::isnan((*row)[s]) || theirs == groups) continue;
          const uint64_t hit = flagged((*row)[s], rule) ? 1 : 0;
          if (theirs == mine) {
            ++total[2 * groups + mine];
            total[3 * groups + mine] += hit;
            continue;
          }
          for (size_t g : {mine, theirs}) ++total[g], total[groups + g] += hit;
        }
      },
      counts);
  std::vector<int> flagged_groups;
  for (size_t g = 0; g < groups; ++g) {
    const bool across = counts[g] > 0 && counts[groups + g] == counts[g];
    const bool within =
        counts[2 * groups + g] > 0 && counts[3 * groups + g] == counts[2 * groups + g];
    if (across && !within) flagged_groups.push_back(static_cast<int>(g));
  }
  return flagged_groups;
}

namespace {

constexpr size_t kExitCodes = 256;
constexpr size_t kMostCounters = 1000;  // a pair reports about 150
constexpr size_t kErrorMessageBytes = 1000;

// A rank's first failed pairs as JSON, as many of kListedErrors as fit in the message bound
// rank 0 holds it to (a message's escaping can double its length).
std::string listed_errors(const RankRows& rows, size_t b) {
  std::string list = "[";
  if (b >= rows.benchmarks.size()) return list + "]";
  const auto& errors = rows.benchmarks[b].errors;
  for (size_t i = 0; i < errors.size() && i < kListedErrors; ++i) {
    const PairResult& r = errors[i];
    const std::string one = nlohmann::json{
        {"client", r.pair.client},
        {"server", r.pair.server},
        {"message", r.error.substr(0, kErrorMessageBytes)},
        {"exit_code",
         r.exit_code}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (list.size() + one.size() + 2 > kMessageBounds.max_bytes) break;
    list += (i > 0 ? "," : "") + one;
  }
  return list + "]";
}

bool integer_in(const nlohmann::json& e, const char* key, long long least, long long most) {
  const auto it = e.find(key);
  return it != e.end() && it->is_number_integer() &&
         !(it->is_number_unsigned() && it->get<unsigned long long>() > 1ull << 62) &&
         it->get<long long>() >= least && it->get<long long>() <= most;
}

// {client, server, message, exit_code}, the ranks among `ranks`, the code a byte.
bool is_failure(const nlohmann::json& e, size_t ranks) {
  const auto last_rank = static_cast<long long>(ranks) - 1;
  return e.is_object() && e.size() == 4 && integer_in(e, "client", 0, last_rank) &&
         integer_in(e, "server", 0, last_rank) && e.contains("message") &&
         e["message"].is_string() && integer_in(e, "exit_code", 0, 255);
}

Error bad_failures(int rank) {
  return Error(ExitCode::kConnection,
               "mesh: rank " + std::to_string(rank) +
                   " sent its failed pairs as something other than a list of "
                   "{client, server, message, exit_code} of the mesh's ranks");
}

}  // namespace

BenchmarkFailures failures_over_ranks(const ReportRanks& ranks, size_t b) {
  // [0, 256): failed pairs by exit code; [256]: ranks with any result of the benchmark.
  std::vector<uint64_t> counts(kExitCodes + 1);
  ranks.sum(
      [&](const RankRows& rows, std::span<uint64_t> total) {
        if (b >= rows.benchmarks.size()) return;
        const BenchmarkRow& row = rows.benchmarks[b];
        for (const PairResult& r : row.errors) ++total[static_cast<uint8_t>(r.exit_code)];
        if (!row.errors.empty() || !row.counters.empty()) ++total[kExitCodes];
      },
      counts);
  BenchmarkFailures out;
  out.any_result = counts[kExitCodes] > 0;
  for (size_t code = 0; code < kExitCodes; ++code)
    if (counts[code] > 0) out.count += counts[code], out.worst_exit_code = static_cast<int>(code);
  if (out.count == 0) return out;
  ranks.stream(
      [&](const RankRows& rows) { return listed_errors(rows, b); },
      [&](int rank, std::string_view bytes) {
        const auto list =
            parse_bounded_json(std::string(bytes), kMessageBounds, ExitCode::kConnection,
                               "mesh: rank " + std::to_string(rank) + "'s failed pairs");
        if (!list.is_array()) throw bad_failures(rank);
        for (const auto& e : list) {
          if (!is_failure(e, ranks.size())) throw bad_failures(rank);
          if (out.listed.size() < kListedErrors)
            out.listed.push_back({e["client"].get<int>(), e["server"].get<int>(),
                                  e["message"].get<std::string>(), e["exit_code"].get<int>()});
        }
      },
      kMessageBounds.max_bytes);
  return out;
}

std::vector<std::string> counters_over_ranks(const ReportRanks& ranks, size_t b) {
  std::set<std::string> names;
  ranks.stream(
      [&](const RankRows& rows) {
        std::string text;
        if (b < rows.benchmarks.size())
          for (const auto& [counter, row] : rows.benchmarks[b].counters) text += counter + "\n";
        return text;
      },
      [&](int, std::string_view bytes) {
        std::istringstream in{std::string(bytes)};
        for (std::string line; std::getline(in, line);)
          if (!line.empty()) names.insert(line);
        if (names.size() > kMostCounters)
          throw Error(ExitCode::kConnection, "mesh: the ranks name more than " +
                                                 std::to_string(kMostCounters) + " counters");
      },
      kMessageBounds.max_bytes);
  std::string all;
  for (const std::string& name : names) all += name + "\n";
  std::vector<std::string> out;
  std::istringstream in(ranks.broadcast(all));
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace rdmabench
