// One side of a benchmark connection: device context, PD, completion channel, CQ (set up for
// this side's strategy), registered buffer and RC QP, created in that order and destroyed in
// reverse.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cq/poll_target.h"
#include "cq/strategy.h"
#include "engine/run_watch.h"
#include "engine/send_queue_credits.h"
#include "engine/spec_validation.h"
#include "engine/test_spec.h"
#include "verbs/cm_id.h"
#include "verbs/completion_channel.h"
#include "verbs/completion_queue.h"
#include "verbs/context.h"
#include "verbs/memory_region.h"
#include "verbs/protection_domain.h"
#include "verbs/queue_pair.h"

namespace rdmabench {

// Where the peer's buffer is (for RDMA write and read).
struct RemoteBuffer {
  uint64_t address = 0;
  uint32_t rkey = 0;
  uint64_t length = 0;
};

class Endpoint {
 public:
  // Out-of-band bootstrap: open `device` (empty = first) and build everything on it.
  Endpoint(const std::string& device, const TestSpec& spec, Side side);
  // rdma_cm bootstrap: build on the device the (resolved or requested) id is bound to.
  Endpoint(std::unique_ptr<CmEventChannel> channel, std::unique_ptr<CmId> id, const TestSpec& spec,
           Side side);
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  const TestSpec& spec() const noexcept { return spec_; }
  const std::string& name() const noexcept { return name_; }  // spec().name(), made once
  // This side's completion strategy.
  const CqStrategy& strategy() const noexcept { return spec_.cq.of(side_); }
  // What this side's poller works on in a run (empty polls and wakeups go to poll_counts).
  PollTarget poll_target(std::chrono::milliseconds timeout) noexcept {
    return {*cq_,
            *comp_channel_,
            poll_counts,
            strategy(),
            timeout,
            spec_.poll_batch,
            abort != nullptr ? &abort->raised : nullptr,
            abort_fd(),
            &name_};
  }
  PollCounts poll_counts;  // reset per run by the session or the server
  Context& context() noexcept { return *context_; }
  CompletionQueue& cq() noexcept { return *cq_; }
  CompletionChannel* completion_channel() noexcept { return comp_channel_.get(); }
  MemoryRegion& buffer() noexcept { return *buffer_; }
  QueuePair& qp() noexcept { return *qp_; }
  CmId* cm_id() noexcept { return cm_id_.get(); }
  uint8_t port() const noexcept { return port_; }

  // Buffer layout: slot 0 is what this side sends or writes from; slots 1..ring_ are where
  // receives, peer writes and local read results land. Each slot is spec.size bytes.
  uint8_t* source() noexcept { return buffer_->data(); }
  uint8_t* target(uint64_t i) noexcept {
    return buffer_->data() + static_cast<size_t>(1 + i % ring_) * spec_.size;
  }
  // Re-posts receive i (wr_id = i, landing in target(i)); write_imm receives carry no buffer.
  void post_receive(uint64_t i) { qp_->post_recv(recv_wrs_[i % ring_]); }
  // Fills the receive queue (spec.rx_depth receives) once, after the QP reached INIT.
  void post_initial_receives();

  RemoteBuffer local_buffer() const;
  // The path the connected QP really uses, for reports: {device, port, gid_index, gid,
  // gid_type, mtu}.
  nlohmann::json path_in_use();
  RemoteBuffer remote;    // filled by the bootstrap
  uint64_t sequence = 0;  // continues across runs (write-lat markers, imm numbers)

  // Set per run by the client session or the server, outside any timed window. A --verify
  // check run is a run of its own, untimed, in which receivers check every message.
  static constexpr uint64_t kNever = UINT64_MAX;
  bool checking = false;
  // Testing only (--debug-corrupt, in check runs): from this send of the run on, the sender's
  // payload carries one wrong byte, which the receiver's checks must catch.
  uint64_t corrupt_from = kNever;
  uint64_t posted = 0;  // sends posted in this run
  // Set by the server for the length of a run: the loops end it early once it is raised.
  const RunAbort* abort = nullptr;
  bool abort_requested() const noexcept {
    return abort != nullptr && abort->raised.load(std::memory_order_relaxed);
  }
  int abort_fd() const noexcept { return abort != nullptr ? abort->fd : -1; }
  // write lat: sends not yet covered by a reaped completion (its ids are sequence + 1, which
  // continue across runs, and so does what sits in the send queue).
  SendQueueCredits send_credits{1, 0};
  // Back to a clean state after a check run: the pattern in every slot, nothing corrupt.
  void end_check_run();
  uint32_t rd_atomic = 16;  // outstanding RDMA reads negotiated for this QP

 private:
  void build(const TestSpec& spec);

  TestSpec spec_;
  Side side_;
  std::string name_;
  std::unique_ptr<CmEventChannel> cm_channel_;
  std::unique_ptr<CmId> cm_id_;
  std::unique_ptr<Context> context_;
  std::unique_ptr<ProtectionDomain> pd_;
  std::unique_ptr<CompletionChannel> comp_channel_;
  std::unique_ptr<CompletionQueue> cq_;
  std::unique_ptr<MemoryRegion> buffer_;
  std::unique_ptr<QueuePair> qp_;
  std::vector<ibv_sge> recv_sges_;
  std::vector<ibv_recv_wr> recv_wrs_;
  uint32_t ring_ = 1;
  uint32_t receive_depth_ = 0;
  uint8_t port_ = 1;
};

// The limits validate_spec checks a spec against, read from an open device's port.
DeviceLimits device_limits(const Context& context, uint8_t port);
// validate_spec against this device: Error(kUsage) naming the field and the limit.
void check_device_limits(const Context& context, uint8_t port, const TestSpec& spec);

}  // namespace rdmabench
