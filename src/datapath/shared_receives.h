// The receives of every QP of one side, from one shared receive queue (--srq): a ring of slots
// in a region of their own, each receive's wr_id its slot number and nothing more, since
// whichever QP a message arrives on takes the next receive (its completion's qp_num names the
// QP). Built before the QPs that use it, which it outlives.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/saturating.h"
#include "datapath/receive_ring.h"
#include "spec/test_spec.h"
#include "verbs/memory_region.h"
#include "verbs/protection_domain.h"
#include "verbs/shared_receive_queue.h"
#include "verbs/work_request.h"

namespace rdmabench {

// Receive `id` into the slot whose payload starts at `payload`, with the transport's receive
// header room just before it: the whole slot, or only the immediate where the pattern's
// receives carry no data (write_imm: the data comes by RDMA).
inline ReceiveWorkRequest slot_receive(const TestSpec& spec, uint64_t id, uint8_t* payload,
                                       uint32_t lkey) {
  const uint32_t header = spec.transport->receive_header_bytes;
  const ibv_sge slot{reinterpret_cast<uintptr_t>(payload - header),
                     static_cast<uint32_t>(spec.size + header), lkey};
  return spec.pattern->receive_holds_data ? ReceiveWorkRequest(id, slot)
                                          : ReceiveWorkRequest::without_data(id);
}

class SharedReceives {
 public:
  // spec.rx_depth receives, all posted at once, into the slots receive_ring.h gives them within
  // `ring_bytes` (each the transport's receive header room and spec.size bytes).
  SharedReceives(const ProtectionDomain& pd, const TestSpec& spec, uint64_t ring_bytes)
      : header_(spec.transport->receive_header_bytes),
        stride_(spec.size + header_),
        ring_(receive_ring_slots(spec, ring_bytes)),
        buffer_(pd, stride_ * ring_, IBV_ACCESS_LOCAL_WRITE,
                spec.hugepages ? Pages::kHuge2M : Pages::kSystem),
        queue_(pd, spec.rx_depth) {
    receives_.reserve(ring_);
    for (uint32_t i = 0; i < ring_; ++i)
      receives_.push_back(slot_receive(spec, i, slot(i), buffer_.lkey()));
    for (uint32_t i = 0; i < spec.rx_depth; ++i) post(i);
  }

  // The bytes of the ring's buffer, before it is rounded to pages (registered_bytes).
  static uint64_t buffer_bytes(const TestSpec& spec, uint64_t ring_bytes) {
    return saturating_mul(receive_slot_bytes(spec), receive_ring_slots(spec, ring_bytes));
  }

  SharedReceiveQueue& queue() noexcept { return queue_; }
  // Re-posts receive `id` (a completion's wr_id).
  void post(uint64_t id) { queue_.post(receives_[id % ring_].native()); }
  // Where receive `id`'s payload landed.
  uint8_t* slot(uint64_t id) noexcept { return buffer_.data() + (id % ring_) * stride_ + header_; }

 private:
  uint32_t header_;
  uint64_t stride_;
  uint32_t ring_;
  // Declared before the queue, so destroyed after it: the region stays registered while
  // receives posted into it are still on the queue (it was deregistered first).
  MemoryRegion buffer_;
  SharedReceiveQueue queue_;
  std::vector<ReceiveWorkRequest> receives_;
};

}  // namespace rdmabench
