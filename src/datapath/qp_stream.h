// One QP of an endpoint and everything a pattern's loop needs to drive it: its registered
// buffer, its prepared receives, the peer's buffer, and its run state. A pattern's loop works
// on streams and knows nothing of threads; several streams may share one CompletionGroup.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/sample_clock.h"
#include "cq/poll_target.h"
#include "cq/strategy.h"
#include "datapath/checked_write_ring.h"
#include "datapath/completion_group.h"
#include "datapath/path_in_use.h"
#include "datapath/run_watch.h"
#include "datapath/send_queue_credits.h"
#include "datapath/shared_receives.h"
#include "spec/test_spec.h"
#include "verbs/address_handle.h"
#include "verbs/cm_id.h"
#include "verbs/memory_region.h"
#include "verbs/protection_domain.h"
#include "verbs/queue_pair.h"
#include "verbs/work_request.h"

namespace rdmabench {

// Where the peer's buffer is (for RDMA write and read).
struct RemoteBuffer {
  uint64_t address = 0;
  uint32_t rkey = 0;
  uint64_t length = 0;
};

// Work request ids carry the stream's index above this bit, so that a CQ shared by several
// streams can hand each completion to its own stream.
inline constexpr unsigned kStreamShift = 48;
inline constexpr uint64_t kInStreamMask = (uint64_t{1} << kStreamShift) - 1;
inline uint32_t stream_of(uint64_t wr_id) noexcept {
  return static_cast<uint32_t>(wr_id >> kStreamShift);
}

// Where a stream's QP comes from: built by hand (oob) or on an rdma_cm id.
struct StreamConnection {
  std::unique_ptr<CmEventChannel> channel;  // rdma_cm only
  std::unique_ptr<CmId> id;
};

class QpStream {
 public:
  // `shared`: the side's shared receive queue (--srq), which this stream's receives come from
  // (null: its own receive queue).
  QpStream(const TestSpec& spec, Side side, const std::string& name, uint32_t index,
           const ProtectionDomain& pd, CompletionGroup& group, StreamConnection connection,
           uint64_t ring_bytes, SharedReceives* shared = nullptr);
  ~QpStream();
  QpStream(const QpStream&) = delete;
  // The bytes a stream of `spec` registers on `side`: its send slot and its receive ring
  // (a bw receiver's ring holds what fits in `ring_bytes`, at most rx_depth messages).
  static uint64_t buffer_bytes(const TestSpec& spec, Side side, uint64_t ring_bytes);
  QpStream& operator=(const QpStream&) = delete;

  const TestSpec& spec() const noexcept { return spec_; }
  const std::string& name() const noexcept { return name_; }  // the benchmark's, for messages
  uint32_t index() const noexcept { return index_; }
  const CqStrategy& strategy() const noexcept { return spec_.cq.of(side_); }
  CompletionGroup& group() noexcept { return group_; }
  // What this stream's poller works on in a run (its CQ may be shared with other streams).
  PollTarget poll_target(std::chrono::milliseconds timeout) noexcept {
    return {group_.queues(),
            *group_.channel,
            group_.counts,
            strategy(),
            timeout,
            spec_.poll_batch,
            abort_ != nullptr ? &abort_->raised : nullptr,
            abort_fd(),
            &name_,
            abort_ != nullptr ? &abort_->peer_ended : nullptr,
            !spec_.transport->reliable,
            spec_.qps_per_cq()};
  }
  MemoryRegion& buffer() noexcept { return *buffer_; }
  QueuePair& qp() noexcept { return *qp_; }
  CmId* cm_id() noexcept { return connection_.id.get(); }

  // Buffer layout: slot 0 is what this side sends or writes from; slots 1..ring_ are where
  // receives, peer writes and local read results land. Each slot is spec.size bytes after the
  // transport's receive header room (UD: 40 bytes for the GRH, which a receive also takes).
  uint8_t* source() noexcept { return buffer_->data() + header_; }
  uint8_t* target(uint64_t i) noexcept {
    return buffer_->data() + static_cast<size_t>(1 + (i & kInStreamMask) % ring_) * stride() +
           header_;
  }
  // The payload bytes a receive completion carries (byte_len counts the header room too).
  uint32_t payload_length(const ibv_wc& wc) const noexcept {
    return wc.byte_len >= header_ ? wc.byte_len - header_ : 0;
  }
  // Where a datagram QP's sends go (set by connect_datagram; no address handle when the
  // transport is connected).
  DatagramDestination datagram_destination() const noexcept { return destination_; }
  // A datagram QP's peer: the address handle every send of this stream names.
  void connect_datagram(const QpAddress& peer, const QpPath& path);
  // Re-posts receive i (its wr_id carries the stream; it lands in target(i)); write_imm
  // receives carry no buffer. With a shared receive queue, receive i of that queue.
  void post_receive(uint64_t i) {
    if (shared_ != nullptr) [[unlikely]]
      return shared_->post(i);
    qp_->post_recv(receives_[(i & kInStreamMask) % ring_].native());
  }
  // Where the payload of the receive with this wr_id landed.
  uint8_t* receive_slot(uint64_t id) noexcept {
    return shared_ != nullptr ? shared_->slot(id) : target(id);
  }
  // Fills the receive queue (spec.rx_depth receives) once, after the QP reached INIT (a shared
  // receive queue is filled by its owner).
  void post_initial_receives();
  // The id of this stream's send number `seq` (1-based within a run).
  uint64_t send_id(uint64_t seq) const noexcept { return (uint64_t{index_} << kStreamShift) | seq; }

  RemoteBuffer local_buffer() const;
  // What the buffer and the QP grant: local write, and the remote access the pattern needs.
  // (--validate's write bw: and the read of the target's checked count.)
  int access_flags() const noexcept {
    return IBV_ACCESS_LOCAL_WRITE | static_cast<int>(spec_.pattern->remote_access) |
           (spec_.checks_landed_writes() ? IBV_ACCESS_REMOTE_READ : 0);
  }
  // --validate's write bw: the word counting the writes the target checked (on the target, what
  // it publishes; on the sender, where its reads of that count land).
  uint64_t* checked_count_word() noexcept {
    return reinterpret_cast<uint64_t*>(buffer_->data() +
                                       checked_count_offset(stride(), uint64_t{1} + ring_));
  }
  // The path the connected QP really uses, for reports.
  PathInUse path_in_use(const Context& context, uint8_t bound_port);
  // The peer's buffer (RDMA write, read and atomics), as the bootstrap learnt it.
  const RemoteBuffer& remote() const noexcept { return remote_; }
  void connect_remote(const RemoteBuffer& peer) noexcept { remote_ = peer; }
  // RDMA reads and atomics this QP keeps in flight, as negotiated with the peer.
  uint32_t rd_atomic() const noexcept { return rd_atomic_; }
  void set_rd_atomic(uint32_t outstanding) noexcept { rd_atomic_ = outstanding; }

  // The loops' state, which they move: the sequence continues across runs (write-lat markers,
  // imm numbers); posted counts this run's sends.
  uint64_t sequence = 0;
  uint64_t posted = 0;
  // write lat: sends not yet covered by a reaped completion (its ids are sequence + 1, which
  // continue across runs, and so does what sits in the send queue).
  SendQueueCredits send_credits{1, 0};

  // One run, set by the endpoint outside any timed window: whether it is a --verify check run
  // (untimed, receivers check every message); testing only (--debug-corrupt, in check runs):
  // from which send of the run on the sender's payload carries one wrong byte, which the
  // receiver's checks must catch; and what ends it early when raised.
  static constexpr uint64_t kNever = UINT64_MAX;
  void begin_run(bool check, uint64_t corrupt_from, const RunAbort* abort) noexcept {
    checking_ = check;
    posted = 0;
    abort_ = abort;
    if (check) corrupt_from_ = corrupt_from;
  }
  void end_run() noexcept { abort_ = nullptr; }
  bool checking() const noexcept { return checking_; }
  uint64_t corrupt_from() const noexcept { return corrupt_from_; }
  bool abort_requested() const noexcept {
    return abort_ != nullptr && abort_->raised.load(std::memory_order_relaxed);
  }
  int abort_fd() const noexcept { return abort_ != nullptr ? abort_->fd : -1; }
  // Has the peer said it has ended its sends (its "finished", where the server watches for it)?
  bool peer_has_ended() const noexcept {
    return abort_ != nullptr && abort_->peer_ended.load(std::memory_order_acquire);
  }
  // What lat samples are read with (set by run_side; none: CLOCK_MONOTONIC).
  void use_clock(const SampleClock* clock) noexcept { clock_ = clock; }
  const SampleClock& sample_clock() const noexcept {
    return clock_ != nullptr ? *clock_ : monotonic_sample_clock();
  }
  // The payload every message must carry (payload.h's pattern for the spec's size), which the
  // checks compare with.
  std::span<const uint8_t> expected_payload() const noexcept { return expected_; }
  // Back to a clean state after a check run: the pattern in every slot, nothing corrupt.
  void end_check_run();

 private:
  void fill_buffer();
  size_t stride() const noexcept { return spec_.size + header_; }

  const TestSpec& spec_;
  Side side_;
  const std::string& name_;
  uint32_t index_;
  CompletionGroup& group_;
  StreamConnection connection_;
  std::unique_ptr<MemoryRegion> buffer_;
  const ProtectionDomain& pd_;
  SharedReceives* shared_ = nullptr;
  uint32_t header_ = 0;                  // receive header room ahead of each slot (the transport's)
  std::unique_ptr<AddressHandle> peer_;  // datagram transports: the peer's address
  DatagramDestination destination_{};
  QpPath datagram_path_{};
  std::unique_ptr<QueuePair> qp_;  // destroyed first
  std::vector<ReceiveWorkRequest> receives_;
  std::vector<uint8_t> expected_;  // the pattern of one message
  uint32_t ring_ = 1;
  uint32_t receive_depth_ = 0;
  RemoteBuffer remote_;  // filled by the bootstrap
  uint32_t rd_atomic_ = 16;
  bool checking_ = false;
  uint64_t corrupt_from_ = kNever;
  const RunAbort* abort_ = nullptr;
  const SampleClock* clock_ = nullptr;
};

}  // namespace rdmabench
