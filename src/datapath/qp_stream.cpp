#include "datapath/qp_stream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/device_report.h"
#include "core/gid.h"
#include "core/saturating.h"
#include "datapath/atomic_operands.h"
#include "datapath/inline_fallback.h"
#include "datapath/payload.h"
#include "datapath/receive_ring.h"

namespace rdmabench {

namespace {

// The receive slots of a stream's buffer beside its send slot.
uint32_t ring_slots(const TestSpec& spec, Side side, uint64_t ring_bytes) {
  // Atomics: the peer's counter, then a slot for each atomic in flight (atomic_operands.h).
  if (is_atomic(spec.pattern->opcode)) return 1 + spec.tx_depth;
  // --validate's write bw: the target's ring of checked slots (checked_write_ring.h).
  if (spec.checks_landed_writes()) return side == Side::kServer ? checked_write_slots(spec) : 1;
  const bool bw = spec.mode == Mode::kBandwidth;
  // --validate: a slot for each read in flight (transfer_loops.h read_slot); a receiver's ring
  // (receive_ring.h).
  if (spec.validate && bw && spec.pattern->opcode == IBV_WR_RDMA_READ) return 1 + spec.tx_depth;
  if (spec.receives_on(side) && bw) return receive_ring_slots(spec, ring_bytes);
  return 1;
}

// The bytes of a buffer of `slots` slots of `stride`: with --validate's write bw, and the word
// after them that counts the writes checked (checked_write_ring.h).
uint64_t slotted_bytes(const TestSpec& spec, uint64_t stride, uint64_t slots) {
  const uint64_t bytes = saturating_mul(stride, slots);
  return spec.checks_landed_writes() ? saturating_add(checked_count_offset(bytes, 1), 8) : bytes;
}

}  // namespace

uint64_t QpStream::buffer_bytes(const TestSpec& spec, Side side, uint64_t ring_bytes) {
  return slotted_bytes(spec, receive_slot_bytes(spec),
                       uint64_t{1} + ring_slots(spec, side, ring_bytes));
}

QpStream::QpStream(const TestSpec& spec, Side side, const std::string& name, uint32_t index,
                   const ProtectionDomain& pd, CompletionGroup& group, StreamConnection connection,
                   uint64_t ring_bytes, SharedReceives* shared)
    : spec_(spec),
      side_(side),
      name_(name),
      index_(index),
      group_(group),
      connection_(std::move(connection)),
      pd_(pd),
      shared_(shared),
      header_(spec.transport->receive_header_bytes) {
  // Both sides size alike: a side that never receives keeps one unused receive slot.
  receive_depth_ = spec.server_receives() ? spec.rx_depth : 0;
  ring_ = ring_slots(spec, side, ring_bytes);
  send_credits = SendQueueCredits(spec.tx_depth, 0);
  buffer_ =
      std::make_unique<MemoryRegion>(pd, slotted_bytes(spec, stride(), 1 + ring_), access_flags(),
                                     spec.hugepages ? Pages::kHuge2M : Pages::kSystem);
  expected_.resize(spec.size);
  fill_payload(expected_, spec.size);
  fill_buffer();

  QpCapacity cap;
  // --validate's write bw: one more, for the read of the target's checked count.
  cap.max_send_wr = spec.tx_depth + (spec.checks_landed_writes() ? 1 : 0);
  cap.max_recv_wr = std::max<uint32_t>(receive_depth_, 1);
  cap.max_inline_data = spec.inline_size.value_or(kAutoInline);
  if (shared_ != nullptr) cap.srq = &shared_->queue();
  cap.post_api = spec.post_api;
  // Asked again for less while the device refuses; the context reports what was granted.
  qp_ = create_with_inline_fallback(cap.max_inline_data, [&](uint32_t inline_bytes) {
    QpCapacity asked = cap;
    asked.max_inline_data = inline_bytes;
    return connection_.id
               ? std::make_unique<QueuePair>(spec.transport, *connection_.id, pd, *group.cq, asked)
               : std::make_unique<QueuePair>(spec.transport, pd, *group.cq, asked);
  });

  // Receive work requests are built once; the hot path only re-posts them.
  receives_.reserve(ring_);
  for (uint32_t i = 0; i < ring_; ++i) {
    const uint64_t id = (uint64_t{index_} << kStreamShift) | i;
    receives_.push_back(slot_receive(spec, id, target(i), buffer_->lkey()));
  }
}

QpStream::~QpStream() = default;

void QpStream::fill_buffer() {
  // An atomic pattern's counter holds what the peer's atomics made of it: 0 in a new (zeroed)
  // region, and whatever they left after a check run.
  uint64_t counter = 0;
  const bool atomic = is_atomic(spec_.pattern->opcode);
  if (atomic) std::memcpy(&counter, target(0), sizeof counter);
  fill_payload({source(), spec_.size}, spec_.size);
  for (uint32_t i = 0; i < ring_; ++i) fill_payload({target(i), spec_.size}, spec_.size);
  if (atomic) std::memcpy(target(0), &counter, sizeof counter);
  // write lat detects arrival by a marker (1..255) in the target's last byte.
  if (spec_.pattern->arrival == Arrival::kMarker && spec_.mode == Mode::kLatency)
    target(0)[spec_.size - 1] = 0;
}

void QpStream::post_initial_receives() {
  if (shared_ != nullptr) return;
  for (uint32_t i = 0; i < receive_depth_; ++i) post_receive(i);
}

void QpStream::end_check_run() {
  fill_buffer();  // 0 in write lat's marker byte can never be mistaken for an arrival
  checking_ = false;
  corrupt_from_ = kNever;
}

void QpStream::connect_datagram(const QpAddress& peer, const QpPath& path) {
  peer_ = std::make_unique<AddressHandle>(pd_, peer, path);
  destination_ = {peer_->native(), peer.qp_number, kQkey};
  datagram_path_ = path;
}

PathInUse QpStream::path_in_use(const Context& context, uint8_t bound_port) {
  QpPathInUse path = qp_->path_in_use(bound_port);
  if (peer_) {  // a datagram's path is its address handle's, and its MTU the one agreed
    path.sgid_index = datagram_path_.sgid_index;
    path.mtu_bytes = 128u << datagram_path_.mtu;  // IBV_MTU_256 is 1
    path.traffic_class = datagram_path_.traffic_class;
    path.service_level = datagram_path_.service_level;
  }
  const GidEntry gid = context.query_gid(path.port, path.sgid_index);
  const ibv_port_attr port = context.query_port(path.port);
  return {.device = context.device_name(),
          .fabric = context.fabric(path.port),
          .firmware = context.query_device().fw_ver,
          .port = path.port,
          .link_speed_gbps = link_speed_gbps(port.active_speed, port.active_width),
          .link_width = link_width(port.active_width),
          .gid_index = path.sgid_index,
          .gid = gid.raw,
          .gid_type = gid.type,
          .mtu_bytes = path.mtu_bytes,
          .qp_timeout = path.ack_timeout,
          .outs = path.max_rd_atomic,
          .inline_bytes = inline_threshold(spec_, qp_->max_inline_data()),
          .srq = path.shared_receive_queue,
          .post_api = qp_->post_api(),
          .tclass = path.traffic_class,
          .sl = path.service_level,
          .comp_vector = static_cast<uint32_t>(group_.vector),
          .comp_vectors = static_cast<uint32_t>(context.completion_vectors()),
          .page_size = buffer_->page_size()};
}

RemoteBuffer QpStream::local_buffer() const {
  return {buffer_->address() + stride() + header_, buffer_->rkey(), spec_.size};
}

}  // namespace rdmabench
