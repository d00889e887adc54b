// Which stream of a lane (one thread's QPs) a completion is for, on a CQ the lane's streams
// share: its wr_id names the run's stream (stream i of the run is lane-local i / threads),
// except a receive from a shared receive queue (--srq), which only the QP it arrived on names.
// One lookup for every lane that shares a CQ (bw lanes, the open loop's client and server).
#pragma once

#include <infiniband/verbs.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "datapath/qp_stream.h"
#include "datapath/transfer_loops.h"

namespace rdmabench {

// The QP numbers of a lane's streams, in the lane's order.
template <typename Stream>
std::vector<uint32_t> qp_numbers_of(const std::vector<Stream*>& streams) {
  std::vector<uint32_t> out;
  for (Stream* s : streams) out.push_back(s->qp().number());
  return out;
}

class StreamOfCompletion {
 public:
  // `qp_numbers`: the lane's streams' QPs, in the lane's order; `threads`: the run's lanes.
  StreamOfCompletion(const std::vector<uint32_t>& qp_numbers, uint32_t threads,
                     bool shared_receives)
      : threads_(threads), shared_receives_(shared_receives) {
    for (uint32_t j = 0; j < qp_numbers.size(); ++j) by_qp_.emplace_back(qp_numbers[j], j);
    std::sort(by_qp_.begin(), by_qp_.end());
  }

  // The lane-local stream (0, 1, ...); Error(kRuntime) when no stream of the lane has it.
  uint32_t operator()(const ibv_wc& wc) const {
    if (shared_receives_ && is_receive(wc)) [[unlikely]]
      return of_qp(wc.qp_num);
    const uint32_t stream = stream_of(wc.wr_id);
    if (stream / threads_ >= by_qp_.size()) [[unlikely]]
      throw Error(ExitCode::kRuntime, "a completion named stream " + std::to_string(stream) +
                                          ", which no stream of this thread drives");
    return stream / threads_;
  }

 private:
  uint32_t of_qp(uint32_t qp_num) const {
    const auto it = std::lower_bound(by_qp_.begin(), by_qp_.end(), std::pair{qp_num, 0u});
    if (it == by_qp_.end() || it->first != qp_num)
      throw Error(ExitCode::kRuntime, "a receive completed on QP " + std::to_string(qp_num) +
                                          ", which no stream of this thread drives");
    return it->second;
  }

  uint32_t threads_;
  bool shared_receives_;
  std::vector<std::pair<uint32_t, uint32_t>> by_qp_;  // QP number, lane-local stream
};

}  // namespace rdmabench
