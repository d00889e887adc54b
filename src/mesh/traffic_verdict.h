// What `mesh --traffic` judges: each host by what its NIC carried under the pattern. In every
// round a host's load is the bytes per second of all its flows that round, sent and received;
// a host is judged on its best round, against the median of every host's best. A healthy host
// has a round at full rate even beside a slow one, whose every round is slow: the one rule
// names the slow host in an incast, a ring or a bisection alike, not its partners.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rdmabench {

// One flow as its client measured it.
struct FlowRow {
  uint32_t round = 0;  // over repetitions: repetition * plan rounds + round
  int client = 0;
  int server = 0;
  double bytes_per_second = 0;  // 0 when it failed
  int exit_code = 0;            // the failure's ExitCode, 0 when it ran
  std::string error;            // why it failed, printable
};

struct HostLoad {
  int rank = 0;
  uint32_t flows = 0;         // this host's flows, either way
  uint32_t failed_flows = 0;  // of them
  double best = 0;            // bytes per second, sent and received, in its best round
  uint32_t best_round = 0;    // (the first of equals)
  double sent_at_best = 0, received_at_best = 0;
  double worst = 0;   // in its worst round
  bool slow = false;  // best below min_fraction of the median
};

struct TrafficVerdict {
  std::vector<HostLoad> hosts;  // by rank; a rank in no flow is left out
  double median = 0;            // of the hosts' best
  double threshold = 0;         // min_fraction of it
  std::vector<int> slow_hosts;
  size_t failed_flows = 0;
  int exit_code = 0;  // the worst failure's, else kOutliers for a slow host, else 0
};

TrafficVerdict judge_traffic(const std::vector<FlowRow>& rows, int ranks, double min_fraction);

}  // namespace rdmabench
