// One side of a benchmark connection: device context, PD, completion groups (a CQ per thread,
// or per QP) and any number of QP streams, created in that order and destroyed in reverse.
// Thread t of a side drives the streams i with i % threads == t: its lane.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cq/strategy.h"
#include "datapath/async_event_watch.h"
#include "datapath/completion_group.h"
#include "datapath/qp_stream.h"
#include "datapath/shared_receives.h"
#include "spec/spec_validation.h"
#include "spec/test_spec.h"
#include "verbs/completion_queue.h"
#include "verbs/context.h"
#include "verbs/protection_domain.h"

namespace rdmabench {

// The streams one thread drives, and the distinct CQs they complete on (one, unless
// --cq-per-qp gave each stream its own). `Stream` is QpStream but in device-free tests.
template <typename Stream>
struct LaneOf {
  std::vector<Stream*> streams;
  std::vector<CompletionGroup*> groups;
  std::vector<uint32_t> group_of_stream;  // index into groups, per stream of the lane
};
using Lane = LaneOf<QpStream>;

class Endpoint {
 public:
  // Out-of-band bootstrap: open `device` (empty = first) and build all spec.qps streams on its
  // `port`.
  Endpoint(const std::string& device, uint8_t port, const TestSpec& spec, Side side);
  // rdma_cm bootstrap: build on the device rdma_cm bound the first id to; the streams come
  // one per connection with add_stream.
  Endpoint(const CmId& first, const TestSpec& spec, Side side);
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  const TestSpec& spec() const noexcept { return spec_; }
  const std::string& name() const noexcept { return name_; }  // spec().name(), made once
  Context& context() noexcept { return *context_; }
  uint8_t port() const noexcept { return port_; }
  uint32_t rd_atomic() const noexcept { return rd_atomic_; }

  // Adds the next stream (the QP on an rdma_cm id when `connection` has one).
  QpStream& add_stream(StreamConnection connection = {});
  std::vector<std::unique_ptr<QpStream>>& streams() noexcept { return streams_; }
  QpStream& stream(size_t i) noexcept { return *streams_[i]; }
  // Thread t's streams and CQs (valid once every stream is added).
  Lane lane(uint32_t t);

  // Per run, outside any timed window: every stream's run state and every CQ's counters
  // (through RunScope, which ends the run however it ends).
  void begin_run(bool check, uint64_t corrupt_from, const RunAbort* abort);
  void end_run();  // the run's abort flag is gone
  PollCounts poll_counts_of_lane(uint32_t t);
  void end_check_run();
  // The paths the connected QPs really use: the first stream's (all share device and port).
  PathInUse path_in_use() { return streams_.front()->path_in_use(*context_, port_); }
  // Throws the device's first fatal asynchronous event as this benchmark's error
  // (device_event_error), if one came since the endpoint was built.
  void raise_device_failure() const;
  // The device's events of the run under way or just ended, for its report.
  std::vector<std::string> run_device_events() const;

 private:
  void build();
  // Where the provider refuses a queue mapping key (siw: provider_facts.h), an idle CQ made
  // before every other queue whose mapping covers that key's page, so that none of this
  // endpoint's queues is given it (1 MiB of kernel memory on siw).
  void cover_refused_key(uint32_t vendor_id);
  // On a fatal event (the watch's thread): every QP to the error state, which flushes what
  // is outstanding, so that the run's waits end now.
  void fail_queue_pairs() noexcept;

  TestSpec spec_;
  Side side_;
  std::string name_;
  std::unique_ptr<Context> context_;
  uint8_t port_ = 1;
  uint32_t rd_atomic_ = 16;
  std::unique_ptr<ProtectionDomain> pd_;
  std::unique_ptr<CompletionQueue> key_cover_;  // cover_refused_key's, else none
  // An open-loop lane's channel, shared by its CQs with --cq-per-qp (destroyed after them).
  std::vector<std::unique_ptr<CompletionChannel>> lane_channels_;
  std::vector<std::unique_ptr<CompletionGroup>> groups_;
  std::unique_ptr<SharedReceives> shared_receives_;  // --srq on a side that receives
  std::vector<std::unique_ptr<QpStream>> streams_;   // QPs before their CQs
  std::mutex streams_lock_;                          // add_stream against fail_queue_pairs
  std::unique_ptr<AsyncEventWatch> events_;          // destroyed first: it fails the QPs
};

// Error(kUsage) unless the open device has `port` (which --ib-port chose); the second from
// the device's attributes already queried.
void check_port_exists(const Context& context, uint8_t port);
void check_port_exists(const Context& context, const ibv_device_attr& device, uint8_t port);

// The bytes one side of `spec` registers and pins: each QP's buffer rounded up to its pages
// (2 MiB ones with --hugepages), --srq's ring, and the work queues' and completion queues'
// entries (at upper bounds of the providers' entry sizes). What --max-memory caps and the
// memlock limit must allow (rdmabench doctor). Saturates at UINT64_MAX, never wraps.
uint64_t registered_bytes(const TestSpec& spec, Side side);
// The limits validate_spec checks a spec against, read from an open device's port (which
// must exist: check_port_exists); the second from the device's attributes already queried.
DeviceLimits device_limits(const Context& context, uint8_t port);
DeviceLimits device_limits(const Context& context, const ibv_device_attr& device, uint8_t port);

// One run of an endpoint, begun on construction and ended on destruction, on the client and
// the server alike: the run's abort flag never outlives it, whether it returns or throws.
class RunScope {
 public:
  RunScope(Endpoint& ep, bool check, uint64_t corrupt_from, const RunAbort* abort) : ep_(ep) {
    ep_.begin_run(check, corrupt_from, abort);
  }
  ~RunScope() { ep_.end_run(); }
  RunScope(const RunScope&) = delete;
  RunScope& operator=(const RunScope&) = delete;

 private:
  Endpoint& ep_;
};

}  // namespace rdmabench
