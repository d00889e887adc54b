// perftest's post list (-l, our --post-list N): a stream's sends go to the device N at a time,
// in one post (QueuePair::post_sends: one pass through the extended API, one chain through
// ibv_post_send). The requests are built before timing starts; each post readies the ones it
// takes.
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
    requests_.reserve(n);  // no reallocation: a chain's `next` points into the vector
    for (uint32_t i = 0; i < n; ++i) requests_.emplace_back(ep, opcode);
  }
  ChainedSends(const ChainedSends&) = delete;
  ChainedSends& operator=(const ChainedSends&) = delete;

  uint32_t capacity() const noexcept { return static_cast<uint32_t>(requests_.size()); }

  // Posts `posts` times `count` requests, `count` a post, ready(request) readying each, in
  // the order they go, just before the QP takes it.
  template <typename Ready>
  [[gnu::always_inline]] void post(Stream& ep, uint64_t posts, uint32_t count, Ready&& ready) {
    ep.qp().post_sends(
        posts, count,
        requests_.front().wr(), [&](uint32_t k) __attribute__((always_inline))->ibv_send_wr & {
          StreamSendRequest<Stream>& r = requests_[k];
          ready(r);
          return r.wr();
        });
  }

 private:
  std::vector<StreamSendRequest<Stream>> requests_;
};

}  // namespace rdmabench
