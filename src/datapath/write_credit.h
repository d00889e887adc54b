// The sender's side of --validate's write bw (checked_write_ring.h): which slot of the target's
// ring each write goes to, and how many more it may write before a slot not yet checked comes
// round again. It learns the target's checked count by an RDMA read (signalled, with an id of its
// own, in one more send queue entry), posted when less than half the ring's room is left and no
// read is in flight: its completion wakes every strategy, so a sender out of room always has a
// completion coming.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <string>

#include "core/error.h"
#include "datapath/checked_write_ring.h"
#include "datapath/qp_stream.h"
#include "verbs/work_request.h"

namespace rdmabench {

// The id a stream's read of the checked count completes with, in the stream's id space: above
// any send's number.
inline constexpr uint64_t kCheckedCountRead = kInStreamMask;

class WriteCredit {
 public:
  WriteCredit() = default;  // off: no slots, no limit
  // On `s`, whose peer's ring is laid out as `ring`; the reads land in `landing`.
  template <typename Stream>
  WriteCredit(Stream& s, const CheckedWriteRing& ring, uint64_t* landing)
      : ring_(ring),
        landing_(landing),
        read_(SendWorkRequest::rdma(
            IBV_WR_RDMA_READ,
            {reinterpret_cast<uintptr_t>(landing), sizeof(uint64_t), s.buffer().lkey()},
            {ring.count_address(), s.remote().rkey})) {
    read_.native().wr_id = s.send_id(kCheckedCountRead);
    read_.native().send_flags = IBV_SEND_SIGNALED;
  }

  bool on() const noexcept { return ring_.slots != 0; }
  // The writes the target has said it checked, and whether a read of its count is in flight.
  uint64_t checked() const noexcept { return checked_; }
  bool reading() const noexcept { return reading_; }
  // Writes that may be posted after `posted` of the run without overwriting an unchecked slot.
  uint64_t room(uint64_t posted) const noexcept { return checked_ + ring_.slots - posted; }
  // Is a read of the count due (less than half the room left, none in flight)?
  bool wants_read(uint64_t posted) const noexcept {
    return !reading_ && 2 * room(posted) < ring_.slots;
  }
  template <typename Stream>
  void post_read(Stream& s) {
    reading_ = true;
    s.qp().post_send(read_.native());
  }
  // The read's completion: the count it brought. A target that says it checked more than was
  // posted is refused, never taken as room.
  void take_read(uint64_t posted) {
    reading_ = false;
    const uint64_t count = __atomic_load_n(landing_, __ATOMIC_ACQUIRE);
    if (count > posted) [[unlikely]]
      throw Error(ExitCode::kRuntime,
                  "--validate: the target says it checked " + std::to_string(count) +
                      " writes of a stream that posted " + std::to_string(posted) +
                      " (a peer that does not check writes as this version does)");
    if (count > checked_) checked_ = count;
  }
  uint64_t slot_address(uint64_t n) const noexcept { return ring_.slot_address(n); }

 private:
  CheckedWriteRing ring_{};
  uint64_t* landing_ = nullptr;
  SendWorkRequest read_ = SendWorkRequest::send(IBV_WR_SEND, {});
  uint64_t checked_ = 0;
  bool reading_ = false;
};

}  // namespace rdmabench
