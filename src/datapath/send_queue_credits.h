// How many sends a loop may still post before the send queue could be full. On hardware
// providers a send-queue slot is freed only when a completion covering it is polled (with
// selective signalling, a signalled completion covers every earlier send), so a loop that reaps
// rarely must count. Work request ids must increase with every post.
#pragma once

#include <algorithm>
#include <cstdint>

namespace rdmabench {

class SendQueueCredits {
 public:
  // `depth`: the queue's capacity; `last_id`: the id of the last send already reaped.
  SendQueueCredits(uint64_t depth, uint64_t last_id) noexcept
      : depth_(depth), posted_(last_id), reaped_(last_id) {}

  bool full() const noexcept { return posted_ - reaped_ >= depth_; }
  uint64_t outstanding() const noexcept { return posted_ - reaped_; }
  void posted(uint64_t wr_id) noexcept { posted_ = wr_id; }
  // A send completion (signalled) for `wr_id`: it and every earlier send are done.
  void reaped(uint64_t wr_id) noexcept { reaped_ = std::max(reaped_, wr_id); }

 private:
  uint64_t depth_;
  uint64_t posted_;
  uint64_t reaped_;
};

}  // namespace rdmabench
