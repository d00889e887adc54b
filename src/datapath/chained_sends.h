// perftest's post list (-l, our --post-list N): a stream's sends go to the device N at a time,
// chained through `next`, in one ibv_post_send. The requests are built before timing starts;
// posting a shorter chain cuts it for that one call.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <vector>

#include "datapath/transfer_loops.h"

namespace rdmabench {

template <typename Stream>
class ChainedSends {
 public:
  ChainedSends(Stream& ep, ibv_wr_opcode opcode) {
    const uint32_t n = std::max<uint32_t>(1, ep.spec().post_list);
    requests_.reserve(n);  // no reallocation: each `next` points into the vector
    for (uint32_t i = 0; i < n; ++i) requests_.emplace_back(ep, opcode);
    for (uint32_t i = 0; i + 1 < n; ++i) requests_[i].wr().next = &requests_[i + 1].wr();
  }
  ChainedSends(const ChainedSends&) = delete;
  ChainedSends& operator=(const ChainedSends&) = delete;

  uint32_t capacity() const noexcept { return static_cast<uint32_t>(requests_.size()); }
  StreamSendRequest<Stream>& operator[](uint32_t i) noexcept { return requests_[i]; }

  // Posts the first `count` requests (each prepared) in one ibv_post_send.
  void post(Stream& ep, uint32_t count) {
    ibv_send_wr& last = requests_[count - 1].wr();
    ibv_send_wr* const after = last.next;
    last.next = nullptr;
    ep.qp().post_send(requests_.front().wr());
    last.next = after;
  }

 private:
  std::vector<StreamSendRequest<Stream>> requests_;
};

}  // namespace rdmabench
