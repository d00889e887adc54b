#include "datapath/endpoint.h"

#include <algorithm>
#include <cstdint>

#include "core/page_buffer.h"
#include "core/provider_facts.h"
#include "core/saturating.h"
#include "datapath/side_figures.h"
#include "verbs/device_list.h"

namespace rdmabench {

namespace {
// Receive rings of all of a side's streams together stay within this.
constexpr uint64_t kMaxReceiveRingBytes = 64ull << 20;
}  // namespace

void check_port_exists(const Context& context, uint8_t port) {
  check_port_exists(context, context.query_device(), port);
}

void check_port_exists(const Context& context, const ibv_device_attr& device, uint8_t port) {
  const int ports = device.phys_port_cnt;
  if (port < 1 || port > ports)
    throw Error(ExitCode::kUsage, "--ib-port " + std::to_string(port) + ": " +
                                      context.device_name() + " has " + std::to_string(ports) +
                                      " port(s), numbered from 1");
}

DeviceLimits device_limits(const Context& context, uint8_t port) {
  return device_limits(context, context.query_device(), port);
}

DeviceLimits device_limits(const Context& context, const ibv_device_attr& dev, uint8_t port) {
  check_port_exists(context, dev, port);
  const ibv_port_attr pa = context.query_port(port);
  const auto provider = provider_by_vendor(dev.vendor_id);
  return {.device = context.device_name(),
          .max_msg_sz = pa.max_msg_sz,
          .max_qp_wr = static_cast<uint32_t>(dev.max_qp_wr),
          .max_cqe = static_cast<uint32_t>(dev.max_cqe),
          .gid_table_len = static_cast<uint32_t>(pa.gid_tbl_len),
          .max_qp_rd_atom = static_cast<uint32_t>(std::max(0, dev.max_qp_rd_atom)),
          .active_mtu = 128u << pa.active_mtu,  // IBV_MTU_256 is 1
          .max_srq_wr = static_cast<uint32_t>(std::max(0, dev.max_srq_wr)),
          .max_qp_init_rd_atom = static_cast<uint32_t>(std::max(0, dev.max_qp_init_rd_atom)),
          .atomics = dev.atomic_cap != IBV_ATOMIC_NONE,
          .fabric = context.fabric(port),
          .driver = provider ? provider->driver : std::string(),
          .immediate_data = !provider || provider->immediate_data,
          .no_immediate_why = provider ? provider->why_not : std::string()};
}

Endpoint::Endpoint(const std::string& device, uint8_t port, const TestSpec& spec, Side side)
    : spec_(spec), side_(side), name_(spec.name()) {
  context_ = std::make_unique<Context>(DeviceList().open(device));
  port_ = port;  // before build(), which checks the device has it
  build();
  for (uint32_t i = 0; i < spec_.qps; ++i) add_stream();
}

Endpoint::Endpoint(const CmId& first, const TestSpec& spec, Side side)
    : spec_(spec), side_(side), name_(spec.name()) {
  context_ = std::make_unique<Context>(first.verbs(), Context::Ownership::kBorrowed);
  port_ = first.port_num();
  build();
}

Endpoint::~Endpoint() = default;

namespace {

// Upper bounds of a queue entry's size across providers: mlx5's send WQE is 64 bytes and one
// more 16-byte segment per 16 bytes of inline data, its receive WQE 16 to 64, its CQE 64 or
// 128; rxe's and siw's are smaller.
constexpr uint64_t kSendEntryBytes = 128;
constexpr uint64_t kReceiveEntryBytes = 64;
constexpr uint64_t kCompletionEntryBytes = 128;

uint64_t queue_bytes(const TestSpec& spec) {
  const uint64_t send =
      saturating_mul(spec.tx_depth, kSendEntryBytes + spec.inline_size.value_or(0));
  const uint64_t receive = saturating_mul(spec.rx_depth, kReceiveEntryBytes);
  const uint64_t per_qp = saturating_add(send, receive);
  const uint64_t completions = saturating_mul(
      saturating_mul(spec.cq_count(), saturating_mul(saturating_add(spec.tx_depth, spec.rx_depth),
                                                     spec.qps_per_cq())),
      kCompletionEntryBytes);
  return saturating_add(saturating_mul(spec.qps, per_qp), completions);
}

}  // namespace

uint64_t registered_bytes(const TestSpec& spec, Side side) {
  if (spec.qps == 0 || spec.size == 0) return 0;  // refused by validate_spec, never built
  const Pages pages = spec.hugepages ? Pages::kHuge2M : Pages::kSystem;
  const uint64_t ring = kMaxReceiveRingBytes / spec.qps;
  uint64_t total =
      saturating_mul(spec.qps, mapped_bytes(QpStream::buffer_bytes(spec, side, ring), pages));
  if (spec.srq && spec.receives_on(side))
    total = saturating_add(
        total, mapped_bytes(SharedReceives::buffer_bytes(spec, kMaxReceiveRingBytes), pages));
  return saturating_add(total, queue_bytes(spec));
}

void Endpoint::build() {
  const ibv_device_attr device = context_->query_device();  // once: limits, port, provider
  const DeviceLimits limits = device_limits(*context_, device, port_);
  validate_spec(spec_, limits);
  // Reads and atomics in flight: --outs (validated against the device), else its most, at most 16.
  rd_atomic_ = spec_.outs.value_or(std::clamp<uint32_t>(limits.max_rd_atomic(), 1, 16));
  pd_ = std::make_unique<ProtectionDomain>(*context_);
  cover_refused_key(device.vendor_id);
  const uint32_t receives = spec_.server_receives() ? spec_.rx_depth : 1;
  const int depth = static_cast<int>((spec_.tx_depth + receives) * spec_.qps_per_cq());
  // An open-loop lane of many CQs (--cq-per-qp) waits on them as one: they share its channel.
  if (spec_.open_loop() && spec_.cq_per_qp)
    for (uint32_t t = 0; t < spec_.threads; ++t)
      lane_channels_.push_back(std::make_unique<CompletionChannel>(*context_));
  for (uint32_t g = 0; g < spec_.cq_count(); ++g)
    groups_.push_back(std::make_unique<CompletionGroup>(
        *context_, depth, spec_.cq.of(side_), completion_vector(g, context_->completion_vectors()),
        lane_channels_.empty() ? nullptr : lane_channels_[g % spec_.threads].get()));
  if (spec_.srq && spec_.receives_on(side_))
    shared_receives_ = std::make_unique<SharedReceives>(*pd_, spec_, kMaxReceiveRingBytes);
  events_ = std::make_unique<AsyncEventWatch>(*context_, [this] { fail_queue_pairs(); });
}

void Endpoint::cover_refused_key(uint32_t vendor_id) {
  const uint32_t entries = key_cover_entries(vendor_id, page_bytes(Pages::kSystem));
  if (entries != 0)
    key_cover_ = std::make_unique<CompletionQueue>(*context_, static_cast<int>(entries), nullptr);
}

QpStream& Endpoint::add_stream(StreamConnection connection) {
  const auto i = static_cast<uint32_t>(streams_.size());
  auto stream = std::make_unique<QpStream>(
      spec_, side_, name_, i, *pd_, *groups_[spec_.cq_of_qp(i)], std::move(connection),
      kMaxReceiveRingBytes / spec_.qps, shared_receives_.get());
  stream->set_rd_atomic(rd_atomic_);
  const std::lock_guard<std::mutex> hold(streams_lock_);
  streams_.push_back(std::move(stream));
  return *streams_.back();
}

void Endpoint::fail_queue_pairs() noexcept {
  const std::lock_guard<std::mutex> hold(streams_lock_);
  for (auto& s : streams_) s->qp().to_error();
}

namespace {
// A bw run whose messages land in receives posted ahead (either way): one a receiver can run
// out of. A lat run's receiver posts before its peer sends again.
bool streams_into_receives(const TestSpec& spec) {
  return spec.mode == Mode::kBandwidth && (spec.server_receives() || spec.client_receives());
}
}  // namespace

void Endpoint::raise_device_failure() const {
  if (const auto event = events_->fatal())
    throw device_event_error(*event, context_->device_name(), name_,
                             receiver_advice(context_->is_iwarp(), streams_into_receives(spec_)));
}

std::vector<std::string> Endpoint::run_device_events() const {
  return events_->run_event_texts(kMaxDeviceEvents, kMaxDeviceEventText);
}

Lane Endpoint::lane(uint32_t t) {
  Lane lane;
  for (uint32_t i = t; i < streams_.size(); i += spec_.threads) {
    lane.streams.push_back(streams_[i].get());
    CompletionGroup* g = groups_[spec_.cq_of_qp(i)].get();
    auto at = std::find(lane.groups.begin(), lane.groups.end(), g);
    if (at == lane.groups.end()) at = lane.groups.insert(at, g);
    lane.group_of_stream.push_back(static_cast<uint32_t>(at - lane.groups.begin()));
  }
  return lane;
}

void Endpoint::begin_run(bool check, uint64_t corrupt_from, const RunAbort* abort) {
  for (auto& s : streams_) s->begin_run(check, corrupt_from, abort);
  for (auto& g : groups_) g->counts = {};
  events_->begin_run();
}

void Endpoint::end_run() {
  for (auto& s : streams_) s->end_run();
}

PollCounts Endpoint::poll_counts_of_lane(uint32_t t) {
  PollCounts sum;
  for (CompletionGroup* g : lane(t).groups) {
    sum.empty_polls += g->counts.empty_polls;
    sum.wakeups += g->counts.wakeups;
  }
  return sum;
}

void Endpoint::end_check_run() {
  for (auto& s : streams_) s->end_check_run();
}

}  // namespace rdmabench
