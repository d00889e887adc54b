#include "mesh/traffic_verdict.h"

#include <algorithm>
#include <tuple>

#include "core/exit_codes.h"
#include "mesh/outliers.h"

namespace rdmabench {

namespace {

// One host's part in one flow: what it sent or received in a round.
struct HostShare {
  int rank = 0;
  uint32_t round = 0;
  double sent = 0, received = 0;
  bool failed = false;
};

std::vector<HostShare> shares_of(const std::vector<FlowRow>& rows, int ranks) {
  std::vector<HostShare> shares;
  shares.reserve(rows.size() * 2);
  for (const FlowRow& f : rows) {
    if (f.client < 0 || f.client >= ranks || f.server < 0 || f.server >= ranks) continue;
    const bool failed = f.exit_code != 0;
    shares.push_back({f.client, f.round, f.bytes_per_second, 0, failed});
    shares.push_back({f.server, f.round, 0, f.bytes_per_second, failed});
  }
  std::sort(shares.begin(), shares.end(), [](const HostShare& a, const HostShare& b) {
    return std::tie(a.rank, a.round) < std::tie(b.rank, b.round);
  });
  return shares;
}

// One host's load from its shares [begin, end), sorted by round.
HostLoad load_of(std::vector<HostShare>::const_iterator begin,
                 std::vector<HostShare>::const_iterator end) {
  HostLoad h;
  h.rank = begin->rank;
  bool first_round = true;
  for (auto it = begin; it != end;) {
    double sent = 0, received = 0;
    const uint32_t round = it->round;
    for (; it != end && it->round == round; ++it) {
      sent += it->sent;
      received += it->received;
      ++h.flows;
      h.failed_flows += it->failed ? 1 : 0;
    }
    const double load = sent + received;
    if (first_round || load > h.best) {
      h.best = load;
      h.best_round = round;
      h.sent_at_best = sent;
      h.received_at_best = received;
    }
    h.worst = first_round ? load : std::min(h.worst, load);
    first_round = false;
  }
  return h;
}

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t m = values.size() / 2;
  return values.size() % 2 ? values[m] : (values[m - 1] + values[m]) / 2;
}

}  // namespace

TrafficVerdict judge_traffic(const std::vector<FlowRow>& rows, int ranks, double min_fraction) {
  TrafficVerdict v;
  const std::vector<HostShare> shares = shares_of(rows, ranks);
  for (auto it = shares.begin(); it != shares.end();) {
    auto end =
        std::find_if(it, shares.end(), [&](const HostShare& s) { return s.rank != it->rank; });
    v.hosts.push_back(load_of(it, end));
    it = end;
  }
  std::vector<double> bests;
  for (const HostLoad& h : v.hosts) bests.push_back(h.best);
  v.median = median_of(std::move(bests));
  v.threshold = slow_threshold(v.median, {min_fraction, true});
  for (HostLoad& h : v.hosts) {
    h.slow = h.best < v.threshold;
    if (h.slow) v.slow_hosts.push_back(h.rank);
  }
  for (const FlowRow& f : rows)
    if (f.exit_code != 0) {
      ++v.failed_flows;
      v.exit_code = std::max(v.exit_code, f.exit_code);
    }
  if (v.exit_code == 0 && !v.slow_hosts.empty())
    v.exit_code = static_cast<int>(ExitCode::kOutliers);
  return v;
}

}  // namespace rdmabench
