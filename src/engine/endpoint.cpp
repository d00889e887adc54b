#include "engine/endpoint.h"

#include <algorithm>

#include "cq/registry.h"
#include "engine/payload.h"
#include "engine/spec_validation.h"
#include "verbs/device_list.h"

namespace rdmabench {

namespace {
constexpr uint64_t kMaxReceiveRingBytes = 64ull << 20;
constexpr uint32_t kMaxInline = 220;
}  // namespace

DeviceLimits device_limits(const Context& context, uint8_t port) {
  const ibv_device_attr dev = context.query_device();
  const ibv_port_attr pa = context.query_port(port);
  return {context.device_name(), pa.max_msg_sz, static_cast<uint32_t>(dev.max_qp_wr),
          static_cast<uint32_t>(dev.max_cqe), static_cast<uint32_t>(pa.gid_tbl_len)};
}

void check_device_limits(const Context& context, uint8_t port, const TestSpec& spec) {
  validate_spec(spec, device_limits(context, port));
}

Endpoint::Endpoint(const std::string& device, const TestSpec& spec, Side side)
    : spec_(spec), side_(side), name_(spec.name()) {
  context_ = std::make_unique<Context>(DeviceList().open(device));
  build(spec);
}

Endpoint::Endpoint(std::unique_ptr<CmEventChannel> channel, std::unique_ptr<CmId> id,
                   const TestSpec& spec, Side side)
    : spec_(spec),
      side_(side),
      name_(spec.name()),
      cm_channel_(std::move(channel)),
      cm_id_(std::move(id)) {
  context_ = std::make_unique<Context>(cm_id_->verbs(), Context::Ownership::kBorrowed);
  port_ = cm_id_->port_num();
  build(spec);
}

Endpoint::~Endpoint() = default;

void Endpoint::build(const TestSpec& spec) {
  check_device_limits(*context_, port_, spec);
  const ibv_device_attr dev = context_->query_device();
  rd_atomic = static_cast<uint32_t>(
      std::clamp(std::min(dev.max_qp_rd_atom, dev.max_qp_init_rd_atom), 1, 16));

  const bool receives = spec.server_receives();
  receive_depth_ = receives ? spec.rx_depth : 0;
  if (receives && spec.mode == Mode::kBandwidth) {
    ring_ = static_cast<uint32_t>(
        std::clamp<uint64_t>(kMaxReceiveRingBytes / spec.size, 1, spec.rx_depth));
  }
  send_credits = SendQueueCredits(spec.tx_depth, 0);
  pd_ = std::make_unique<ProtectionDomain>(*context_);
  comp_channel_ = std::make_unique<CompletionChannel>(*context_);  // unused (never armed) by busy
  const int cq_depth = static_cast<int>(spec.tx_depth + std::max<uint32_t>(receive_depth_, 1));
  cq_ = std::make_unique<CompletionQueue>(*context_, cq_depth, comp_channel_.get());
  prepare_strategy(*cq_, *context_, strategy());
  buffer_ = std::make_unique<MemoryRegion>(*pd_, spec.size * (1 + ring_));
  for (uint32_t i = 0; i <= ring_; ++i)
    fill_payload({buffer_->data() + i * spec.size, spec.size}, spec.size);
  // write latency detects arrival by a marker (1..255) in the target's last byte.
  if (spec.pattern == Pattern::kWrite && spec.mode == Mode::kLatency) target(0)[spec.size - 1] = 0;

  QpCapacity cap;
  cap.max_send_wr = spec.tx_depth;
  cap.max_recv_wr = std::max<uint32_t>(receive_depth_, 1);
  cap.max_inline_data = kMaxInline;
  if (cm_id_) {
    qp_ = std::make_unique<QueuePair>(*cm_id_, *pd_, *cq_, cap);
  } else {
    qp_ = std::make_unique<QueuePair>(*pd_, *cq_, cap);
  }

  // Receive work requests are built once; the hot path only re-posts them.
  recv_sges_.resize(ring_);
  recv_wrs_.resize(ring_);
  for (uint32_t i = 0; i < ring_; ++i) {
    recv_sges_[i] = {reinterpret_cast<uintptr_t>(target(i)), static_cast<uint32_t>(spec.size),
                     buffer_->lkey()};
    recv_wrs_[i] = {};
    recv_wrs_[i].wr_id = i;
    // write_imm data lands by RDMA; its receive only carries the immediate.
    recv_wrs_[i].sg_list = spec.pattern == Pattern::kSend ? &recv_sges_[i] : nullptr;
    recv_wrs_[i].num_sge = spec.pattern == Pattern::kSend ? 1 : 0;
  }
}

void Endpoint::post_initial_receives() {
  for (uint32_t i = 0; i < receive_depth_; ++i) post_receive(i);
}

void Endpoint::end_check_run() {
  for (uint32_t i = 0; i <= ring_; ++i)
    fill_payload({buffer_->data() + i * spec_.size, spec_.size}, spec_.size);
  // write lat's markers are 1..255: 0 can never be mistaken for the next message's arrival.
  if (spec_.pattern == Pattern::kWrite && spec_.mode == Mode::kLatency)
    target(0)[spec_.size - 1] = 0;
  checking = false;
  corrupt_from = kNever;
}

nlohmann::json Endpoint::path_in_use() {
  const QpPathInUse path = qp_->path_in_use();
  const GidEntry gid = context_->query_gid(path.port, path.sgid_index);
  return {{"device", context_->device_name()}, {"port", path.port},
          {"gid_index", path.sgid_index},      {"gid", format_gid(gid.raw)},
          {"gid_type", to_string(gid.type)},   {"mtu", path.mtu_bytes}};
}

RemoteBuffer Endpoint::local_buffer() const {
  return {buffer_->address() + spec_.size, buffer_->rkey(), spec_.size};
}

}  // namespace rdmabench
